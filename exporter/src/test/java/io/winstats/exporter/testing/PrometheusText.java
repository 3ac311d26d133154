package io.winstats.exporter.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Reads sample lines of Prometheus text 0.0.4 for assertions: name, labels, value and optional timestamp. */
public record PrometheusText(String name, Map<String, String> labels, double value, @Nullable Long timestampMillis) {
  private static final Pattern LINE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)(?: (-?\\d+))?$");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

  public static List<PrometheusText> parse(String body) {
    List<PrometheusText> out = new ArrayList<>();
    for (String line : body.split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      Matcher m = LINE.matcher(line);
      if (!m.matches()) {
        throw new AssertionError("not a Prometheus text sample line: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(2) != null) {
        Matcher l = LABEL.matcher(m.group(2));
        while (l.find()) {
          labels.put(l.group(1), l.group(2));
        }
      }
      out.add(
          new PrometheusText(
              m.group(1), labels, Double.parseDouble(m.group(3)), m.group(4) == null ? null : Long.parseLong(m.group(4))));
    }
    return out;
  }

  /** The samples named {@code name} whose labels include every given pair. */
  public static List<PrometheusText> select(List<PrometheusText> samples, String name, String... labelPairs) {
    List<PrometheusText> out = new ArrayList<>();
    outer:
    for (PrometheusText s : samples) {
      if (!s.name().equals(name)) {
        continue;
      }
      for (int i = 0; i < labelPairs.length; i += 2) {
        if (!labelPairs[i + 1].equals(s.labels().get(labelPairs[i]))) {
          continue outer;
        }
      }
      out.add(s);
    }
    return out;
  }
}
