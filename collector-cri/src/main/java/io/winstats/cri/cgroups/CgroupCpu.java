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

  /** A builder with every component 0, empty or absent until set by name. */
  public static Builder builder() {
    return new Builder();
  }

  /** Names each component of a {@link CgroupCpu}; not thread-safe. */
  public static final class Builder {
    private long userNanos;
    private long systemNanos;
    private long periods;
    private long throttledPeriods;
    private long throttledNanos;

    private Builder() {
    }

    public Builder userNanos(long value) {
      this.userNanos = value;
      return this;
    }

    public Builder systemNanos(long value) {
      this.systemNanos = value;
      return this;
    }

    public Builder periods(long value) {
      this.periods = value;
      return this;
    }

    public Builder throttledPeriods(long value) {
      this.throttledPeriods = value;
      return this;
    }

    public Builder throttledNanos(long value) {
      this.throttledNanos = value;
      return this;
    }

    public CgroupCpu build() {
      return new CgroupCpu(userNanos, systemNanos, periods, throttledPeriods, throttledNanos);
    }
  }
}
