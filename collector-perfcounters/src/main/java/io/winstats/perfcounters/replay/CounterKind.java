package io.winstats.perfcounters.replay;

/** How a formatted value in a counter log relates to the node model's figures. */
enum CounterKind {
  /** A percentage of the interval (0–100, uncapped in our own logs): integrated as value / 100 × interval. */
  PERCENT,
  /** A rate per second: integrated as value × interval into a cumulative count. */
  PER_SECOND,
  /** An instantaneous value or a raw count, taken as it is. */
  GAUGE;

  /** Whether the value describes the interval before its row, so the first row of a log has none. */
  boolean isRate() {
    return this != GAUGE;
  }
}
