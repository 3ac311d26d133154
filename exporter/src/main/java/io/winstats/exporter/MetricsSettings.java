package io.winstats.exporter;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Which families the Prometheus endpoint serves ({@code metrics.*}), listed in {@link Settings#ALL}. */
final class MetricsSettings {
  private MetricsSettings() {}

  static final Setting<Pattern> INCLUDE =
      Setting.valued(
          "metrics.include",
          "REGEX",
          ".*",
          "Serve on the Prometheus endpoint only the families whose name (as exposed, with _total) matches.",
          MetricsSettings::familyPattern,
          c -> c.families().include().pattern());

  static final Setting<Pattern> EXCLUDE =
      Setting.valued(
          "metrics.exclude",
          "REGEX",
          "",
          "Leave out of the Prometheus endpoint the families whose name matches, e.g. 'container_(network|fs)_.*'.",
          MetricsSettings::familyPattern,
          c -> c.families().exclude().pattern());

  private static Pattern familyPattern(String text) {
    try {
      return Pattern.compile(text);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("'" + text + "' is not a regular expression: " + e.getDescription(), e);
    }
  }
}
