package io.winstats.exporter.compare;

import io.winstats.exporter.compare.FigureComparison.Result;
import io.winstats.exporter.compare.FigureComparison.Row;
import io.winstats.exporter.compare.FigureComparison.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One comparison as a person reads it (rows that differ, what one side lacks, counts) or as a tool does (a JSON
 * object).
 */
final class ComparisonReport {
  /** The exit code when every figure compared is within its tolerance. */
  static final int SAME = 0;

  /** The exit code when some figure differs beyond its tolerance. */
  static final int DIFFERS = 3;

  private static final Pattern POD = Pattern.compile("pods\\[([^\\]]+)]");

  private final Result result;
  private final String daemonName;
  private final String referenceName;
  private final String noun;
  private final Map<String, String> podNames = new LinkedHashMap<>();

  /**
   * A report of {@code result}; {@code noun} is what its rows are ({@code figures} of a Summary, {@code series} of an
   * exposition), {@code entityNames} the names of the elements keyed by uid.
   */
  ComparisonReport(
      Result result, String daemonName, String referenceName, Map<String, String> entityNames, String noun) {
    this.result = result;
    this.daemonName = daemonName;
    this.referenceName = referenceName;
    this.noun = noun;
    entityNames.forEach(
        (key, name) -> {
          Matcher m = POD.matcher(key);
          if (m.matches()) {
            podNames.put(m.group(1), name.substring("pod ".length()));
          }
        });
  }

  int exitCode() {
    return result.count(Verdict.DIFFERS) == 0 ? SAME : DIFFERS;
  }

  /** A key with each pod's uid replaced by its namespace and name. */
  String readable(String key) {
    Matcher m = POD.matcher(key);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = podNames.get(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement("pods[" + (name == null ? m.group(1) : name) + "]"));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** Rows for a person: those not ok (every row with {@code all}), the elements one side lacks, and the counts. */
  String text(boolean all) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "daemon %s against %s%n%n", daemonName, referenceName));
    out.append(String.format(Locale.ROOT, "%-9s %-10s %20s %20s %16s  %s%n",
        "verdict", "kind", referenceName, "daemon", "difference", "figure"));
    for (Row row : result.rows()) {
      if (all || row.verdict() != Verdict.OK) {
        out.append(String.format(Locale.ROOT, "%-9s %-10s %20s %20s %16s  %s%n",
            row.verdict().name().toLowerCase(Locale.ROOT),
            row.kind().name().toLowerCase(Locale.ROOT),
            number(row.reference()),
            daemonValue(row),
            number(row.difference()) + (row.tolerance() > 0 ? " (±" + number(row.tolerance()) + ")" : ""),
            readable(row.key())));
      }
    }
    list(out, "only " + referenceName + " has", result.onlyReference());
    list(out, "only the daemon has", result.onlyDaemon());
    figures(out, noun + " only " + referenceName + " has", result.figuresOnlyReference());
    figures(out, noun + " only the daemon has", result.figuresOnlyDaemon());
    out.append(String.format(Locale.ROOT, "%n%d %s compared: %d ok, %d differ, %d unbracketed%n",
        result.rows().size(),
        noun,
        result.count(Verdict.OK),
        result.count(Verdict.DIFFERS),
        result.count(Verdict.UNBRACKETED)));
    return out.toString();
  }

  /** Every row, and the lists, as one JSON object's fields. */
  Map<String, Object> document() {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("daemon", daemonName);
    doc.put("reference", referenceName);
    doc.put("compared", result.rows().size());
    doc.put("ok", result.count(Verdict.OK));
    doc.put("differ", result.count(Verdict.DIFFERS));
    doc.put("unbracketed", result.count(Verdict.UNBRACKETED));
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Row row : result.rows()) {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("figure", readable(row.key()));
      r.put("key", row.key());
      r.put("kind", row.kind().name().toLowerCase(Locale.ROOT));
      r.put("verdict", row.verdict().name().toLowerCase(Locale.ROOT));
      r.put("reference", row.reference());
      r.put("daemonLow", row.daemonLow());
      r.put("daemonHigh", row.daemonHigh());
      r.put("difference", row.difference());
      r.put("tolerance", row.tolerance());
      rows.add(r);
    }
    doc.put("rows", rows);
    doc.put("onlyReference", result.onlyReference());
    doc.put("onlyDaemon", result.onlyDaemon());
    doc.put("figuresOnlyReference", result.figuresOnlyReference().stream().map(this::readable).toList());
    doc.put("figuresOnlyDaemon", result.figuresOnlyDaemon().stream().map(this::readable).toList());
    return doc;
  }

  private static String daemonValue(Row row) {
    Double low = row.daemonLow();
    Double high = row.daemonHigh();
    if (row.kind() != FigureKind.CUMULATIVE || (low != null && low.equals(high))) {
      return low == null ? "-" : number(low);
    }
    return (low == null ? "…" : number(low)) + ".." + (high == null ? "…" : number(high));
  }

  private static String number(@Nullable Double value) {
    if (value == null) {
      return "-";
    }
    double v = value;
    return v == Math.rint(v) && Math.abs(v) < 1e18 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.4g", v);
  }

  private static void list(StringBuilder out, String heading, Map<String, String> entities) {
    if (!entities.isEmpty()) {
      out.append(String.format(Locale.ROOT, "%n%s:%n", heading));
      entities.values().forEach(name -> out.append("  ").append(name).append(System.lineSeparator()));
    }
  }

  private void figures(StringBuilder out, String heading, List<String> keys) {
    if (!keys.isEmpty()) {
      out.append(String.format(Locale.ROOT, "%n%s:%n", heading));
      keys.forEach(k -> out.append("  ").append(readable(k)).append(System.lineSeparator()));
    }
  }
}
