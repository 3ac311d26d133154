package io.winstats.cri.rounds;

import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.api.LinuxPodSandboxStats;
import io.winstats.cri.api.NetworkInterfaceUsage;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.UInt64Value;
import io.winstats.cri.api.WindowsContainerStats;
import io.winstats.cri.api.WindowsMemoryUsage;
import io.winstats.cri.api.WindowsNetworkInterfaceUsage;
import io.winstats.cri.api.WindowsPodSandboxStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One pod's {@code PodSandboxStats} read the same way whichever platform filled it. Platform differences in meaning
 * live here and nowhere else.
 */
sealed interface PodStatsView {
  /** The containers the runtime reported with the pod. */
  List<ContainerStatsView> containers();

  /** Cumulative CPU of the pod as the runtime reports it, or {@code null}. */
  StatsMapper.@Nullable CpuFields cpu();

  /**
   * Whether the runtime's pod CPU is the sandbox plus its running containers only, so that it drops when a container
   * exits (Windows), rather than a pod cgroup that keeps what its exited processes used (Linux).
   */
  boolean cpuSumsRunningContainers();

  @Nullable MemoryUsage memory(Instant orElse);

  @Nullable NetworkUsage network(Instant orElse);

  @Nullable Long processCount();

  /** The view of {@code s}, or {@code null} when it carries neither platform's stats. */
  static @Nullable PodStatsView of(PodSandboxStats s) {
    if (s.hasLinux()) {
      return new Linux(s.getLinux());
    }
    if (s.hasWindows()) {
      return new Windows(s.getWindows());
    }
    return null;
  }

  private static InterfaceUsage linuxInterface(NetworkInterfaceUsage i) {
    return InterfaceUsage.builder(i.getName())
        .rxBytes(StatsMapper.u64(i.hasRxBytes(), i.getRxBytes()))
        .rxErrors(StatsMapper.u64(i.hasRxErrors(), i.getRxErrors()))
        .txBytes(StatsMapper.u64(i.hasTxBytes(), i.getTxBytes()))
        .txErrors(StatsMapper.u64(i.hasTxErrors(), i.getTxErrors()))
        .build();
  }

  private static InterfaceUsage windowsInterface(WindowsNetworkInterfaceUsage i) {
    return InterfaceUsage.builder(i.getName())
        .rxBytes(StatsMapper.u64(i.hasRxBytes(), i.getRxBytes()))
        .txBytes(StatsMapper.u64(i.hasTxBytes(), i.getTxBytes()))
        .rxPacketsDropped(StatsMapper.u64(i.hasRxPacketsDropped(), i.getRxPacketsDropped()))
        .txPacketsDropped(StatsMapper.u64(i.hasTxPacketsDropped(), i.getTxPacketsDropped()))
        .build();
  }

  /** The default interface first, then the others without repeating it. */
  private static List<InterfaceUsage> defaultFirst(
      @Nullable InterfaceUsage defaultInterface, List<InterfaceUsage> interfaces) {
    List<InterfaceUsage> result = new ArrayList<>(interfaces.size() + 1);
    if (defaultInterface != null) {
      result.add(defaultInterface);
    }
    for (InterfaceUsage i : interfaces) {
      if (defaultInterface == null || !i.name().equals(defaultInterface.name())) {
        result.add(i);
      }
    }
    return result;
  }

  private static @Nullable Long count(boolean present, UInt64Value value) {
    return StatsMapper.u64(present, value);
  }

  /** {@code LinuxPodSandboxStats}: figures of the pod cgroup. */
  record Linux(LinuxPodSandboxStats l) implements PodStatsView {
    @Override
    public List<ContainerStatsView> containers() {
      return l.getContainersList().stream().map(ContainerStatsView::of).toList();
    }

    @Override
    public StatsMapper.@Nullable CpuFields cpu() {
      return l.hasCpu() ? StatsMapper.cpuFields(l.getCpu().getTimestamp(), l.getCpu().hasUsageCoreNanoSeconds(),
          l.getCpu().getUsageCoreNanoSeconds()) : null;
    }

    @Override
    public boolean cpuSumsRunningContainers() {
      return false;
    }

    @Override
    public @Nullable MemoryUsage memory(Instant orElse) {
      if (!l.hasMemory()) {
        return null;
      }
      return StatsMapper.memory(l.getMemory(), orElse);
    }

    @Override
    public @Nullable NetworkUsage network(Instant orElse) {
      if (!l.hasNetwork()) {
        return null;
      }
      var n = l.getNetwork();
      return new NetworkUsage(
          StatsMapper.instant(n.getTimestamp(), orElse),
          defaultFirst(
              n.hasDefaultInterface() ? linuxInterface(n.getDefaultInterface()) : null,
              n.getInterfacesList().stream().map(PodStatsView::linuxInterface).toList()));
    }

    @Override
    public @Nullable Long processCount() {
      return l.hasProcess() ? count(l.getProcess().hasProcessCount(), l.getProcess().getProcessCount()) : null;
    }
  }

  /**
   * {@code WindowsPodSandboxStats}. containerd builds the pod from the sandbox task plus its running containers
   * ({@code toPodSandboxStats} in {@code internal/cri/server/sandbox_stats_windows.go}); its memory needs three
   * corrections, below.
   */
  record Windows(WindowsPodSandboxStats w) implements PodStatsView {
    @Override
    public List<ContainerStatsView> containers() {
      return w.getContainersList().stream().map(ContainerStatsView::of).toList();
    }

    @Override
    public StatsMapper.@Nullable CpuFields cpu() {
      return w.hasCpu() ? StatsMapper.cpuFields(w.getCpu().getTimestamp(), w.getCpu().hasUsageCoreNanoSeconds(),
          w.getCpu().getUsageCoreNanoSeconds()) : null;
    }

    @Override
    public boolean cpuSumsRunningContainers() {
      return true;
    }

    /**
     * <ul>
     *   <li>{@code usageBytes} is the sum of the containers' commit, as the kubelet sums container usage into a pod
     *       ({@code addPodCPUMemoryStats}) and as a container's usage is its commit ({@link
     *       ContainerStatsView.Windows}); containerd's own pod commit is the sandbox's alone before 2.2 ({@code
     *       appendMemoryPodStats} adds only the working set; fixed in containerd#12015), so it cannot serve as usage.
     *   <li>{@code workingSetBytes} is the same containers' working sets summed, as the kubelet's default path sums
     *       them ({@code addPodCPUMemoryStats}). containerd's pod working set (1.7 to 2.2 alike) adds the sandbox's
     *       own, which no usage figure includes before 2.2, so a small pod read working set above usage. It stays
     *       the figure only when no container reports a working set.
     *   <li>{@code availableBytes} and {@code pageFaults} that are 0 while no container reports them are containerd's
     *       fillers for a pod without sandbox statistics (HostProcess): release/1.7 to 2.1 create the pod memory with
     *       them at 0 and nothing adds to them. They become absent.
     *   <li>{@code commitBytes} of 0 while the containers commit more is the same filler (2.0 and 2.1): absent.
     * </ul>
     */
    @Override
    public @Nullable MemoryUsage memory(Instant orElse) {
      if (!w.hasMemory()) {
        return null;
      }
      Long containersCommit = null;
      Long containersWorkingSet = null;
      boolean containersReportAvailable = false;
      boolean containersReportPageFaults = false;
      for (WindowsContainerStats c : w.getContainersList()) {
        WindowsMemoryUsage cm = c.getMemory();
        containersCommit = plus(
            containersCommit, StatsMapper.u64(c.hasMemory() && cm.hasCommitMemoryBytes(), cm.getCommitMemoryBytes()));
        containersWorkingSet = plus(
            containersWorkingSet, StatsMapper.u64(c.hasMemory() && cm.hasWorkingSetBytes(), cm.getWorkingSetBytes()));
        containersReportAvailable |= c.hasMemory() && cm.hasAvailableBytes();
        containersReportPageFaults |= c.hasMemory() && cm.hasPageFaults();
      }
      WindowsMemoryUsage m = w.getMemory();
      Long available = StatsMapper.u64(m.hasAvailableBytes(), m.getAvailableBytes());
      Long pageFaults = StatsMapper.u64(m.hasPageFaults(), m.getPageFaults());
      Long commit = StatsMapper.u64(m.hasCommitMemoryBytes(), m.getCommitMemoryBytes());
      Long podWorkingSet = StatsMapper.u64(m.hasWorkingSetBytes(), m.getWorkingSetBytes());
      return MemoryUsage.builder(StatsMapper.instant(m.getTimestamp(), orElse))
          .workingSetBytes(containersWorkingSet != null ? containersWorkingSet : podWorkingSet)
          .availableBytes(isFiller(available, !containersReportAvailable) ? null : available)
          .usageBytes(containersCommit)
          .pageFaults(isFiller(pageFaults, !containersReportPageFaults) ? null : pageFaults)
          .commitBytes(isFiller(commit, containersCommit != null && containersCommit > 0) ? null : commit)
          .build();
    }

    private static @Nullable Long plus(@Nullable Long sum, @Nullable Long value) {
      if (value == null) {
        return sum;
      }
      return sum == null ? value : Long.valueOf(Math.addExact(sum, value));
    }

    private static boolean isFiller(@Nullable Long value, boolean cannotBeASum) {
      return value != null && value == 0 && cannotBeASum;
    }

    @Override
    public @Nullable NetworkUsage network(Instant orElse) {
      if (!w.hasNetwork()) {
        return null;
      }
      var n = w.getNetwork();
      return new NetworkUsage(
          StatsMapper.instant(n.getTimestamp(), orElse),
          defaultFirst(
              n.hasDefaultInterface() ? windowsInterface(n.getDefaultInterface()) : null,
              n.getInterfacesList().stream().map(PodStatsView::windowsInterface).toList()));
    }

    @Override
    public @Nullable Long processCount() {
      return w.hasProcess() ? count(w.getProcess().hasProcessCount(), w.getProcess().getProcessCount()) : null;
    }
  }
}
