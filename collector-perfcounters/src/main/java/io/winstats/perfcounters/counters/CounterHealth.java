package io.winstats.perfcounters.counters;

import java.time.Instant;
import java.util.Objects;

/**
 * The state of one counter path, for a {@code winstats_exporter_*} self-metric.
 *
 * @param path the English counter path
 * @param ok whether the last attempt produced data
 * @param status {@code "OK"}, or the failing status name (PDH status name, such as
 *     {@code PDH_CSTATUS_NO_OBJECT}, or a hex code), or a short reason such as {@code UNEXPECTED_TYPE}
 * @param call the PDH function that failed, or {@code ""} when ok
 * @param since when the counter entered this state (source clock)
 * @param skippedInstances instances skipped in the last sample because of their item status or a negative value
 */
public record CounterHealth(
    String path, boolean ok, String status, String call, Instant since, int skippedInstances) {
  public CounterHealth {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(since, "since");
    if (skippedInstances < 0) {
      throw new IllegalArgumentException("skippedInstances must not be negative");
    }
  }
}
