package io.winstats.cri.cgroups;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One resource's pressure stall information: {@code some} (at least one task stalled) and {@code full} (all
 * non-idle tasks stalled at once). {@code full} is absent from {@code /proc/pressure/cpu} before Linux 5.13.
 */
public record Pressure(PressureLine some, @Nullable PressureLine full) {
  private static final String[] KEYS = {"avg10=", "avg60=", "avg300=", "total="};

  public Pressure {
    Objects.requireNonNull(some, "some");
  }

  /** Parses a {@code *.pressure} or {@code /proc/pressure/*} file; throws {@link IllegalArgumentException}. */
  public static Pressure parse(String text) {
    byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
    return parse(b, b.length);
  }

  /**
   * {@link #parse(String)} of the ISO-8859-1 text {@code b[0, length)}, where a cgroup round read it: lines of
   * exactly five fields ({@code some avg10=0.00 avg60=0.00 avg300=0.00 total=0}) count, others are skipped.
   */
  static Pressure parse(byte[] b, int length) {
    PressureLine some = null;
    PressureLine full = null;
    int[] at = new int[10];
    for (int line = 0; line < length; ) {
      int nl = KernelFile.indexOf(b, line, length, (byte) '\n');
      int end = nl < 0 ? length : nl;
      int from = KernelFile.stripStart(b, line, end);
      int to = KernelFile.stripEnd(b, from, end);
      line = end + 1;
      // The five fields' bounds; a stripped line starts and ends in a field.
      int fields = 0;
      for (int f = from; f < to && fields < 6; fields++) {
        int e = KernelFile.fieldEnd(b, f, to);
        if (fields < 5) {
          at[2 * fields] = f;
          at[2 * fields + 1] = e;
        }
        f = KernelFile.skipSpaces(b, e, to);
      }
      if (fields != 5) {
        continue;
      }
      PressureLine parsed =
          new PressureLine(
              KernelFile.parseDouble(b, valueAt(b, at, 1), at[3]),
              KernelFile.parseDouble(b, valueAt(b, at, 2), at[5]),
              KernelFile.parseDouble(b, valueAt(b, at, 3), at[7]),
              KernelFile.parseLong(b, valueAt(b, at, 4), at[9]));
      if (KernelFile.equals(b, at[0], at[1], "some")) {
        some = parsed;
      } else if (KernelFile.equals(b, at[0], at[1], "full")) {
        full = parsed;
      }
    }
    if (some == null) {
      throw new IllegalArgumentException(
          "no 'some' line in pressure file: " + new String(b, 0, length, StandardCharsets.ISO_8859_1).strip());
    }
    return new Pressure(some, full);
  }

  /** Where the value of field {@code i} starts, after its {@code key=}. */
  private static int valueAt(byte[] b, int[] at, int i) {
    String key = KEYS[i - 1];
    int from = at[2 * i];
    int to = at[2 * i + 1];
    if (!KernelFile.startsWith(b, from, to, key)) {
      throw new IllegalArgumentException(
          "expected " + key + ", got " + new String(b, from, to - from, StandardCharsets.ISO_8859_1));
    }
    return from + key.length();
  }
}
