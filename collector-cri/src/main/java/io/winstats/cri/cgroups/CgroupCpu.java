package io.winstats.cri.cgroups;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * CPU accounting of one cgroup, in cAdvisor's units before its conversion to seconds.
 *
 * @param userNanos cumulative user-mode CPU time
 * @param systemNanos cumulative kernel-mode CPU time
 * @param periods elapsed CFS enforcement periods ({@code nr_periods}); 0 while the cgroup has no quota
 * @param throttledPeriods periods in which the cgroup was throttled ({@code nr_throttled})
 * @param throttledNanos cumulative time throttled
 */
@RecordBuilder
public record CgroupCpu(long userNanos, long systemNanos, long periods, long throttledPeriods, long throttledNanos) {
  public CgroupCpu {
    if (userNanos < 0 || systemNanos < 0 || periods < 0 || throttledPeriods < 0 || throttledNanos < 0) {
      throw new IllegalArgumentException("CPU counters are never negative: " + this);
    }
  }

  /** A builder with every component 0, empty or absent until set by name. */
  public static CgroupCpuBuilder builder() {
    return CgroupCpuBuilder.builder();
  }
}
