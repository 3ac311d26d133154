package io.winstats.exporter;

import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Which families the Prometheus endpoint serves ({@code metrics.*}), in {@link #ALL}. */
final class MetricsSettings {
  private MetricsSettings() {}

  static final Setting<Pattern> INCLUDE =
      Setting.valued(
          "metrics.include",
          "REGEX",
          ".*",
          "Serve on the Prometheus endpoint only the families whose name (as exposed, with _total) matches.",
          MetricsSettings::familyPattern)
          .withExample("(container|machine)_.*");

  static final Setting<Pattern> EXCLUDE =
      Setting.valued(
          "metrics.exclude",
          "REGEX",
          "",
          "Leave out of the Prometheus endpoint the families whose name matches, e.g. 'container_(network|fs)_.*'.",
          MetricsSettings::familyPattern)
          .withExample("container_network_.*");

  /** The group's settings, in usage order ({@code --help}'s). */
  static final List<Setting<?>> ALL = List.of(INCLUDE, EXCLUDE);

  private static Pattern familyPattern(String text) {
    try {
      return Pattern.compile(text);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("'" + text + "' is not a regular expression: " + e.getDescription(), e);
    }
  }
}
