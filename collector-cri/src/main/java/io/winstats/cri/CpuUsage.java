package io.winstats.cri;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Cumulative CPU time of a container or pod.
 *
 * @param timestamp the runtime's time of the reading
 * @param usageCoreNanos cumulative CPU time in nanoseconds
 * @param usageNanoCores CPU rate in nano-cores from our own delta against the previous reading of the same container
 *     instance; {@code null} on the first reading, after a reset, or over a zero interval (never the runtime's own
 *     {@code usage_nano_cores}, which every caller shares: containerd#9531)
 */
public record CpuUsage(Instant timestamp, long usageCoreNanos, @Nullable Long usageNanoCores) {
  public CpuUsage {
    Objects.requireNonNull(timestamp, "timestamp");
    if (usageCoreNanos < 0) {
      throw new IllegalArgumentException("usageCoreNanos must not be negative: " + usageCoreNanos);
    }
  }
}
