package io.winstats.cri.cgroups;

import static io.winstats.cri.cgroups.CgroupKeyTable.Source.key;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The cpu figures of a cgroup: v1's {@code cpu.stat} (CFS) and {@code cpuacct.stat} (user and system time), or v2's
 * {@code cpu.stat}, read by key name through {@link #TABLE}.
 */
final class CpuController {
  /**
   * {@code cpuacct.stat} counts in USER_HZ, which Linux fixes at 100 for user space on every architecture
   * (include/asm-generic/param.h); runc's cgroups library converts the same way.
   */
  private static final long NANOS_PER_USER_HZ_TICK = 10_000_000L;

  private static final String CPUACCT_STAT = "cpuacct.stat";
  private static final String STAT = "cpu.stat";

  /**
   * The cpu figures cAdvisor's {@code setCPUStats} serves (google/cadvisor
   * lib/container/libcontainer/handler.go:780-785@v0.60.5), from the keys opencontainers/cgroups v0.0.6 reads: v1
   * {@code cpuacct.stat}'s user and system ticks (fs/cpuacct.go:71-104) and {@code cpu.stat}'s CFS figures
   * (fs/cpu.go:170-177), v2 {@code cpu.stat} in microseconds (fs2/cpu.go:97-110). A record needs both v1 files, as the
   * v2 one.
   */
  static final CgroupKeyTable<CgroupCpuBuilder> TABLE =
      CgroupKeyTable.<CgroupCpuBuilder>of()
          .counter(
              "userNanos",
              key(CPUACCT_STAT, "user", NANOS_PER_USER_HZ_TICK),
              key(STAT, "user_usec", 1000),
              CgroupCpuBuilder::userNanos)
          .counter(
              "systemNanos",
              key(CPUACCT_STAT, "system", NANOS_PER_USER_HZ_TICK),
              key(STAT, "system_usec", 1000),
              CgroupCpuBuilder::systemNanos)
          .counter("periods", key(STAT, "nr_periods"), key(STAT, "nr_periods"), CgroupCpuBuilder::periods)
          .counter(
              "throttledPeriods",
              key(STAT, "nr_throttled"),
              key(STAT, "nr_throttled"),
              CgroupCpuBuilder::throttledPeriods)
          .counter(
              "throttledNanos",
              key(STAT, "throttled_time"),
              key(STAT, "throttled_usec", 1000),
              CgroupCpuBuilder::throttledNanos)
          .reads(CgroupVersion.V1, List.of(CPUACCT_STAT, STAT), List.of())
          .reads(CgroupVersion.V2, List.of(STAT), List.of());

  private final CgroupKeyTable.Plan<CgroupCpuBuilder> plan;

  /** {@code cpuBase} and {@code cpuacctBase}: the controllers' directories (both the root on v2). */
  CpuController(String cpuBase, String cpuacctBase, CgroupVersion version) {
    this.plan = TABLE.plan(version, true, name -> name.equals(CPUACCT_STAT) ? cpuacctBase : cpuBase);
  }

  /** The cgroup's cpu figures, or {@code null} when a file is missing or holds a negative counter. */
  @Nullable CgroupCpu read(String path) {
    CgroupCpuBuilder cpu = CgroupCpu.builder();
    if (!plan.fill(path, cpu)) {
      return null;
    }
    try {
      return cpu.build();
    } catch (IllegalArgumentException e) {
      // A file the kernel would not write: the part is absent, as for a file that cannot be read.
      return null;
    }
  }
}
