package io.winstats.exporter;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes as flags write them: {@code 16384}, {@code 16KiB}, {@code 1MiB} (binary units only, to avoid doubt). */
final class ByteSizeFlag {
  static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB)?");

  private ByteSizeFlag() {}

  static long parse(String text) {
    Matcher m = SIZE.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not a size such as 16384, 16KiB or 1MiB");
    }
    long n = Long.parseLong(m.group(1));
    int shift =
        m.group(2) == null
            ? 0
            : switch (m.group(2)) {
              case "KiB" -> 10;
              case "MiB" -> 20;
              case "GiB" -> 30;
              default -> 0;
            };
    if (n > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException("'" + text + "' is too large");
    }
    return n << shift;
  }

  static String format(long bytes) {
    if (bytes > 0 && bytes % (1 << 20) == 0) {
      return (bytes >> 20) + "MiB";
    }
    if (bytes > 0 && bytes % 1024 == 0) {
      return (bytes >> 10) + "KiB";
    }
    return Long.toString(bytes);
  }
}
