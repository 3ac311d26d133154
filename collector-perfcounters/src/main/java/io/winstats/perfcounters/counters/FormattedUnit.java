package io.winstats.perfcounters.counters;

/**
 * What a counter's formatted value means: the number typeperf, relog and Performance Monitor write in a counter log
 * (PDH's display value, {@code PdhGetFormattedCounterValue}).
 */
public enum FormattedUnit {
  /**
   * A share of the interval before the sample, in percent (0–100 per instance; uncapped in our own logs): a time rate,
   * integrated as value / 100 × interval.
   */
  PERCENT_OF_INTERVAL,
  /**
   * The mean of a number over the interval before the sample, such as an average queue length: a rate of its time
   * integral, integrated as value × interval.
   */
  MEAN_OVER_INTERVAL,
  /** Events, bytes or packets per second over the interval before the sample: integrated as value × interval. */
  PER_SECOND,
  /** A share at the sample time, in percent, such as {@code % Free Space}. */
  PERCENT,
  /** Bytes at the sample time. */
  BYTES,
  /** Megabytes (2^20 bytes) at the sample time. */
  MEGABYTES,
  /** A number at the sample time: a gauge, or a raw count since some start (adapter errors), taken as it is. */
  COUNT,
  /** Seconds: an uptime, or an average time per operation over the interval. */
  SECONDS;

  /**
   * Whether the value is a rate over the interval before its sample, so that it integrates into a cumulative figure and
   * the first row of a log has none.
   */
  public boolean isRate() {
    return this == PERCENT_OF_INTERVAL || this == MEAN_OVER_INTERVAL || this == PER_SECOND;
  }
}
