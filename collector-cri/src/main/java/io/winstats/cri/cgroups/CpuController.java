package io.winstats.cri.cgroups;

import static io.winstats.cri.cgroups.CgroupReader.file;

import org.jspecify.annotations.Nullable;

/**
 * The cpu figures of a cgroup: v1's {@code cpu.stat} (CFS) and {@code cpuacct.stat} (user and system time), or v2's
 * {@code cpu.stat}, read by key name.
 */
final class CpuController {
  /**
   * {@code cpuacct.stat} counts in USER_HZ, which Linux fixes at 100 for user space on every architecture
   * (include/asm-generic/param.h); runc's cgroups library converts the same way.
   */
  private static final long NANOS_PER_USER_HZ_TICK = 10_000_000L;

  /** v1 {@code cpu.stat}. */
  enum StatV1 {
    NR_PERIODS,
    NR_THROTTLED,
    THROTTLED_TIME
  }

  /** v1 {@code cpuacct.stat}, in USER_HZ ticks. */
  enum CpuacctStat {
    USER,
    SYSTEM
  }

  /** v2 {@code cpu.stat}. */
  enum StatV2 {
    USER_USEC,
    SYSTEM_USEC,
    NR_PERIODS,
    NR_THROTTLED,
    THROTTLED_USEC
  }

  private static final KernelFile.Keys<StatV1> STAT_V1 = KernelFile.Keys.of(StatV1.class);
  private static final KernelFile.Keys<CpuacctStat> CPUACCT_STAT = KernelFile.Keys.of(CpuacctStat.class);
  private static final KernelFile.Keys<StatV2> STAT_V2 = KernelFile.Keys.of(StatV2.class);

  private final String cpuBase;
  private final String cpuacctBase;
  private final CgroupVersion version;

  /** {@code cpuBase} and {@code cpuacctBase}: the controllers' directories (both the root on v2). */
  CpuController(String cpuBase, String cpuacctBase, CgroupVersion version) {
    this.cpuBase = cpuBase;
    this.cpuacctBase = cpuacctBase;
    this.version = version;
  }

  /** The cgroup's cpu figures, or {@code null} when a file is missing. */
  @Nullable CgroupCpu read(String path) {
    return version == CgroupVersion.V2 ? readV2(path) : readV1(path);
  }

  /** v1 user and system time, in nanoseconds. */
  private record Modes(long userNanos, long systemNanos) {}

  private @Nullable CgroupCpu readV1(String path) {
    Modes modes =
        KernelFile.read(
            file(cpuacctBase, path, "/cpuacct.stat"),
            f -> {
              f.keyed(CPUACCT_STAT);
              return new Modes(
                  f.get(CpuacctStat.USER) * NANOS_PER_USER_HZ_TICK, f.get(CpuacctStat.SYSTEM) * NANOS_PER_USER_HZ_TICK);
            });
    if (modes == null) {
      return null;
    }
    return KernelFile.read(
        file(cpuBase, path, "/cpu.stat"),
        f -> {
          f.keyed(STAT_V1);
          return CgroupCpu.builder()
              .userNanos(modes.userNanos())
              .systemNanos(modes.systemNanos())
              .periods(f.get(StatV1.NR_PERIODS))
              .throttledPeriods(f.get(StatV1.NR_THROTTLED))
              .throttledNanos(f.get(StatV1.THROTTLED_TIME))
              .build();
        });
  }

  private @Nullable CgroupCpu readV2(String path) {
    return KernelFile.read(file(cpuBase, path, "/cpu.stat"), CpuController::statV2);
  }

  private static CgroupCpu statV2(KernelFile f) {
    f.keyed(STAT_V2);
    return CgroupCpu.builder()
        .userNanos(f.get(StatV2.USER_USEC) * 1000)
        .systemNanos(f.get(StatV2.SYSTEM_USEC) * 1000)
        .periods(f.get(StatV2.NR_PERIODS))
        .throttledPeriods(f.get(StatV2.NR_THROTTLED))
        .throttledNanos(f.get(StatV2.THROTTLED_USEC) * 1000)
        .build();
  }
}
