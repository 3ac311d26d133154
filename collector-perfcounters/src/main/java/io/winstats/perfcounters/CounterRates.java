package io.winstats.perfcounters;

import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * Pure functions from two readings of a cumulative counter to its increase and its rate. The sources publish cumulative
 * figures and leave rates to their readers; here the reader is {@code CounterLogRecorder}, which writes per-second
 * values between two node samples.
 *
 * <p>The rules, in order:
 *
 * <ol>
 *   <li>no previous reading (the first sample) gives no value;
 *   <li>an interval of zero or less gives no rate (the increase is still defined);
 *   <li>a 64-bit counter that decreased was reset and gives no value, never a negative one;
 *   <li>a 32-bit counter that decreased wrapped once, and its increase is taken modulo 2<sup>32</sup>.
 * </ol>
 *
 * <p>Thread-safe: the class holds no state.
 */
public final class CounterRates {
  private static final long TWO_TO_32 = 1L << 32;
  private static final double NANOS_PER_SECOND = 1_000_000_000d;

  private CounterRates() {}

  /**
   * The increase of a counter from {@code previous} to {@code current}, in the counter's own unit.
   *
   * @param previous the earlier reading, or {@code null} when {@code current} is the first
   * @return the increase, or empty for a first reading or a reset
   * @throws IllegalArgumentException when a {@link CounterWidth#BITS_32} reading is 2<sup>32</sup> or more
   */
  public static OptionalLong delta(@Nullable CounterReading previous, CounterReading current, CounterWidth width) {
    requireInRange(current, width);
    if (previous == null) {
      return OptionalLong.empty();
    }
    requireInRange(previous, width);
    long difference = current.value() - previous.value();
    if (difference >= 0) {
      return OptionalLong.of(difference);
    }
    return width == CounterWidth.BITS_32 ? OptionalLong.of(difference + TWO_TO_32) : OptionalLong.empty();
  }

  /**
   * The rate of a counter between two readings, in the counter's unit per second of the monotonic clock.
   *
   * @param previous the earlier reading, or {@code null} when {@code current} is the first
   * @return units per second, or empty for a first reading, a reset, or an interval of zero or less
   * @throws IllegalArgumentException when a {@link CounterWidth#BITS_32} reading is 2<sup>32</sup> or more
   */
  public static OptionalDouble rate(@Nullable CounterReading previous, CounterReading current, CounterWidth width) {
    OptionalLong increase = delta(previous, current, width);
    if (increase.isEmpty() || previous == null) {
      return OptionalDouble.empty();
    }
    long intervalNanos = current.monotonicNanos() - previous.monotonicNanos();
    if (intervalNanos <= 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(increase.getAsLong() * NANOS_PER_SECOND / intervalNanos);
  }

  private static void requireInRange(CounterReading reading, CounterWidth width) {
    if (width == CounterWidth.BITS_32 && reading.value() >= TWO_TO_32) {
      throw new IllegalArgumentException("not a 32-bit counter value: " + reading.value());
    }
  }
}
