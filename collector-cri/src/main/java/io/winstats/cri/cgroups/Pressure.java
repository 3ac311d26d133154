package io.winstats.cri.cgroups;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One resource's pressure stall information: {@code some} (at least one task stalled) and {@code full} (all
 * non-idle tasks stalled at once). {@code full} is absent from {@code /proc/pressure/cpu} before Linux 5.13.
 */
public record Pressure(PressureLine some, @Nullable PressureLine full) {
  public Pressure {
    Objects.requireNonNull(some, "some");
  }

  /** Parses a {@code *.pressure} or {@code /proc/pressure/*} file; throws {@link IllegalArgumentException}. */
  public static Pressure parse(String text) {
    PressureLine some = null;
    PressureLine full = null;
    for (String line : text.split("\n")) {
      String[] fields = CgroupReader.FIELDS.split(line.strip());
      if (fields.length != 5) {
        continue;
      }
      PressureLine parsed =
          new PressureLine(
              Double.parseDouble(value(fields[1], "avg10")),
              Double.parseDouble(value(fields[2], "avg60")),
              Double.parseDouble(value(fields[3], "avg300")),
              Long.parseLong(value(fields[4], "total")));
      switch (fields[0]) {
        case "some" -> some = parsed;
        case "full" -> full = parsed;
        default -> {}
      }
    }
    if (some == null) {
      throw new IllegalArgumentException("no 'some' line in pressure file: " + text.strip());
    }
    return new Pressure(some, full);
  }

  private static String value(String field, String key) {
    if (!field.startsWith(key + "=")) {
      throw new IllegalArgumentException("expected " + key + "=, got " + field);
    }
    return field.substring(key.length() + 1);
  }
}
