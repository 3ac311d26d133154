package io.winstats.cri;

import org.jspecify.annotations.Nullable;

/**
 * The Linux resources the runtime applied to a container, from CRI {@code ContainerStatus.resources.linux}
 * (cri-api 1.25+; runtimes that do not fill it leave the whole spec absent). A {@code null} figure is one the runtime
 * reported as 0, which CRI uses for "not set".
 *
 * @param cpuPeriodMicros the CFS period in microseconds ({@code cpu.cfs_period_us})
 * @param cpuQuotaMicros the CFS quota in microseconds per period ({@code cpu.cfs_quota_us}); {@code null} for no quota
 * @param cpuShares the relative CPU weight ({@code cpu.shares})
 * @param memoryLimitBytes the memory limit in bytes; {@code null} for no limit
 */
public record ResourceSpec(
    @Nullable Long cpuPeriodMicros,
    @Nullable Long cpuQuotaMicros,
    @Nullable Long cpuShares,
    @Nullable Long memoryLimitBytes) {

  /** Whether the runtime reported no figure at all. */
  public boolean isEmpty() {
    return cpuPeriodMicros == null && cpuQuotaMicros == null && cpuShares == null && memoryLimitBytes == null;
  }
}
