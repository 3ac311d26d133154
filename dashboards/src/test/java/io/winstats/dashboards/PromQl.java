package io.winstats.dashboards;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression (or a Grafana variable query) reads: enough PromQL lexing to drop strings,
 * label matchers, grouping clauses, durations, template variables, function calls and keywords, so that what stays
 * are series names. It is deliberately strict: an identifier it cannot place counts as a metric name, and a test
 * then fails on it.
 */
final class PromQl {
  private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{?\\w+}?");
  private static final Pattern MATCHERS = Pattern.compile("\\{[^{}]*}");
  private static final Pattern RANGE = Pattern.compile("\\[[^\\[\\]]*]");
  private static final Pattern GROUPING =
      Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^()]*\\)");
  private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\s*\\((.*),\\s*\\w+\\s*\\)", Pattern.DOTALL);
  private static final Pattern OFFSET = Pattern.compile("\\boffset\\s+-?\\w+");
  private static final Pattern NUMBER = Pattern.compile("\\b\\d[\\w.]*");
  private static final Pattern IDENTIFIER = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");
  private static final Set<String> KEYWORDS =
      Set.of("and", "or", "unless", "bool", "by", "without", "on", "ignoring", "group_left", "group_right", "offset",
          "inf", "nan", "Inf", "NaN");

  private PromQl() {}

  /** The series names {@code expr} selects, in order. */
  static Set<String> metricNames(String expr) {
    String s = expr;
    Matcher lv = LABEL_VALUES.matcher(s);
    if (lv.matches()) {
      s = lv.group(1);
    }
    s = STRING.matcher(s).replaceAll("\"\"");
    s = VARIABLE.matcher(s).replaceAll("1");
    s = MATCHERS.matcher(s).replaceAll(" ");
    s = RANGE.matcher(s).replaceAll(" ");
    s = GROUPING.matcher(s).replaceAll(" ");
    s = OFFSET.matcher(s).replaceAll(" ");
    s = s.replace("\"\"", " ");
    s = NUMBER.matcher(s).replaceAll(" ");
    Set<String> names = new TreeSet<>();
    Matcher m = IDENTIFIER.matcher(s);
    while (m.find()) {
      boolean call = m.group(2) != null;
      if (!call && !KEYWORDS.contains(m.group(1))) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  /**
   * {@code expr} without its last top-level comparison against a number ({@code x > 0.9} gives {@code x}), for
   * evaluating an alert's inputs without its threshold.
   *
   * @throws IllegalArgumentException if the expression does not end in such a comparison
   */
  static String withoutThreshold(String expr) {
    String trimmed = expr.strip();
    Matcher m = Pattern.compile("(?s)^(.*?)\\s*(==|!=|>=|<=|>|<)\\s*(-?[0-9.eE+]+)$").matcher(trimmed);
    if (!m.matches()) {
      throw new IllegalArgumentException("no trailing threshold comparison in: " + expr);
    }
    return m.group(1);
  }
}
