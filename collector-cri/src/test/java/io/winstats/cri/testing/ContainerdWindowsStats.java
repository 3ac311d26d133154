package io.winstats.cri.testing;

import io.winstats.cri.api.ContainerAttributes;
import io.winstats.cri.api.ContainerMetadata;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.CpuUsage;
import io.winstats.cri.api.FilesystemIdentifier;
import io.winstats.cri.api.FilesystemUsage;
import io.winstats.cri.api.MemoryUsage;
import io.winstats.cri.api.PodSandboxAttributes;
import io.winstats.cri.api.PodSandboxMetadata;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.UInt64Value;
import io.winstats.cri.api.WindowsContainerStats;
import io.winstats.cri.api.WindowsCpuUsage;
import io.winstats.cri.api.WindowsFilesystemUsage;
import io.winstats.cri.api.WindowsMemoryUsage;
import io.winstats.cri.api.WindowsNetworkInterfaceUsage;
import io.winstats.cri.api.WindowsNetworkUsage;
import io.winstats.cri.api.WindowsPodSandboxStats;
import io.winstats.cri.api.WindowsProcessUsage;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Builds the CRI stats messages containerd sends for Windows pods, field by field as its code fills them (set, zero
 * or nil), from what hcsshim and HNS hand it ({@link HcsReading}, {@link HnsEndpoint}).
 *
 * <p>Sources: {@code podSandboxStats}, {@code toPodSandboxStats}, {@code appendCPUPodStats}, {@code
 * appendMemoryPodStats}, {@code convertToCRIStats} and {@code windowsNetworkUsage} in {@code
 * internal/cri/server/sandbox_stats_windows.go} (containerd main, 2.x) and {@code pkg/cri/server/sandbox_stats_windows.go}
 * (release/1.7); {@code windowsContainerMetrics} in {@code internal/cri/server/container_stats_list.go} (2.x) and
 * {@code containerMetrics} in {@code pkg/cri/server/container_stats_list_windows.go} (1.6, 1.7).
 *
 * <p>containerd's {@code usage_nano_cores} is computed against one cached previous reading per container and sandbox
 * that every caller overwrites (containerd#9531); this builder keeps that cache too, so two clients of one fake see
 * each other's effect as they would on a node. Thread-safe.
 */
public final class ContainerdWindowsStats {
  private record Previous(long timestampNanos, long usageCoreNanos) {}

  private final ContainerdLine line;
  private final String imageFsPath;
  private final Map<String, Previous> previous = new ConcurrentHashMap<>();

  /**
   * @param line the containerd line to imitate
   * @param imageFsPath what containerd reports as the writable layers' mountpoint ({@code imageFSPaths[snapshotter]})
   */
  public ContainerdWindowsStats(ContainerdLine line, String imageFsPath) {
    this.line = Objects.requireNonNull(line, "line");
    this.imageFsPath = Objects.requireNonNull(imageFsPath, "imageFsPath");
  }

  /** The line this builder imitates. */
  public ContainerdLine line() {
    return line;
  }

  private static UInt64Value u64(long value) {
    return UInt64Value.newBuilder().setValue(value).build();
  }

  /** The sandbox's attributes as {@code podSandboxStats} copies them from the sandbox config. */
  public static PodSandboxAttributes attributes(WindowsPod pod) {
    return PodSandboxAttributes.newBuilder()
        .setId(pod.id())
        .setMetadata(
            PodSandboxMetadata.newBuilder().setName(pod.name()).setNamespace(pod.namespace()).setUid(pod.uid()))
        .putLabels("io.kubernetes.pod.name", pod.name())
        .putLabels("io.kubernetes.pod.namespace", pod.namespace())
        .build();
  }

  private static ContainerAttributes attributes(WindowsContainer c) {
    return ContainerAttributes.newBuilder()
        .setId(c.id())
        .setMetadata(ContainerMetadata.newBuilder().setName(c.name()).setAttempt(c.attempt()))
        .putLabels("io.kubernetes.container.name", c.name())
        .build();
  }

  /**
   * {@code podSandboxStats} for one ready pod, at {@code nowNanos} (containerd's {@code time.Now()} of the call, which
   * stamps the network, the process count and a pod total made without sandbox statistics).
   */
  public PodSandboxStats podSandboxStats(WindowsPod pod, long nowNanos) {
    // A Hyper-V sandbox's statistics are vm only: convertToCRIStats reads nothing from them.
    WindowsContainerStats.Builder total = convertToCriStats(pod.hyperV() ? null : pod.sandbox());
    WindowsPodSandboxStats.Builder windows = WindowsPodSandboxStats.newBuilder();
    for (WindowsContainer c : pod.containers()) {
      if (!c.running() || c.reading() == null) {
        continue; // toPodSandboxStats: "not in running state" / "no metrics found for container"
      }
      WindowsContainerStats.Builder cs = convertToCriStats(c.reading());
      cs.getCpuBuilder().setUsageNanoCores(u64(podPathNanoCores(c.id(), c.reading())));
      appendCpu(total, cs, nowNanos);
      appendMemory(total, cs, nowNanos);
      cs.setWritableLayer(
          WindowsFilesystemUsage.newBuilder()
              .setTimestamp(c.snapshotTimestampNanos())
              .setFsId(FilesystemIdentifier.newBuilder().setMountpoint(imageFsPath))
              .setUsedBytes(u64(c.snapshotTimestampNanos() == 0 ? 0 : c.writableLayerBytes())));
      cs.setAttributes(attributes(c));
      windows.addContainers(cs);
    }
    if (total.hasCpu()) {
      WindowsCpuUsage.Builder cpu = total.getCpuBuilder();
      Previous before = previous.get(pod.id());
      cpu.setUsageNanoCores(u64(nanoCores(before, cpu.getTimestamp(), cpu.getUsageCoreNanoSeconds().getValue())));
      // saveSandBoxMetrics: every call overwrites the cached reading the next rate is computed against.
      previous.put(pod.id(), new Previous(cpu.getTimestamp(), cpu.getUsageCoreNanoSeconds().getValue()));
      windows.setCpu(cpu);
    }
    if (total.hasMemory()) {
      windows.setMemory(total.getMemory());
    }
    if (pod.endpoints() != null) {
      WindowsNetworkUsage.Builder network = WindowsNetworkUsage.newBuilder().setTimestamp(nowNanos);
      for (HnsEndpoint e : pod.endpoints()) {
        WindowsNetworkInterfaceUsage i =
            WindowsNetworkInterfaceUsage.newBuilder()
                .setName(e.id())
                .setRxBytes(u64(e.rxBytes()))
                .setRxPacketsDropped(u64(e.rxPacketsDropped()))
                .setTxBytes(u64(e.txBytes()))
                .setTxPacketsDropped(u64(e.txPacketsDropped()))
                .build();
        network.addInterfaces(i);
        if (!network.hasDefaultInterface()) {
          network.setDefaultInterface(i); // "We don't have a way to determine the default interface in windows"
        }
      }
      windows.setNetwork(network);
    }
    windows.setProcess(
        WindowsProcessUsage.newBuilder().setTimestamp(nowNanos).setProcessCount(u64(pod.processCount())));
    return PodSandboxStats.newBuilder().setAttributes(attributes(pod)).setWindows(windows).build();
  }

  /** {@code convertToCRIStats}: CPU and memory from a reading; nothing from a nil one (HostProcess sandboxes). */
  private WindowsContainerStats.Builder convertToCriStats(@Nullable HcsReading r) {
    WindowsContainerStats.Builder cs = WindowsContainerStats.newBuilder();
    if (r == null) {
      return cs;
    }
    cs.setCpu(
        WindowsCpuUsage.newBuilder()
            .setTimestamp(r.timestampNanos())
            .setUsageCoreNanoSeconds(u64(r.totalRuntimeNanos())));
    WindowsMemoryUsage.Builder memory =
        WindowsMemoryUsage.newBuilder()
            .setTimestamp(r.timestampNanos())
            .setWorkingSetBytes(u64(r.privateWorkingSetBytes()));
    if (line.reportsCommit()) {
      memory.setCommitMemoryBytes(u64(r.commitBytes()));
    }
    cs.setMemory(memory);
    return cs;
  }

  /** {@code appendCPUPodStats}. */
  private static void appendCpu(WindowsContainerStats.Builder pod, WindowsContainerStats.Builder c, long nowNanos) {
    if (!c.hasCpu() || !c.getCpu().hasUsageCoreNanoSeconds()) {
      return;
    }
    if (!pod.hasCpu()) {
      pod.setCpu(WindowsCpuUsage.newBuilder().setTimestamp(nowNanos).setUsageCoreNanoSeconds(u64(0)));
    }
    WindowsCpuUsage.Builder cpu = pod.getCpuBuilder();
    cpu.setUsageCoreNanoSeconds(
        u64(cpu.getUsageCoreNanoSeconds().getValue() + c.getCpu().getUsageCoreNanoSeconds().getValue()));
  }

  /**
   * {@code appendMemoryPodStats}: the working set (and from 2.2 the commit) summed into the pod; up to 2.1 a missing pod
   * memory is created with {@code working_set_bytes}, {@code available_bytes} and {@code page_faults} (2.0 and 2.1:
   * also {@code commit_memory_bytes}) at 0, and all but the working set stay 0.
   */
  private void appendMemory(WindowsContainerStats.Builder pod, WindowsContainerStats.Builder c, long nowNanos) {
    if (!c.hasMemory()) {
      return;
    }
    if (!pod.hasMemory()) {
      WindowsMemoryUsage.Builder created = WindowsMemoryUsage.newBuilder().setTimestamp(nowNanos);
      if (!line.sumsCommit()) {
        created.setWorkingSetBytes(u64(0)).setAvailableBytes(u64(0)).setPageFaults(u64(0));
        if (line.reportsCommit()) {
          created.setCommitMemoryBytes(u64(0));
        }
      }
      pod.setMemory(created);
    }
    WindowsMemoryUsage.Builder m = pod.getMemoryBuilder();
    WindowsMemoryUsage cm = c.getMemory();
    if (cm.hasWorkingSetBytes()) {
      m.setWorkingSetBytes(u64(m.getWorkingSetBytes().getValue() + cm.getWorkingSetBytes().getValue()));
    }
    if (line.sumsCommit() && cm.hasCommitMemoryBytes()) {
      m.setCommitMemoryBytes(u64(m.getCommitMemoryBytes().getValue() + cm.getCommitMemoryBytes().getValue()));
    }
  }

  /**
   * {@code getUsageNanoCores} of the pod path: 0 without a cached reading; the cache is written by {@code
   * saveSandBoxMetrics} afterwards.
   */
  private long podPathNanoCores(String id, HcsReading r) {
    long rate = nanoCores(previous.get(id), r.timestampNanos(), r.totalRuntimeNanos());
    previous.put(id, new Previous(r.timestampNanos(), r.totalRuntimeNanos()));
    return rate;
  }

  private static long nanoCores(@Nullable Previous before, long timestampNanos, long usageCoreNanos) {
    if (before == null) {
      return 0;
    }
    long interval = timestampNanos - before.timestampNanos();
    if (interval <= 0 || usageCoreNanos < before.usageCoreNanos()) {
      return 0;
    }
    return (long) ((double) (usageCoreNanos - before.usageCoreNanos()) / interval * 1e9);
  }

  /**
   * One entry of {@code ListContainerStats} for a Windows container, running or not: the writable layer and
   * attributes always; CPU and memory only from a reading. From 2.2 {@code usage_bytes} is the commit; before, it is
   * unset. The first {@code usage_nano_cores} is 0 (main after 2.2 leaves it unset). All send {@code inodes_used} 0:
   * the Windows snapshotter counts no inodes.
   */
  public ContainerStats containerStats(WindowsContainer c) {
    boolean found = c.snapshotTimestampNanos() != 0;
    ContainerStats.Builder cs =
        ContainerStats.newBuilder()
            .setWritableLayer(
                FilesystemUsage.newBuilder()
                    .setTimestamp(c.snapshotTimestampNanos())
                    .setFsId(FilesystemIdentifier.newBuilder().setMountpoint(imageFsPath))
                    .setUsedBytes(u64(found ? c.writableLayerBytes() : 0))
                    .setInodesUsed(u64(0)))
            .setAttributes(attributes(c));
    HcsReading r = c.reading();
    if (r == null) {
      return cs.build();
    }
    CpuUsage.Builder cpu =
        CpuUsage.newBuilder().setTimestamp(r.timestampNanos()).setUsageCoreNanoSeconds(u64(r.totalRuntimeNanos()));
    Previous before = previous.get(c.id());
    cpu.setUsageNanoCores(u64(nanoCores(before, r.timestampNanos(), r.totalRuntimeNanos())));
    previous.put(c.id(), new Previous(r.timestampNanos(), r.totalRuntimeNanos()));
    MemoryUsage.Builder memory =
        MemoryUsage.newBuilder().setTimestamp(r.timestampNanos()).setWorkingSetBytes(u64(r.privateWorkingSetBytes()));
    if (line.sumsCommit()) {
      memory.setUsageBytes(u64(r.commitBytes()));
    }
    return cs.setCpu(cpu).setMemory(memory).build();
  }
}
