package io.winstats.cri.cgroups;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Everything read from one cgroup in one round. A part is {@code null} when its controller or file is absent on this
 * host; {@code io} and {@code hugetlb} are empty then.
 *
 * @param path the cgroup path relative to the hierarchy root ({@code /kubepods/pod<uid>/<id>})
 * @param cpuPressure PSI from {@code cpu.pressure}: cgroup v2 only, as the kubelet and cAdvisor report it
 * @param spec the memory limits CRI does not report; {@link CgroupSpec#NONE}'s nulls where the files are absent
 * @param hugetlb per huge page size the host has, where the hugetlb controller covers the cgroup; else empty
 */
@RecordBuilder
public record CgroupStats(
    String path,
    @Nullable CgroupCpu cpu,
    @Nullable CgroupMemory memory,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<BlockDeviceIo> io,
    @Nullable CgroupProcesses processes,
    @Nullable Pressure cpuPressure,
    @Nullable Pressure memoryPressure,
    @Nullable Pressure ioPressure,
    @RecordBuilder.Initializer(source = CgroupSpec.class, value = "NONE") CgroupSpec spec,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<HugePages> hugetlb) {
  public CgroupStats {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(spec, "spec");
    hugetlb = List.copyOf(hugetlb);
    // Most cgroups have no block IO line: no stream for them (a few hundred bytes each, every cgroup and round).
    io = io.isEmpty() ? List.of() : io.stream().sorted(Comparator.comparing(BlockDeviceIo::device)).toList();
  }

  /**
   * A builder for the CgroupStats of {@code path}, without limits ({@link CgroupSpec#NONE}), every other component 0,
   * empty or absent until set by name.
   */
  public static CgroupStatsBuilder builder(String path) {
    return CgroupStatsBuilder.builder().path(path);
  }
}
