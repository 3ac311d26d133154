package io.winstats.exporter.history;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * One node's, pod's or container's figures over the history's slots: a row per figure, a column per slot. Not
 * thread-safe: {@link NodeHistory} guards it.
 */
final class Series {
  /** What a slot holds where the figure was absent or nothing was recorded; every figure is at least 0. */
  static final long ABSENT = Long.MIN_VALUE;

  /** An upper bound of the bytes a series of {@code figures × samples} takes: the object, the array, its longs. */
  static long bytes(int figures, int samples) {
    return 24 + 16 + 8L * figures * samples;
  }

  private final int samples;
  private final long[] values;

  Series(int figures, int samples) {
    this.samples = samples;
    this.values = new long[figures * samples];
    Arrays.fill(values, ABSENT);
  }

  /** A figure as held: {@link #ABSENT} for {@code null}. */
  static long held(@Nullable Long value) {
    return value == null ? ABSENT : value;
  }

  /** Writes one slot: {@code row} holds a value (or {@link #ABSENT}) per figure, in the figure list's order. */
  void write(int slot, long[] row) {
    for (int f = 0; f < row.length; f++) {
      values[f * samples + slot] = row[f];
    }
  }

  /** Marks every figure of a slot absent: the thing was not in that sample. */
  void clear(int slot) {
    for (int i = slot; i < values.length; i += samples) {
      values[i] = ABSENT;
    }
  }

  long get(int figure, int slot) {
    return values[figure * samples + slot];
  }
}
