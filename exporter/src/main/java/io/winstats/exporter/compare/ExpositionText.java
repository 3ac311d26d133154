package io.winstats.exporter.compare;

import io.winstats.exporter.compare.Figures.NotAFigureDocumentException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A strict reader of the Prometheus text format 0.0.4 (prometheus/docs content/docs/instrumenting/exposition_formats.md
 * "Text-based format"; the grammar of prometheus/common expfmt/text_parse.go): {@code # TYPE} and {@code # HELP} lines,
 * other comments, blank lines, and samples {@code name{label="value",...} value [timestamp]} with the escapes {@code
 * \\}, {@code \"} and {@code \n} in label values. client_java has writers of the format and no reader, so compare
 * keeps its own: anything else on a line (HTML, JSON, a second sample of one series) is an error naming the line.
 * An OpenMetrics {@code # EOF} ends the document.
 */
final class ExpositionText {
  /**
   * One sample.
   *
   * @param labels its labels by name, in name order
   * @param timestampMillis its own timestamp, if the line has one
   */
  record Sample(String name, SortedMap<String, String> labels, double value, @Nullable Long timestampMillis) {
    /** {@code name{a="x",b="y"}}: the sample's identity, its labels in name order and escaped as on the wire. */
    String key() {
      if (labels.isEmpty()) {
        return name;
      }
      StringBuilder out = new StringBuilder(name).append('{');
      labels.forEach(
          (label, value) ->
              out.append(out.charAt(out.length() - 1) == '{' ? "" : ",")
                  .append(label)
                  .append("=\"")
                  .append(value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"))
                  .append('"'));
      return out.append('}').toString();
    }
  }

  /**
   * A document read.
   *
   * @param samples every sample, in document order
   * @param types each family's {@code # TYPE}, by the family's name
   */
  record Document(List<Sample> samples, Map<String, String> types) {
    /**
     * The type of the family a sample named {@code name} belongs to: its own {@code # TYPE}, or that of the family a
     * {@code _bucket}, {@code _sum}, {@code _count} or {@code _created} sample belongs to; {@code untyped} when none.
     */
    String typeOf(String name) {
      String own = types.get(name);
      if (own != null) {
        return own;
      }
      for (String suffix : List.of("_bucket", "_sum", "_count", "_created")) {
        if (name.endsWith(suffix)) {
          String family = types.get(name.substring(0, name.length() - suffix.length()));
          if (family != null) {
            return family;
          }
        }
      }
      return "untyped";
    }
  }

  private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

  private static final Set<String> TYPES =
      Set.of("counter", "gauge", "histogram", "summary", "untyped", "info", "stateset", "gaugehistogram", "unknown");

  private ExpositionText() {}

  /** Reads {@code text}; {@code what} names it in an error. */
  static Document parse(String text, String what) throws NotAFigureDocumentException {
    List<Sample> samples = new ArrayList<>();
    Map<String, String> types = new HashMap<>();
    Set<String> seen = new HashSet<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
      if (line.isBlank()) {
        continue;
      }
      if (line.equals("# EOF")) {
        break;
      }
      if (line.startsWith("#")) {
        typeLine(line, types, what, i + 1);
        continue;
      }
      Sample sample = new LineReader(line, what, i + 1).sample();
      if (!seen.add(sample.key())) {
        throw new NotAFigureDocumentException(what + " line " + (i + 1) + ": a second sample of " + sample.key());
      }
      samples.add(sample);
    }
    if (samples.isEmpty()) {
      throw new NotAFigureDocumentException(
          what + " is not a Prometheus text exposition: it has no sample (" + excerpt(text) + ")");
    }
    return new Document(Collections.unmodifiableList(samples), Collections.unmodifiableMap(types));
  }

  private static void typeLine(String line, Map<String, String> types, String what, int number)
      throws NotAFigureDocumentException {
    String[] words = line.substring(1).strip().split("[ \t]+");
    if (words.length == 0 || !words[0].equals("TYPE")) {
      return; // # HELP and other comments say nothing compare needs
    }
    if (words.length != 3 || !isName(words[1]) || !TYPES.contains(words[2].toLowerCase(Locale.ROOT))) {
      throw new NotAFigureDocumentException(what + " line " + number + ": not a # TYPE line: " + clip(line));
    }
    if (types.put(words[1], words[2].toLowerCase(Locale.ROOT)) != null) {
      throw new NotAFigureDocumentException(what + " line " + number + ": a second # TYPE for " + words[1]);
    }
  }

  private static boolean isName(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
      if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
        return false;
      }
    }
    return true;
  }

  private static String excerpt(String text) {
    String t = text.strip();
    return t.isEmpty() ? "it is empty" : "it starts " + clip(t.lines().findFirst().orElse(""));
  }

  private static String clip(String line) {
    return line.length() <= 80 ? line : line.substring(0, 80) + "…";
  }

  /** One sample line, read left to right. */
  private static final class LineReader {
    private final String line;
    private final String what;
    private final int number;
    private int at;

    LineReader(String line, String what, int number) {
      this.line = line;
      this.what = what;
      this.number = number;
    }

    Sample sample() throws NotAFigureDocumentException {
      String name = name(false);
      SortedMap<String, String> labels = new TreeMap<>();
      int afterName = at;
      blanks(false);
      if (at < line.length() && line.charAt(at) == '{') {
        at++;
        labels(labels);
        blanks(true);
      } else if (at == afterName) {
        throw error("expected a space or { after the name");
      }
      double value = value(word());
      Long timestamp = null;
      if (at < line.length()) {
        blanks(true);
        String t = word();
        try {
          timestamp = Long.parseLong(t);
        } catch (NumberFormatException e) {
          throw error("not a timestamp: " + t);
        }
      }
      blanks(false);
      if (at < line.length()) {
        throw error("more after the sample");
      }
      return new Sample(name, Collections.unmodifiableSortedMap(labels), value, timestamp);
    }

    private void labels(Map<String, String> labels) throws NotAFigureDocumentException {
      blanks(false);
      while (at < line.length() && line.charAt(at) != '}') {
        String label = name(true);
        blanks(false);
        expect('=');
        blanks(false);
        expect('"');
        if (labels.put(label, quoted()) != null) {
          throw error("label " + label + " twice");
        }
        blanks(false);
        if (at < line.length() && line.charAt(at) == ',') {
          at++;
          blanks(false);
        } else if (at >= line.length() || line.charAt(at) != '}') {
          throw error("expected , or } after label " + label);
        }
      }
      expect('}');
    }

    private String quoted() throws NotAFigureDocumentException {
      StringBuilder out = new StringBuilder();
      while (at < line.length()) {
        char c = line.charAt(at++);
        if (c == '"') {
          return out.toString();
        }
        if (c == '\\') {
          if (at >= line.length()) {
            break;
          }
          char e = line.charAt(at++);
          switch (e) {
            case '\\' -> out.append('\\');
            case '"' -> out.append('"');
            case 'n' -> out.append('\n');
            default -> throw error("unknown escape \\" + e + " in a label value");
          }
        } else {
          out.append(c);
        }
      }
      throw error("a label value without its closing quote");
    }

    private String name(boolean label) throws NotAFigureDocumentException {
      int start = at;
      while (at < line.length()) {
        char c = line.charAt(at);
        boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!label && c == ':')
            || (at > start && c >= '0' && c <= '9');
        if (!ok) {
          break;
        }
        at++;
      }
      if (at == start) {
        throw error(label ? "expected a label name" : "no metric name");
      }
      return line.substring(start, at);
    }

    /** A Go float as expfmt reads it, decimal only: Java's own reader would also take {@code 1d} or {@code 0x1p3}. */
    private double value(String word) throws NotAFigureDocumentException {
      return switch (word) {
        case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
        case "-Inf" -> Double.NEGATIVE_INFINITY;
        case "NaN" -> Double.NaN;
        default -> {
          if (!DECIMAL.matcher(word).matches()) {
            throw error("not a number: " + clip(word));
          }
          yield Double.parseDouble(word);
        }
      };
    }

    private String word() throws NotAFigureDocumentException {
      int start = at;
      while (at < line.length() && line.charAt(at) != ' ' && line.charAt(at) != '\t') {
        at++;
      }
      if (at == start) {
        throw error("no value");
      }
      return line.substring(start, at);
    }

    private void blanks(boolean required) throws NotAFigureDocumentException {
      int start = at;
      while (at < line.length() && (line.charAt(at) == ' ' || line.charAt(at) == '\t')) {
        at++;
      }
      if (required && at == start) {
        throw error("expected a space");
      }
    }

    private void expect(char c) throws NotAFigureDocumentException {
      if (at >= line.length() || line.charAt(at) != c) {
        throw error("expected " + c);
      }
      at++;
    }

    private NotAFigureDocumentException error(String problem) {
      return new NotAFigureDocumentException(
          what + " line " + number + " is not a Prometheus text sample (" + problem + "): " + clip(line));
    }
  }
}
