package io.winstats.perfcounters;

import io.winstats.perfcounters.counters.CounterHealth;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.counters.InstanceValue;
import java.util.List;
import java.util.Map;

/**
 * What a source that reads Windows performance counters by path can tell beyond its {@link NodeSample}: the health of
 * every path and the values of the operator's custom counters. Offered by
 * {@link NodeCounterSource#perfCounterReadings()} when the source has them (PDH), so the exporter never needs to know
 * the implementation.
 *
 * <p>Both methods are thread-safe and return immutable snapshots as of the last sample.
 */
public interface PerfCounterReadings {

  /** Health of every counter path as of the last sample (or open), in query order. */
  List<CounterHealth> health();

  /**
   * Values of the custom counters as of the last sample, in declaration order. A counter that could not be read in that
   * sample is absent (its {@link #health()} entry says why).
   */
  Map<CustomCounter, List<InstanceValue>> customValues();
}
