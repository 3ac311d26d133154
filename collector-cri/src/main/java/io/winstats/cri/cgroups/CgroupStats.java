package io.winstats.cri.cgroups;

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
public record CgroupStats(
    String path,
    @Nullable CgroupCpu cpu,
    @Nullable CgroupMemory memory,
    List<BlockDeviceIo> io,
    @Nullable CgroupProcesses processes,
    @Nullable Pressure cpuPressure,
    @Nullable Pressure memoryPressure,
    @Nullable Pressure ioPressure,
    CgroupSpec spec,
    List<HugePages> hugetlb) {
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
  public static Builder builder(String path) {
    return new Builder(path);
  }

  /** Names each component of a {@link CgroupStats}; not thread-safe. */
  public static final class Builder {
    private final String path;
    private @Nullable CgroupCpu cpu;
    private @Nullable CgroupMemory memory;
    private List<BlockDeviceIo> io = List.of();
    private @Nullable CgroupProcesses processes;
    private @Nullable Pressure cpuPressure;
    private @Nullable Pressure memoryPressure;
    private @Nullable Pressure ioPressure;
    private CgroupSpec spec = CgroupSpec.NONE;
    private List<HugePages> hugetlb = List.of();

    private Builder(String path) {
      this.path = Objects.requireNonNull(path, "path");
    }

    public Builder spec(CgroupSpec value) {
      this.spec = Objects.requireNonNull(value, "spec");
      return this;
    }

    public Builder cpu(@Nullable CgroupCpu value) {
      this.cpu = value;
      return this;
    }

    public Builder memory(@Nullable CgroupMemory value) {
      this.memory = value;
      return this;
    }

    public Builder io(List<BlockDeviceIo> value) {
      this.io = value;
      return this;
    }

    public Builder processes(@Nullable CgroupProcesses value) {
      this.processes = value;
      return this;
    }

    public Builder cpuPressure(@Nullable Pressure value) {
      this.cpuPressure = value;
      return this;
    }

    public Builder memoryPressure(@Nullable Pressure value) {
      this.memoryPressure = value;
      return this;
    }

    public Builder ioPressure(@Nullable Pressure value) {
      this.ioPressure = value;
      return this;
    }

    public Builder hugetlb(List<HugePages> value) {
      this.hugetlb = value;
      return this;
    }

    public CgroupStats build() {
      return new CgroupStats(path, cpu, memory, io, processes, cpuPressure, memoryPressure, ioPressure, spec, hugetlb);
    }
  }
}
