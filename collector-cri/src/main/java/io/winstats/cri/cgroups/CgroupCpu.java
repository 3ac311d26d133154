package io.winstats.cri.cgroups;

/**
 * CPU accounting of one cgroup, in cAdvisor's units before its conversion to seconds.
 *
 * @param userNanos cumulative user-mode CPU time
 * @param systemNanos cumulative kernel-mode CPU time
 * @param periods elapsed CFS enforcement periods ({@code nr_periods}); 0 while the cgroup has no quota
 * @param throttledPeriods periods in which the cgroup was throttled ({@code nr_throttled})
 * @param throttledNanos cumulative time throttled
 */
public record CgroupCpu(long userNanos, long systemNanos, long periods, long throttledPeriods, long throttledNanos) {
  public CgroupCpu {
    if (userNanos < 0 || systemNanos < 0 || periods < 0 || throttledPeriods < 0 || throttledNanos < 0) {
      throw new IllegalArgumentException("CPU counters are never negative: " + this);
    }
  }
}
