package io.winstats.exporter;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as Prometheus flags write them: {@code 500ms}, {@code 10s}, {@code 1m}, {@code 1m30s}, {@code 2h}. */
final class DurationFlag {
  static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

  private DurationFlag() {}

  static Duration parse(String text) {
    if (text.isEmpty()) {
      throw new IllegalArgumentException("empty duration");
    }
    Matcher m = PART.matcher(text);
    Duration total = Duration.ZERO;
    int at = 0;
    while (at < text.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new IllegalArgumentException("'" + text + "' is not a duration such as 500ms, 10s, 1m or 1m30s");
      }
      long n = Long.parseLong(m.group(1));
      total =
          total.plus(
              switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
              });
      at = m.end();
    }
    return total;
  }

  static String format(Duration d) {
    if (d.toMillis() % 1000 != 0) {
      return d.toMillis() + "ms";
    }
    return d.toSeconds() + "s";
  }
}
