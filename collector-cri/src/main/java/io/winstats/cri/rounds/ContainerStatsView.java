package io.winstats.cri.rounds;

import io.winstats.cri.MemoryUsage;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.WindowsContainerStats;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One container's CRI stats message read the same way whichever platform filled it: the Linux-shaped {@code
 * ContainerStats} ({@code ListContainerStats} and Linux pods, both platforms) or {@code WindowsContainerStats} (Windows
 * pods of {@code ListPodSandboxStats}). Platform differences in meaning live here and nowhere else.
 */
sealed interface ContainerStatsView {
  /** The runtime's container id. */
  String id();

  /** Cumulative CPU and its time, or {@code null} when the runtime sent none. */
  StatsMapper.@Nullable CpuFields cpu();

  /** Memory, stamped {@code orElse} where the runtime left the time unset; {@code null} when it sent none. */
  @Nullable MemoryUsage memory(Instant orElse);

  /** The writable layer, or {@code null} when the runtime sent none. */
  StatsMapper.@Nullable LayerFields writableLayer();

  static ContainerStatsView of(ContainerStats s) {
    return new Generic(s);
  }

  static ContainerStatsView of(WindowsContainerStats s) {
    return new Windows(s);
  }

  /** {@code ContainerStats}: Linux figures; for a Windows container (from {@code ListContainerStats}) see below. */
  record Generic(ContainerStats s) implements ContainerStatsView {
    @Override
    public String id() {
      return s.getAttributes().getId();
    }

    @Override
    public StatsMapper.@Nullable CpuFields cpu() {
      return s.hasCpu() ? StatsMapper.cpuFields(s.getCpu().getTimestamp(), s.getCpu().hasUsageCoreNanoSeconds(),
          s.getCpu().getUsageCoreNanoSeconds()) : null;
    }

    /**
     * As sent. For a Windows container containerd 2.2+ sets {@code usage_bytes} to the commit and the working set to
     * the private working set ({@code windowsContainerMetrics} in {@code internal/cri/server/container_stats_list.go});
     * before 2.2 it sends no {@code usage_bytes}.
     */
    @Override
    public @Nullable MemoryUsage memory(Instant orElse) {
      if (!s.hasMemory()) {
        return null;
      }
      return StatsMapper.memory(s.getMemory(), orElse);
    }

    @Override
    public StatsMapper.@Nullable LayerFields writableLayer() {
      if (!s.hasWritableLayer()) {
        return null;
      }
      var fs = s.getWritableLayer();
      return new StatsMapper.LayerFields(
          fs.getTimestamp(),
          fs.getFsId().getMountpoint(),
          StatsMapper.u64(fs.hasUsedBytes(), fs.getUsedBytes()),
          StatsMapper.u64(fs.hasInodesUsed(), fs.getInodesUsed()));
    }
  }

  /** {@code WindowsContainerStats}: private working set and commit, no inodes. */
  record Windows(WindowsContainerStats s) implements ContainerStatsView {
    @Override
    public String id() {
      return s.getAttributes().getId();
    }

    @Override
    public StatsMapper.@Nullable CpuFields cpu() {
      return s.hasCpu() ? StatsMapper.cpuFields(s.getCpu().getTimestamp(), s.getCpu().hasUsageCoreNanoSeconds(),
          s.getCpu().getUsageCoreNanoSeconds()) : null;
    }

    /**
     * {@code usageBytes} is the commit, as containerd 2.2+'s {@code ListContainerStats} and the kubelet's Windows
     * summary report a container's usage (Windows enforces a container's memory limit on commit, through its job
     * object). containerd sends {@code commit_memory_bytes} from 2.0 (containerd#8951); before, usage is absent.
     */
    @Override
    public @Nullable MemoryUsage memory(Instant orElse) {
      if (!s.hasMemory()) {
        return null;
      }
      io.winstats.cri.api.WindowsMemoryUsage m = s.getMemory();
      Long commit = StatsMapper.u64(m.hasCommitMemoryBytes(), m.getCommitMemoryBytes());
      return MemoryUsage.builder(StatsMapper.instant(m.getTimestamp(), orElse))
          .workingSetBytes(StatsMapper.u64(m.hasWorkingSetBytes(), m.getWorkingSetBytes()))
          .availableBytes(StatsMapper.u64(m.hasAvailableBytes(), m.getAvailableBytes()))
          .usageBytes(commit)
          .pageFaults(StatsMapper.u64(m.hasPageFaults(), m.getPageFaults()))
          .commitBytes(commit)
          .build();
    }

    @Override
    public StatsMapper.@Nullable LayerFields writableLayer() {
      if (!s.hasWritableLayer()) {
        return null;
      }
      var fs = s.getWritableLayer();
      return new StatsMapper.LayerFields(
          fs.getTimestamp(), fs.getFsId().getMountpoint(), StatsMapper.u64(fs.hasUsedBytes(), fs.getUsedBytes()), null);
    }
  }
}
