package io.winstats.exporter;

import java.time.Duration;
import java.util.Locale;

/** Checks several settings share; each throws {@link IllegalArgumentException} with the problem. */
final class SettingChecks {
  private SettingChecks() {}

  static Boolean bool(String text) {
    return switch (text.toLowerCase(Locale.ROOT)) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> throw new IllegalArgumentException("'" + text + "' is not true or false");
    };
  }

  static Duration duration(String text, Duration minimum) {
    Duration d = DurationFlag.parse(text);
    if (d.compareTo(minimum) < 0) {
      throw new IllegalArgumentException(text + " is shorter than the minimum " + DurationFlag.format(minimum));
    }
    return d;
  }

  static long size(String text, long minimum, long maximum) {
    long n = ByteSizeFlag.parse(text);
    if (n < minimum || n > maximum) {
      throw new IllegalArgumentException(
          text + " is outside " + ByteSizeFlag.format(minimum) + " to " + ByteSizeFlag.format(maximum));
    }
    return n;
  }
}
