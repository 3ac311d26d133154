package io.winstats.cri.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.WindowsMemoryUsage;
import io.winstats.cri.api.WindowsPodSandboxStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fake's messages against containerd's code, field by field: what is set, what is zero, what is nil.
 * 2.x: {@code internal/cri/server/sandbox_stats_windows.go} and {@code container_stats_list.go} on main; 1.7: {@code
 * pkg/cri/server/sandbox_stats_windows.go} and {@code container_stats_list_windows.go} on release/1.7.
 */
class ContainerdWindowsStatsTest {
  private static final long T = 1_700_000_000_000_000_000L;
  private static final long NOW = T + 500_000_000L;
  private static final long SECOND = 1_000_000_000L;

  private static final HcsReading SANDBOX = new HcsReading(T, 2 * SECOND, 10 << 20, 20 << 20);
  private static final WindowsContainer APP =
      WindowsContainer.running("c1", "app", 0, T, new HcsReading(T, 7 * SECOND, 100 << 20, 150 << 20));
  private static final WindowsContainer DONE =
      WindowsContainer.running("c0", "init", 0, T, new HcsReading(T, 3 * SECOND, 5 << 20, 6 << 20)).exited();

  @Test
  void v22PodIsSandboxPlusRunningContainersWithCommitAndNoAvailableOrPageFaults() {
    WindowsPodSandboxStats w =
        new ContainerdWindowsStats(ContainerdLine.V2_2, "C:\\fs")
            .podSandboxStats(WindowsPod.isolated("p", "web", "ns", T, SANDBOX, List.of(APP, DONE)), NOW)
            .getWindows();
    // appendCPUPodStats: the exited container (toPodSandboxStats "not in running state") is not summed.
    assertThat(w.getCpu().getUsageCoreNanoSeconds().getValue()).isEqualTo(9 * SECOND);
    assertThat(w.getCpu().getTimestamp()).as("the sandbox reading's time").isEqualTo(T);
    // convertToCRIStats sets WorkingSetBytes and CommitMemoryBytes only; appendMemoryPodStats adds both.
    WindowsMemoryUsage m = w.getMemory();
    assertThat(m.getWorkingSetBytes().getValue()).isEqualTo(110L << 20);
    assertThat(m.getCommitMemoryBytes().getValue()).isEqualTo(170L << 20);
    assertThat(m.hasAvailableBytes()).isFalse();
    assertThat(m.hasPageFaults()).isFalse();
    assertThat(w.getContainersList()).extracting(c -> c.getAttributes().getId()).containsExactly("c1");
    assertThat(w.getContainers(0).getMemory().getCommitMemoryBytes().getValue()).isEqualTo(150L << 20);
    // windowsNetworkUsage: endpoint id as the name, default = first, stamped with the call's time.
    assertThat(w.getNetwork().getDefaultInterface().getName()).isEqualTo("ep-p");
    assertThat(w.getNetwork().getTimestamp()).isEqualTo(NOW);
    assertThat(w.getProcess().getProcessCount().getValue()).isEqualTo(2);
  }

  @Test
  void v17HostProcessPodGetsZeroAvailableAndPageFaultsAndNoCommit() {
    WindowsPodSandboxStats w =
        new ContainerdWindowsStats(ContainerdLine.V1_7, "C:\\fs")
            .podSandboxStats(WindowsPod.hostProcess("h", "agent", "kube-system", T, List.of(APP)), NOW)
            .getWindows();
    // appendCPUPodStats creates the pod CPU at the call's time when the sandbox had none.
    assertThat(w.getCpu().getTimestamp()).isEqualTo(NOW);
    assertThat(w.getCpu().getUsageCoreNanoSeconds().getValue()).isEqualTo(7 * SECOND);
    // appendMemoryPodStats (release/1.7): WorkingSetBytes, AvailableBytes and PageFaults created at 0.
    WindowsMemoryUsage m = w.getMemory();
    assertThat(m.getWorkingSetBytes().getValue()).isEqualTo(100L << 20);
    assertThat(m.hasAvailableBytes()).isTrue();
    assertThat(m.getAvailableBytes().getValue()).isZero();
    assertThat(m.hasPageFaults()).isTrue();
    assertThat(m.getPageFaults().getValue()).isZero();
    assertThat(m.hasCommitMemoryBytes()).as("CommitMemoryBytes is 2.0+").isFalse();
  }

  @Test
  void v20PodCommitIsTheSandboxsAloneAndAHostProcessPodsIsZero() {
    ContainerdWindowsStats stats = new ContainerdWindowsStats(ContainerdLine.V2_0, "C:\\fs");
    WindowsPodSandboxStats w =
        stats.podSandboxStats(WindowsPod.isolated("p", "web", "ns", T, SANDBOX, List.of(APP)), NOW).getWindows();
    assertThat(w.getMemory().getCommitMemoryBytes().getValue()).isEqualTo(20L << 20);
    assertThat(w.getContainers(0).getMemory().getCommitMemoryBytes().getValue()).isEqualTo(150L << 20);
    WindowsMemoryUsage hpc =
        stats.podSandboxStats(WindowsPod.hostProcess("h", "agent", "kube-system", T, List.of(APP)), NOW)
            .getWindows()
            .getMemory();
    assertThat(hpc.getCommitMemoryBytes().getValue()).isZero();
    assertThat(hpc.getAvailableBytes().getValue()).isZero();
    assertThat(hpc.getPageFaults().getValue()).isZero();
    assertThat(stats.containerStats(APP).getMemory().hasUsageBytes()).as("usage_bytes = commit is 2.2+").isFalse();
  }

  @Test
  void v22HostProcessPodHasNoZeros() {
    WindowsMemoryUsage m =
        new ContainerdWindowsStats(ContainerdLine.V2_2, "C:\\fs")
            .podSandboxStats(WindowsPod.hostProcess("h", "agent", "kube-system", T, List.of(APP)), NOW)
            .getWindows()
            .getMemory();
    assertThat(m.hasAvailableBytes()).isFalse();
    assertThat(m.hasPageFaults()).isFalse();
    assertThat(m.getCommitMemoryBytes().getValue()).isEqualTo(150L << 20);
  }

  @Test
  void aHostProcessPodWithoutRunningContainersHasNoCpuOrMemory() {
    PodSandboxStats s =
        new ContainerdWindowsStats(ContainerdLine.V1_7, "C:\\fs")
            .podSandboxStats(WindowsPod.hostProcess("h", "agent", "kube-system", T, List.of(DONE)), NOW);
    assertThat(s.getWindows().hasCpu()).isFalse();
    assertThat(s.getWindows().hasMemory()).isFalse();
  }

  @Test
  void listContainerStatsUsageBytesIsCommitFrom22AndInodesAreZero() {
    ContainerStats v22 = new ContainerdWindowsStats(ContainerdLine.V2_2, "C:\\fs").containerStats(APP);
    assertThat(v22.getMemory().getUsageBytes().getValue()).isEqualTo(150L << 20);
    assertThat(v22.getMemory().getWorkingSetBytes().getValue()).isEqualTo(100L << 20);
    assertThat(v22.getWritableLayer().getInodesUsed().getValue()).isZero();
    ContainerStats v17 = new ContainerdWindowsStats(ContainerdLine.V1_7, "C:\\fs").containerStats(APP);
    assertThat(v17.getMemory().hasUsageBytes()).isFalse();
    assertThat(v17.getCpu().getUsageNanoCores().getValue()).as("0 without a previous reading").isZero();
    ContainerStats exited = new ContainerdWindowsStats(ContainerdLine.V2_2, "C:\\fs").containerStats(DONE);
    assertThat(exited.hasCpu()).isFalse();
    assertThat(exited.hasMemory()).isFalse();
    assertThat(exited.hasWritableLayer()).isTrue();
  }

  @Test
  void everyCallMovesTheSharedPreviousReading() {
    ContainerdWindowsStats stats = new ContainerdWindowsStats(ContainerdLine.V2_2, "C:\\fs");
    WindowsPod pod = WindowsPod.isolated("p", "web", "ns", T, SANDBOX, List.of(APP));
    stats.podSandboxStats(pod, NOW);
    HcsReading later = new HcsReading(T + SECOND, 8 * SECOND, 100 << 20, 150 << 20);
    WindowsPod next = pod.with(new HcsReading(T + SECOND, 2 * SECOND, 10 << 20, 20 << 20),
        cs -> List.of(cs.get(0).withReading(later)));
    assertThat(stats.podSandboxStats(next, NOW).getWindows().getContainers(0).getCpu().getUsageNanoCores().getValue())
        .isEqualTo(SECOND);
    // A second client calling within the same reading window sees 0 (containerd#9531).
    assertThat(stats.podSandboxStats(next, NOW).getWindows().getContainers(0).getCpu().getUsageNanoCores().getValue())
        .isZero();
  }
}
