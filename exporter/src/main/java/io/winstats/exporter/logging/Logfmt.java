package io.winstats.exporter.logging;

import java.time.Duration;

/** Values as logfmt writes them (go-logfmt's encoder), and durations as Go and Prometheus print them. */
public final class Logfmt {
  private Logfmt() {}

  /**
   * {@code value} as it stands after {@code key=}: bare when it has no space, {@code =}, {@code "} or control
   * character, else in double quotes with {@code \\}, {@code \"}, {@code \n}, {@code \r}, {@code \t} and other control
   * characters escaped (go-logfmt {@code needsQuotedValueRune}, {@code writeQuotedString}). Empty stays empty.
   */
  public static String value(String value) {
    if (!needsQuotes(value)) {
      return value;
    }
    StringBuilder out = new StringBuilder(value.length() + 8).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '"' -> out.append("\\\"");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < ' ' || c == 0x7f) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private static boolean needsQuotes(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c <= ' ' || c == '=' || c == '"' || c == 0x7f || (Character.isSurrogate(c) && !validSurrogate(value, i))) {
        return true;
      }
    }
    return false;
  }

  private static boolean validSurrogate(String value, int i) {
    return Character.isHighSurrogate(value.charAt(i))
        ? i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))
        : i > 0 && Character.isHighSurrogate(value.charAt(i - 1));
  }

  /**
   * A duration as Go's {@code time.Duration.String()} prints it, to the millisecond: {@code 26.829s}, {@code 1m30s},
   * {@code 2h0m5s}, {@code 250ms}, {@code 0s}; negative with a leading {@code -}.
   */
  public static String duration(Duration d) {
    long millis = d.toMillis();
    if (millis == 0) {
      return "0s";
    }
    String sign = millis < 0 ? "-" : "";
    long m = Math.abs(millis);
    if (m < 1000) {
      return sign + m + "ms";
    }
    long hours = m / 3_600_000;
    long minutes = m / 60_000 % 60;
    long seconds = m / 1000 % 60;
    long fraction = m % 1000;
    StringBuilder out = new StringBuilder(sign);
    if (hours > 0) {
      out.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      out.append(minutes).append('m');
    }
    out.append(seconds);
    if (fraction > 0) {
      String f = String.format("%03d", fraction);
      out.append('.').append(f.replaceAll("0+$", ""));
    }
    return out.append('s').toString();
  }
}
