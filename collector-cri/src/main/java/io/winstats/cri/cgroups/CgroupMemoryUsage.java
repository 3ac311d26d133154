package io.winstats.cri.cgroups;

import org.jspecify.annotations.Nullable;

/**
 * What CRI gives for a container but a cgroup no container belongs to (the kubelet's {@code kubepods}) needs read
 * from its own files: usage, working set and limit, as cAdvisor computes them for the kubelet.
 *
 * @param usageBytes v1 {@code memory.usage_in_bytes}, v2 {@code memory.current}
 * @param workingSetBytes usage less inactive file pages (v1 {@code total_inactive_file}, v2 {@code inactive_file}),
 *     floored at zero (cAdvisor container/libcontainer/handler.go {@code setMemoryStats})
 * @param limitBytes v1 {@code memory.limit_in_bytes}, v2 {@code memory.max}; {@code null} when unlimited, which the
 *     kubelet takes to be any limit above 2^62 (pkg/kubelet/stats/helper.go {@code isMemoryUnlimited})
 */
public record CgroupMemoryUsage(long usageBytes, long workingSetBytes, @Nullable Long limitBytes) {
  /** The kubelet's bound for "unlimited": the kernel rounds v1's no-limit to pages below {@code Long.MAX_VALUE}. */
  static final long UNLIMITED_ABOVE = 1L << 62;

  /** Usage, working set and limit from the raw figures, as cAdvisor and the kubelet derive them. */
  static CgroupMemoryUsage of(long usageBytes, long inactiveFileBytes, @Nullable Long limitBytes) {
    long workingSet = usageBytes < inactiveFileBytes ? 0 : usageBytes - inactiveFileBytes;
    return new CgroupMemoryUsage(
        usageBytes, workingSet, limitBytes == null || limitBytes > UNLIMITED_ABOVE ? null : limitBytes);
  }

  /** The kubelet's {@code availableBytes}: limit less working set where limited, floored at zero. */
  public @Nullable Long availableBytes() {
    return limitBytes == null ? null : Math.max(0, limitBytes - workingSetBytes);
  }
}
