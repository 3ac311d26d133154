package io.winstats.perfcounters.pdh;

/**
 * How a declared counter's raw value is read. This is the documented expectation; the node source reads the actual
 * {@code dwType} at open, lets its size bit (0x100) decide 32- or 64-bit wrap, and logs once at INFO when the actual
 * type differs from {@link #expectedType()}.
 */
enum CounterKind {
  /** {@code PERF_100NSEC_TIMER}: FirstValue is cumulative active time in 100 ns. */
  TIMER_100NS(PerfCounterType.PERF_100NSEC_TIMER),
  /** {@code PERF_100NSEC_TIMER_INV}: FirstValue is cumulative inactive time in 100 ns; SecondValue a 100 ns stamp. */
  TIMER_100NS_INVERSE(PerfCounterType.PERF_100NSEC_TIMER_INV),
  /** {@code PERF_PRECISION_100NS_TIMER}: FirstValue in 100 ns, SecondValue its 100 ns base. */
  PRECISION_TIMER_100NS(PerfCounterType.PERF_PRECISION_100NS_TIMER),
  /** {@code PERF_COUNTER_BULK_COUNT}: FirstValue is a cumulative 64-bit count. */
  BULK_COUNT(PerfCounterType.PERF_COUNTER_BULK_COUNT),
  /** {@code PERF_COUNTER_COUNTER}: FirstValue is a cumulative 32-bit count (wraps at 2^32). */
  COUNT(PerfCounterType.PERF_COUNTER_COUNTER),
  /** {@code PERF_COUNTER_RAWCOUNT}: a 32-bit value; may be a gauge or, despite the name, a cumulative count. */
  RAW(PerfCounterType.PERF_COUNTER_RAWCOUNT),
  /** {@code PERF_COUNTER_LARGE_RAWCOUNT}: a 64-bit instantaneous value. */
  RAW_LARGE(PerfCounterType.PERF_COUNTER_LARGE_RAWCOUNT),
  /** {@code PERF_RAW_FRACTION}: FirstValue the numerator, SecondValue the base. */
  RAW_FRACTION(PerfCounterType.PERF_RAW_FRACTION),
  /** {@code PERF_AVERAGE_TIMER}: FirstValue cumulative time in ticks of the time base, SecondValue the op count. */
  AVERAGE_TIMER(PerfCounterType.PERF_AVERAGE_TIMER),
  /** {@code PERF_ELAPSED_TIME}: FirstValue a start time, SecondValue "now", both in ticks of the time base. */
  ELAPSED_TIME(PerfCounterType.PERF_ELAPSED_TIME);

  private final int expectedType;

  CounterKind(int expectedType) {
    this.expectedType = expectedType;
  }

  /** The winperf type the documentation gives. */
  int expectedType() {
    return expectedType;
  }

  /** Whether the source needs {@code PdhGetCounterTimeBase} for this kind. */
  boolean needsTimeBase() {
    return this == AVERAGE_TIMER || this == ELAPSED_TIME;
  }
}
