package io.winstats.exporter;

import io.winstats.exporter.logging.LogLines;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The log's settings ({@code log.*}), in {@link #ALL}. */
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
          LogSettings::logLevel)
          .withChoices(LEVELS)
          .withExample("warn");

  static final Setting<LogLines.Format> FORMAT =
      Setting.valued(
          "log.format",
          "FORMAT",
          "logfmt",
          "logfmt or json: one line per record either way.",
          LogLines.Format::parse,
          c -> c.settings().value(LogSettings.FORMAT).flagValue())
          .withChoices(Arrays.stream(LogLines.Format.values()).map(LogLines.Format::flagValue).toList())
          .withExample(LogLines.Format.JSON.flagValue());

  /** The group's settings, in usage order ({@code --help}'s). */
  static final List<Setting<?>> ALL = List.of(LEVEL, FORMAT);

  private static String logLevel(String text) {
    String level = text.toLowerCase(Locale.ROOT);
    if (!LEVELS.contains(level)) {
      throw new IllegalArgumentException("'" + text + "' is not one of debug, info, warn, error");
    }
    return level;
  }
}
