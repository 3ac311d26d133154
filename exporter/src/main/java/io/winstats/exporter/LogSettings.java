package io.winstats.exporter;

import io.winstats.exporter.logging.LogLines;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The log's settings ({@code log.*}), listed in {@link Settings#ALL}. */
final class LogSettings {
  private LogSettings() {}

  /** The levels, least severe first. */
  private static final List<String> LEVELS = List.of("debug", "info", "warn", "error");

  static final Setting<String> LEVEL =
      Setting.valued(
          "log.level",
          "LEVEL",
          "info",
          "debug, info, warn or error.",
          LogSettings::logLevel,
          ExporterConfig::logLevel)
          .withChoices(LEVELS);

  static final Setting<LogLines.Format> FORMAT =
      Setting.valued(
          "log.format",
          "FORMAT",
          "logfmt",
          "logfmt or json: one line per record either way.",
          LogLines.Format::parse,
          c -> c.logFormat().flagValue())
          .withChoices(Arrays.stream(LogLines.Format.values()).map(LogLines.Format::flagValue).toList());

  private static String logLevel(String text) {
    String level = text.toLowerCase(Locale.ROOT);
    if (!LEVELS.contains(level)) {
      throw new IllegalArgumentException("'" + text + "' is not one of debug, info, warn, error");
    }
    return level;
  }
}
