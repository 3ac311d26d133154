package io.winstats.perfcounters.counters;

/**
 * How a counter's raw value ({@code PDH_RAW_COUNTER}: FirstValue, SecondValue) is documented to be read, named after
 * its {@code winperf.h} counter type. This is the documented expectation; the PDH source reads the actual type when it
 * adds the counter and lets that decide (see {@code pdh.PerfCounterType}).
 */
public enum RawKind {
  /** {@code PERF_100NSEC_TIMER}: FirstValue is cumulative active time in 100 ns. */
  TIMER_100NS,
  /** {@code PERF_100NSEC_TIMER_INV}: FirstValue is cumulative inactive time in 100 ns; SecondValue a 100 ns stamp. */
  TIMER_100NS_INVERSE,
  /** {@code PERF_PRECISION_100NS_TIMER}: FirstValue in 100 ns, SecondValue its 100 ns base. */
  PRECISION_TIMER_100NS,
  /** {@code PERF_COUNTER_BULK_COUNT}: FirstValue is a cumulative 64-bit count. */
  BULK_COUNT,
  /** {@code PERF_COUNTER_COUNTER}: FirstValue is a cumulative 32-bit count (wraps at 2^32). */
  COUNT,
  /** {@code PERF_COUNTER_RAWCOUNT}: a 32-bit value; may be a gauge or, despite the name, a cumulative count. */
  RAW,
  /** {@code PERF_COUNTER_LARGE_RAWCOUNT}: a 64-bit instantaneous value. */
  RAW_LARGE,
  /** {@code PERF_RAW_FRACTION}: FirstValue the numerator, SecondValue the base. */
  RAW_FRACTION,
  /** {@code PERF_AVERAGE_TIMER}: FirstValue cumulative time in ticks of the time base, SecondValue the op count. */
  AVERAGE_TIMER,
  /**
   * {@code PERF_AVERAGE_BULK}: FirstValue a cumulative 64-bit numerator, SecondValue its base (a 32-bit {@code
   * PERF_AVERAGE_BASE} count, wrapping at 2^32).
   */
  AVERAGE_BULK,
  /**
   * {@code PERF_COUNTER_100NS_QUEUELEN_TYPE}: FirstValue a queue length summed over time in 100 ns (64-bit), whose
   * delta over the elapsed 100 ns is the mean queue length; SecondValue the 100 ns time stamp.
   */
  QUEUE_LENGTH_100NS,
  /** {@code PERF_ELAPSED_TIME}: FirstValue a start time, SecondValue "now", both in ticks of the time base. */
  ELAPSED_TIME
}
