package io.winstats.perfcounters.procfs;

import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.NodeSourceException.Reason;
import java.util.regex.Pattern;

/** The number and field handling the procfs parsers share; every failure is a {@link Reason#MALFORMED}. */
final class ProcfsText {
  private ProcfsText() {}

  /** Parses an unsigned decimal counter. */
  static long parseCounter(String file, String token) {
    try {
      long value = Long.parseLong(token);
      if (value < 0) {
        throw malformed(file, "negative counter " + token);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new NodeSourceException(Reason.MALFORMED, file + ": not a counter: '" + token + "'", e);
    }
  }

  static double parseDecimal(String file, String token) {
    try {
      double value = Double.parseDouble(token);
      if (!Double.isFinite(value) || value < 0) {
        throw malformed(file, "not a non-negative number: " + token);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new NodeSourceException(Reason.MALFORMED, file + ": not a number: '" + token + "'", e);
    }
  }

  /** Compiled once: {@code String.split("\\s+")} compiles its pattern on every call (each mount line, each round). */
  private static final Pattern BLANKS = Pattern.compile("\\s+");

  static String[] fields(String line) {
    String trimmed = line.strip();
    return trimmed.isEmpty() ? new String[0] : BLANKS.split(trimmed);
  }

  /** A counter times a unit (sectors to bytes, ms to ns); a product past a long is MALFORMED, not an overflow. */
  static long parseScaledCounter(String file, String token, long unit) {
    long value = parseCounter(file, token);
    if (value > Long.MAX_VALUE / unit) {
      throw malformed(file, "counter " + token + " x " + unit + " is past a long");
    }
    return value * unit;
  }

  static NodeSourceException malformed(String file, String detail) {
    return new NodeSourceException(Reason.MALFORMED, file + ": " + detail);
  }
}
