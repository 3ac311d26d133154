package io.winstats.perfcounters;

/**
 * How wide a cumulative counter is, which decides what a decrease between two readings means.
 *
 * <p>Only PDH declares 32-bit counters ({@code PERF_COUNTER_COUNTER}, {@code PERF_COUNTER_RAWCOUNT}); they wrap at
 * 2<sup>32</sup>. Everything else, including every /proc counter read into a Java {@code long}, is {@link #BITS_64},
 * where a decrease means the counter was reset.
 */
public enum CounterWidth {
  /** Wraps modulo 2<sup>32</sup>: a smaller reading means the counter went round once. Values are in [0, 2^32). */
  BITS_32,
  /** Never wraps in practice: a smaller reading means a reset (reboot, interface re-created). */
  BITS_64
}
