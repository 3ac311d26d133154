package io.winstats.summary;

import static io.winstats.summary.PressureStats.io;
import static io.winstats.summary.PressureStats.withPsi;

import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeFilesystemUsage;
import io.winstats.cri.RuntimeFilesystems;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupMemory;
import io.winstats.cri.cgroups.CgroupMemoryUsage;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.KubepodsCgroup;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.summary.SummaryTypes.ContainerStats;
import io.winstats.summary.SummaryTypes.CpuStats;
import io.winstats.summary.SummaryTypes.FsStats;
import io.winstats.summary.SummaryTypes.InterfaceStats;
import io.winstats.summary.SummaryTypes.MemoryStats;
import io.winstats.summary.SummaryTypes.NetworkStats;
import io.winstats.summary.SummaryTypes.NodeStats;
import io.winstats.summary.SummaryTypes.RlimitStats;
import io.winstats.summary.SummaryTypes.RuntimeStats;
import io.winstats.summary.SummaryTypes.SwapStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The summary's {@code node}: its CPU, memory, network, root filesystem, rlimit and swap from the node sample, the
 * runtime's filesystems, and the system containers ({@code pods}, and on Windows {@code
 * windows-global-commit-memory}).
 */
final class NodeStatsAssembler {

  /** The interface the kubelet inlines as a node's or pod's default network interface on Linux. */
  static final String DEFAULT_INTERFACE = "eth0";

  /** The kubelet's system container for Windows global commit memory (eviction input since v1.31). */
  static final String WINDOWS_GLOBAL_COMMIT_MEMORY = "windows-global-commit-memory";

  /** The kubelet's system container summing every pod. */
  static final String PODS = "pods";

  private final String nodeName;
  private final NodePlatform platform;
  private final boolean windows;

  NodeStatsAssembler(String nodeName, NodePlatform platform) {
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.platform = Objects.requireNonNull(platform, "platform");
    this.windows = platform == NodePlatform.WINDOWS;
  }

  /**
   * The node's stats; {@code rootFs} is {@link #rootFs(NodeSample)} of the same sample, and {@code cpuAndMemoryOnly}
   * leaves out all but CPU, memory, the system containers and swap.
   */
  NodeStats assemble(
      NodeSample node,
      @Nullable NodeSample previousNode,
      @Nullable RuntimeSample runtime,
      @Nullable CgroupSample cgroups,
      @Nullable FsStats rootFs,
      boolean cpuAndMemoryOnly) {
    NodePressure np = cgroups == null ? null : cgroups.node();
    Instant startTime = nodeStartTime(node);
    return new NodeStats(
        nodeName,
        systemContainers(node, runtime, cgroups, startTime),
        startTime,
        withPsi(nodeCpu(node, previousNode), np == null ? null : np.cpu()),
        withPsi(nodeMemory(node), np == null ? null : np.memory()),
        cpuAndMemoryOnly ? null : nodeNetwork(node),
        cpuAndMemoryOnly ? null : rootFs,
        cpuAndMemoryOnly ? null : runtimeStats(runtime),
        cpuAndMemoryOnly ? null : rlimit(node),
        cpuAndMemoryOnly || np == null || cgroups == null ? null : io(cgroups.timestamp(), np.io()),
        nodeSwap(node));
  }

  private @Nullable List<ContainerStats> systemContainers(
      NodeSample node, @Nullable RuntimeSample runtime, @Nullable CgroupSample cgroups, Instant nodeStart) {
    List<ContainerStats> containers = new ArrayList<>();
    if (runtime != null) {
      containers.add(withKubepods(podsContainer(runtime, nodeStart), cgroups));
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

  /**
   * The {@code pods} system container, as the kubelet's Windows {@code getSystemPodsCPUAndMemoryStats}
   * ({@code summary_sys_containers_windows.go}) makes it: each figure is the sum of the pods that report it, and a sum
   * of 0 is left out ("Set results only if they are not zero"), so a node whose pods report no usage (HostProcess
   * only, or containerd before 2.0, which sends no commit) has no {@code usageBytes} rather than 0. One difference
   * stays: the kubelet sums the CPU rates of the pods that have one, which reads low while a pod waits for its second
   * sample; here the rate is absent until every pod has one.
   */
  private static ContainerStats podsContainer(RuntimeSample runtime, Instant nodeStart) {
    long cpuNanos = 0;
    Long nanoCores = 0L;
    long workingSet = 0;
    long usage = 0;
    for (PodSample pod : runtime.pods()) {
      if (pod.cpu() != null) {
        cpuNanos += pod.cpu().usageCoreNanos();
        Long podNanoCores = pod.cpu().usageNanoCores();
        nanoCores = nanoCores == null || podNanoCores == null ? null : nanoCores + podNanoCores;
      }
      if (pod.memory() != null) {
        workingSet += pod.memory().workingSetBytes() == null ? 0 : pod.memory().workingSetBytes();
        usage += pod.memory().usageBytes() == null ? 0 : pod.memory().usageBytes();
      }
    }
    Instant at = runtime.timestamp();
    return new ContainerStats(
        PODS,
        nodeStart,
        new CpuStats(at, nanoCores == null ? null : nonZero(nanoCores), nonZero(cpuNanos)),
        new MemoryStats(at, null, nonZero(usage), nonZero(workingSet), null, null, null),
        null,
        null);
  }

  /**
   * On Linux the kubelet's {@code pods} is the kubepods cgroup read through cAdvisor (kubernetes
   * pkg/kubelet/stats/summary_sys_containers.go, the pod cgroup root; its memory by {@code cadvisorInfoToMemoryStats}
   * in pkg/kubelet/stats/helper.go): usage, working set and {@code availableBytes} (limit less working set) from its
   * own files, {@code rssBytes} its RSS (v1 {@code total_rss}, v2 {@code anon}), {@code pageFaults} and {@code
   * majorPageFaults} its {@code pgfault} and {@code pgmajfault}, and PSI its {@code cpu.pressure} and {@code
   * memory.pressure} (cgroup v2 only, as the kubelet). Those replace the sums over the pods where the sampler read the
   * kubepods cgroup. CPU stays the sum over the pods' CRI figures: a rate needs the cgroup's previous round, which
   * the sums already carry, and the two differ only by pods that ended between rounds.
   */
  private static ContainerStats withKubepods(ContainerStats pods, @Nullable CgroupSample cgroups) {
    KubepodsCgroup kubepods = cgroups == null ? null : cgroups.kubepods();
    CgroupMemory memory = kubepods == null ? null : kubepods.stats().memory();
    MemoryStats sums = pods.memory();
    if (kubepods == null || memory == null || sums == null) {
      return pods;
    }
    CgroupMemoryUsage usage = kubepods.memoryUsage();
    MemoryStats fromCgroup =
        new MemoryStats(
            sums.time(),
            usage == null ? sums.availableBytes() : usage.availableBytes(),
            usage == null ? sums.usageBytes() : usage.usageBytes(),
            usage == null ? sums.workingSetBytes() : usage.workingSetBytes(),
            memory.rssBytes(),
            memory.pgfault(),
            memory.pgmajfault());
    return new ContainerStats(
        pods.name(),
        pods.startTime(),
        withPsi(pods.cpu(), kubepods.stats().cpuPressure()),
        withPsi(fromCgroup, kubepods.stats().memoryPressure()),
        pods.rootfs(),
        pods.logs());
  }

  private static @Nullable Long nonZero(long sum) {
    return sum == 0 ? null : sum;
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
    // The kubelet's node availableBytes is capacity - working set: absent when either is unknown (a counter log).
    Long available =
        memory.totalBytes() == null || memory.workingSetBytes() == null
            ? null
            : Math.max(0, memory.totalBytes() - memory.workingSetBytes());
    return new MemoryStats(
        node.timestamp(),
        available,
        memory.usageBytes(),
        memory.workingSetBytes(),
        memory.rssBytes(),
        memory.pageFaults(),
        memory.majorPageFaults());
  }

  private @Nullable NetworkStats nodeNetwork(NodeSample node) {
    List<NetworkInterfaceCounters> interfaces = NodeInterfaces.of(node.interfaces(), platform);
    if (interfaces.isEmpty()) {
      return null;
    }
    List<InterfaceStats> all = new ArrayList<>();
    InterfaceStats chosen = null;
    for (NetworkInterfaceCounters nic : interfaces) {
      InterfaceStats stats =
          new InterfaceStats(nic.name(), nic.rxBytes(), nic.rxErrors(), nic.txBytes(), nic.txErrors());
      all.add(stats);
      if (nic.name().equals(DEFAULT_INTERFACE)) {
        chosen = stats;
      }
    }
    // Like the kubelet's cadvisorInfoToNetworkStats (pkg/kubelet/stats/helper.go): the inlined default interface is
    // defaultNetworkInterfaceName, eth0, and stays empty without one; the list holds every kept interface.
    InterfaceStats inlined = chosen != null ? chosen : new InterfaceStats("", null, null, null, null);
    return new NetworkStats(node.timestamp(), inlined, all);
  }

  /**
   * The kubelet's {@code rootFsInfo}: the filesystem of its root directory. A source that reads that one live (PDH:
   * {@code GetDiskFreeSpaceExW}, as the kubelet does) gives it; else the root volume of the sample's filesystems.
   */
  static @Nullable FsStats rootFs(NodeSample node) {
    FilesystemUsage root = node.kubeletRootFs();
    for (FilesystemUsage fs : root != null ? List.<FilesystemUsage>of() : node.filesystems()) {
      if (fs.mountpoint().equals("/")
          || fs.mountpoint().equalsIgnoreCase("C:\\")
          || fs.device().equalsIgnoreCase("C:")) {
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

  /**
   * {@code node.runtime}, as the kubelet's CRI stats provider builds it from {@code ImageFsInfo}: {@code imageFs} is
   * the first image filesystem, used bytes and inodes from the runtime, capacity from the filesystem holding its
   * mountpoint. {@code containerFs} is the first container filesystem when the runtime reports one on another
   * mountpoint (a split image filesystem, as the kubelet's {@code KubeletSeparateDiskGC} reads it), else the image
   * filesystem again, as the CRI stats provider returns it ("we don't support separate disks yet").
   */
  private static @Nullable RuntimeStats runtimeStats(@Nullable RuntimeSample runtime) {
    RuntimeFilesystems filesystems = runtime == null ? null : runtime.filesystems();
    if (filesystems == null || filesystems.image().isEmpty()) {
      return null;
    }
    RuntimeFilesystemUsage image = filesystems.image().get(0);
    FsStats imageFs = fsStats(image);
    FsStats containerFs = imageFs;
    if (!filesystems.container().isEmpty()
        && !filesystems.container().get(0).mountpoint().equals(image.mountpoint())) {
      containerFs = fsStats(filesystems.container().get(0));
    }
    return new RuntimeStats(imageFs, containerFs);
  }

  private static FsStats fsStats(RuntimeFilesystemUsage fs) {
    FilesystemCapacity c = fs.capacity();
    return new FsStats(
        fs.timestamp(),
        c == null ? null : c.availableBytes(),
        c == null ? null : c.capacityBytes(),
        fs.usedBytes(),
        c == null ? null : c.inodesFree(),
        c == null ? null : c.inodes(),
        fs.inodesUsed());
  }

  private @Nullable RlimitStats rlimit(NodeSample node) {
    NodeSystem system = node.system();
    if (system == null) {
      return null;
    }
    // The kubelet's curproc is, on Linux, the kernel's count of scheduling entities (the total after the slash in
    // /proc/loadavg, which NodeSystem.threads holds there) and, on Windows, the process count.
    Long running = !windows && system.threads() != null ? system.threads() : Long.valueOf(system.processes());
    return new RlimitStats(node.timestamp(), taskLimit(system), running);
  }

  /**
   * The kubelet's {@code maxpid}: the smaller of {@code kernel.pid_max} and {@code kernel.threads-max}, which both cap
   * the system's tasks (kubernetes {@code pkg/kubelet/stats/pidlimit/pidlimit_linux.go}); either alone where the other
   * is unknown.
   */
  private static @Nullable Long taskLimit(NodeSystem system) {
    Long pids = system.maxProcesses();
    Long threads = system.maxThreads();
    if (pids == null || threads == null) {
      return pids != null ? pids : threads;
    }
    return Math.min(pids, threads);
  }

  /**
   * The node's {@code swap}, as the kubelet reads the root cgroup through cAdvisor: usage {@code SwapTotal - SwapFree}
   * and, the machine's swap capacity being the limit, available {@code SwapFree} (/proc/meminfo; both 0 on a host
   * without swap, as the kubelet reports it). Absent on Windows, where the kubelet reports none ("reported on
   * non-Windows systems only"), and where the source has no swap figures (a counter log).
   */
  private @Nullable SwapStats nodeSwap(NodeSample node) {
    NodeMemory memory = node.memory();
    if (windows || memory == null || memory.swapTotalBytes() == null || memory.swapFreeBytes() == null) {
      return null;
    }
    long used = Math.max(0, memory.swapTotalBytes() - memory.swapFreeBytes());
    return new SwapStats(node.timestamp(), memory.swapTotalBytes() - used, used);
  }
}
