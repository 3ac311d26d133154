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
 * @param userNanos cumulative CPU time in user mode, where the source splits it (Windows task statistics: hcsshim's
 *     {@code runtime_user_ns}); {@code null} from CRI, which carries the total only
 * @param kernelNanos cumulative CPU time in kernel mode ({@code runtime_kernel_ns}), likewise
 */
public record CpuUsage(
    Instant timestamp,
    long usageCoreNanos,
    @Nullable Long usageNanoCores,
    @Nullable Long userNanos,
    @Nullable Long kernelNanos) {
  public CpuUsage {
    Objects.requireNonNull(timestamp, "timestamp");
    if (usageCoreNanos < 0) {
      throw new IllegalArgumentException("usageCoreNanos must not be negative: " + usageCoreNanos);
    }
    if ((userNanos != null && userNanos < 0) || (kernelNanos != null && kernelNanos < 0)) {
      throw new IllegalArgumentException("user and kernel CPU must not be negative: " + userNanos + ", " + kernelNanos);
    }
  }

  /** A reading of the total alone, as CRI reports it. */
  public CpuUsage(Instant timestamp, long usageCoreNanos, @Nullable Long usageNanoCores) {
    this(timestamp, usageCoreNanos, usageNanoCores, null, null);
  }
}
