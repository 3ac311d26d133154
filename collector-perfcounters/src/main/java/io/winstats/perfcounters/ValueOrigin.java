package io.winstats.perfcounters;

/** Whether the cumulative figures of a sample are exact or were integrated from formatted (per-second) values. */
public enum ValueOrigin {
  /** Read from cumulative raw counters (PDH raw values, /proc jiffies): exact. */
  RAW,
  /**
   * Integrated from formatted rates or percentages, as a typeperf/relog CSV holds them: an approximation whose error
   * grows with the recording interval.
   */
  FORMATTED
}
