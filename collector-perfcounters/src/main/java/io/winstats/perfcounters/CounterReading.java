package io.winstats.perfcounters;

/**
 * One reading of a cumulative counter, taken at a point of a monotonic clock.
 *
 * @param value the cumulative value (bytes, packets, nanoseconds, ...); never negative
 * @param monotonicNanos a monotonic clock reading in nanoseconds taken with the value (such as
 *     {@link NodeSample#monotonicNanos()}); only differences between readings of the same clock are meaningful
 */
public record CounterReading(long value, long monotonicNanos) {
  public CounterReading {
    if (value < 0) {
      throw new IllegalArgumentException("a cumulative counter is never negative: " + value);
    }
  }
}
