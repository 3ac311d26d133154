package io.winstats.summary;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.WritableLayerUsage;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.summary.SummaryTypes.ContainerStats;
import io.winstats.summary.SummaryTypes.CpuStats;
import io.winstats.summary.SummaryTypes.FsStats;
import io.winstats.summary.SummaryTypes.InterfaceStats;
import io.winstats.summary.SummaryTypes.MemoryStats;
import io.winstats.summary.SummaryTypes.NetworkStats;
import io.winstats.summary.SummaryTypes.NodeStats;
import io.winstats.summary.SummaryTypes.PodReference;
import io.winstats.summary.SummaryTypes.PodStats;
import io.winstats.summary.SummaryTypes.ProcessStats;
import io.winstats.summary.SummaryTypes.RlimitStats;
import io.winstats.summary.SummaryTypes.Summary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Builds a kubelet {@link Summary} from the latest node and runtime samples. A pure function: no clock, no I/O; every
 * time in the result is a sample's own time.
 */
public final class SummaryAssembler {

  /** The interface the kubelet inlines as a node's or pod's default network interface on Linux. */
  static final String DEFAULT_INTERFACE = "eth0";

  /** The kubelet's system container for Windows global commit memory (eviction input since v1.31). */
  static final String WINDOWS_GLOBAL_COMMIT_MEMORY = "windows-global-commit-memory";

  /** The kubelet's system container summing every pod. */
  static final String PODS = "pods";

  private final String nodeName;
  private final boolean windows;

  /**
   * @param nodeName the node's name as the kubelet registers it
   * @param windows whether the node is a Windows node: adds the {@code windows-global-commit-memory} system container
   */
  public SummaryAssembler(String nodeName, boolean windows) {
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.windows = windows;
  }

  /**
   * The full summary.
   *
   * @param node the newest node sample
   * @param previousNode the node sample before it, for {@code usageNanoCores}; {@code null} on the first sample
   * @param runtime the newest runtime sample; {@code null} when the runtime has not answered yet
   */
  public Summary assemble(NodeSample node, @Nullable NodeSample previousNode, @Nullable RuntimeSample runtime) {
    return build(node, previousNode, runtime, false);
  }

  /** The {@code ?only_cpu_and_memory=true} form: CPU and memory of the node, pods and containers only. */
  public Summary assembleCpuAndMemory(
      NodeSample node, @Nullable NodeSample previousNode, @Nullable RuntimeSample runtime) {
    return build(node, previousNode, runtime, true);
  }

  private Summary build(
      NodeSample node, @Nullable NodeSample previousNode, @Nullable RuntimeSample runtime, boolean cpuAndMemoryOnly) {
    Instant startTime = nodeStartTime(node);
    NodeStats nodeStats =
        new NodeStats(
            nodeName,
            systemContainers(node, runtime, startTime),
            startTime,
            nodeCpu(node, previousNode),
            nodeMemory(node),
            cpuAndMemoryOnly ? null : nodeNetwork(node),
            cpuAndMemoryOnly ? null : nodeFs(node),
            null,
            cpuAndMemoryOnly ? null : rlimit(node));
    List<PodStats> pods = new ArrayList<>();
    if (runtime != null) {
      for (PodSample pod : runtime.pods()) {
        pods.add(podStats(pod, cpuAndMemoryOnly));
      }
    }
    return new Summary(nodeStats, pods);
  }

  private @Nullable List<ContainerStats> systemContainers(
      NodeSample node, @Nullable RuntimeSample runtime, Instant nodeStart) {
    List<ContainerStats> containers = new ArrayList<>();
    if (runtime != null) {
      containers.add(podsContainer(runtime, nodeStart));
    }
    NodeMemory memory = node.memory();
    if (windows && memory != null && memory.committedBytes() != null && memory.commitLimitBytes() != null) {
      // As the kubelet's Windows eviction manager reads GetPerformanceInfo: available = limit - total commit.
      MemoryStats commit =
          new MemoryStats(
              node.timestamp(),
              Math.max(0, memory.commitLimitBytes() - memory.committedBytes()),
              memory.committedBytes(),
              null,
              null,
              null,
              null);
      containers.add(new ContainerStats(WINDOWS_GLOBAL_COMMIT_MEMORY, nodeStart, null, commit, null, null));
    }
    return containers.isEmpty() ? null : containers;
  }

  /** The {@code pods} system container: every pod's CPU and memory summed, as the kubelet reports it on Windows. */
  private static ContainerStats podsContainer(RuntimeSample runtime, Instant nodeStart) {
    long cpuNanos = 0;
    Long nanoCores = 0L;
    long workingSet = 0;
    long usage = 0;
    boolean anyCpu = false;
    boolean anyMemory = false;
    for (PodSample pod : runtime.pods()) {
      if (pod.cpu() != null) {
        anyCpu = true;
        cpuNanos += pod.cpu().usageCoreNanos();
        nanoCores = nanoCores == null || pod.cpu().usageNanoCores() == null ? null : nanoCores + pod.cpu().usageNanoCores();
      }
      if (pod.memory() != null) {
        anyMemory = true;
        workingSet += pod.memory().workingSetBytes() == null ? 0 : pod.memory().workingSetBytes();
        usage += pod.memory().usageBytes() == null ? 0 : pod.memory().usageBytes();
      }
    }
    Instant at = runtime.timestamp();
    return new ContainerStats(
        PODS,
        nodeStart,
        anyCpu ? new CpuStats(at, nanoCores, cpuNanos) : new CpuStats(at, null, 0L),
        anyMemory ? new MemoryStats(at, null, usage, workingSet, null, null, null) : new MemoryStats(at, null, 0L, 0L, null, null, null),
        null,
        null);
  }

  private static Instant nodeStartTime(NodeSample node) {
    NodeSystem system = node.system();
    if (system != null && system.bootTime() != null) {
      return system.bootTime();
    }
    return node.timestamp();
  }

  private static @Nullable CpuStats nodeCpu(NodeSample node, @Nullable NodeSample previous) {
    NodeCpu cpu = node.cpu();
    if (cpu == null) {
      return null;
    }
    Long nanoCores = null;
    if (previous != null && previous.cpu() != null) {
      long elapsedNanos = node.monotonicNanos() - previous.monotonicNanos();
      long usedNanos = cpu.usageCoreNanos() - previous.cpu().usageCoreNanos();
      if (elapsedNanos > 0 && usedNanos >= 0) {
        nanoCores = Math.round(usedNanos * 1e9 / elapsedNanos);
      }
    }
    return new CpuStats(node.timestamp(), nanoCores, cpu.usageCoreNanos());
  }

  private static @Nullable MemoryStats nodeMemory(NodeSample node) {
    NodeMemory memory = node.memory();
    if (memory == null) {
      return null;
    }
    long available = Math.max(0, memory.totalBytes() - memory.workingSetBytes());
    return new MemoryStats(
        node.timestamp(),
        available,
        memory.usageBytes(),
        memory.workingSetBytes(),
        null,
        memory.pageFaults(),
        memory.majorPageFaults());
  }

  private static @Nullable NetworkStats nodeNetwork(NodeSample node) {
    if (node.interfaces().isEmpty()) {
      return null;
    }
    List<InterfaceStats> all = new ArrayList<>();
    InterfaceStats chosen = null;
    for (NetworkInterfaceCounters nic : node.interfaces()) {
      InterfaceStats stats =
          new InterfaceStats(nic.name(), nic.rxBytes(), nic.rxErrors(), nic.txBytes(), nic.txErrors());
      all.add(stats);
      if (nic.name().equals(DEFAULT_INTERFACE)) {
        chosen = stats;
      }
    }
    // Like the kubelet: without eth0 the inlined default interface is empty.
    InterfaceStats inlined = chosen != null ? chosen : new InterfaceStats("", null, null, null, null);
    return new NetworkStats(node.timestamp(), inlined, all);
  }

  private static @Nullable FsStats nodeFs(NodeSample node) {
    FilesystemUsage root = null;
    for (FilesystemUsage fs : node.filesystems()) {
      if (fs.mountpoint().equals("/") || fs.mountpoint().equalsIgnoreCase("C:\\") || fs.device().equalsIgnoreCase("C:")) {
        root = fs;
      }
    }
    if (root == null) {
      return null;
    }
    Long inodesUsed =
        root.inodes() != null && root.inodesFree() != null ? root.inodes() - root.inodesFree() : null;
    return new FsStats(
        node.timestamp(),
        root.availableBytes(),
        root.capacityBytes(),
        root.usedBytes(),
        root.inodesFree(),
        root.inodes(),
        inodesUsed);
  }

  private @Nullable RlimitStats rlimit(NodeSample node) {
    NodeSystem system = node.system();
    if (system == null) {
      return null;
    }
    // The kubelet's curproc is, on Linux, the kernel's count of scheduling entities (the total after the slash in
    // /proc/loadavg, which NodeSystem.threads holds there) and, on Windows, the process count.
    Long running = !windows && system.threads() != null ? system.threads() : Long.valueOf(system.processes());
    return new RlimitStats(node.timestamp(), system.maxProcesses(), running);
  }

  private static PodStats podStats(PodSample pod, boolean cpuAndMemoryOnly) {
    List<ContainerStats> containers = new ArrayList<>();
    for (ContainerSample container : latestAttempts(pod.containers())) {
      containers.add(
          new ContainerStats(
              container.name(),
              container.createdAt(),
              cpu(container.cpu()),
              memory(container.memory()),
              cpuAndMemoryOnly ? null : rootfs(container.writableLayer()),
              null));
    }
    return new PodStats(
        new PodReference(pod.ref().name(), pod.ref().namespace(), pod.ref().uid()),
        pod.createdAt(),
        containers,
        cpu(pod.cpu()),
        memory(pod.memory()),
        cpuAndMemoryOnly ? null : network(pod.network()),
        null,
        cpuAndMemoryOnly || pod.processCount() == null ? null : new ProcessStats(pod.processCount()));
  }

  /** Like the kubelet, a restarted container shows only its newest attempt. */
  private static List<ContainerSample> latestAttempts(List<ContainerSample> containers) {
    Map<String, ContainerSample> byName = new LinkedHashMap<>();
    for (ContainerSample container : containers) {
      byName.merge(container.name(), container, (a, b) -> b.attempt() >= a.attempt() ? b : a);
    }
    return List.copyOf(byName.values());
  }

  private static @Nullable CpuStats cpu(@Nullable CpuUsage cpu) {
    return cpu == null ? null : new CpuStats(cpu.timestamp(), cpu.usageNanoCores(), cpu.usageCoreNanos());
  }

  private static @Nullable MemoryStats memory(@Nullable MemoryUsage memory) {
    if (memory == null) {
      return null;
    }
    return new MemoryStats(
        memory.timestamp(),
        memory.availableBytes(),
        memory.usageBytes(),
        memory.workingSetBytes(),
        memory.rssBytes(),
        memory.pageFaults(),
        memory.majorPageFaults());
  }

  private static @Nullable FsStats rootfs(@Nullable WritableLayerUsage layer) {
    if (layer == null) {
      return null;
    }
    return new FsStats(layer.timestamp(), null, null, layer.usedBytes(), null, null, layer.inodesUsed());
  }

  private static @Nullable NetworkStats network(@Nullable NetworkUsage network) {
    if (network == null || network.interfaces().isEmpty()) {
      return null;
    }
    List<InterfaceStats> all = new ArrayList<>();
    for (InterfaceUsage nic : network.interfaces()) {
      all.add(new InterfaceStats(nic.name(), nic.rxBytes(), nic.rxErrors(), nic.txBytes(), nic.txErrors()));
    }
    return new NetworkStats(network.timestamp(), all.get(0), all);
  }
}
