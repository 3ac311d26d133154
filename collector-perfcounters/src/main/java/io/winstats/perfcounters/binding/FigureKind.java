package io.winstats.perfcounters.binding;

/**
 * How a counter's value relates to the node-model figure it is bound to. How a counter log writes it follows from the
 * counter's {@link io.winstats.perfcounters.counters.FormattedUnit}: a rate unit is integrated over the row intervals,
 * any other unit is the value itself.
 */
public enum FigureKind {
  /**
   * The value now, in the figure's unit. PDH: FirstValue, unsigned at the counter's width. Log: the formatted value.
   */
  GAUGE,
  /**
   * A count since some start. PDH: FirstValue, carried across the 2<sup>32</sup> wrap when the counter's actual type is
   * 32-bit ({@code PERF_COUNTER_COUNTER}, {@code PERF_COUNTER_RAWCOUNT}) and passed through when it is 64-bit; the
   * counter's {@code RawKind} says which width is documented, the type PDH reports decides. Log: per second (a rate
   * unit), written as the rate between two rows and integrated back, or the count itself.
   */
  CUMULATIVE,
  /**
   * Cumulative time in nanoseconds that a timer counts as active, or a queue length integrated over time in
   * request-nanoseconds ({@code PERF_COUNTER_100NS_QUEUELEN_TYPE}). PDH: a 100 ns FirstValue × 100. Log: the
   * percentage of the interval ({@code PERCENT_OF_INTERVAL}) or the mean queue length over it ({@code
   * MEAN_OVER_INTERVAL}), integrated back.
   */
  TIMER,
  /**
   * Cumulative busy time in nanoseconds from a timer that counts the idle rest. Log: 100 minus the percentage of the
   * interval, whose complement is integrated back. PDH: elapsed minus idle, which the object's reader keeps.
   */
  INVERSE_TIMER
}
