package io.winstats.summary;

import io.winstats.cri.ContainerLogUsage;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.RuntimeFilesystem;
import io.winstats.cri.RuntimeFilesystems;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.WritableLayerUsage;
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
import io.winstats.summary.SummaryTypes.PodReference;
import io.winstats.summary.SummaryTypes.PodStats;
import io.winstats.summary.SummaryTypes.ProcessStats;
import io.winstats.summary.SummaryTypes.RlimitStats;
import io.winstats.summary.SummaryTypes.RuntimeStats;
import io.winstats.summary.SummaryTypes.Summary;
import io.winstats.summary.SummaryTypes.SwapStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import io.winstats.cri.cgroups.CgroupMemory;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.cri.cgroups.Pressure;
import io.winstats.cri.cgroups.PressureLine;
import io.winstats.summary.SummaryTypes.IoStats;
import io.winstats.summary.SummaryTypes.PsiData;
import io.winstats.summary.SummaryTypes.PsiStats;
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
  private final NodePlatform platform;
  private final boolean windows;

  /**
   * @param nodeName the node's name as the kubelet registers it
   * @param platform the node's: a Windows node adds the {@code windows-global-commit-memory} system container
   */
  public SummaryAssembler(String nodeName, NodePlatform platform) {
    this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
    this.platform = Objects.requireNonNull(platform, "platform");
    this.windows = platform == NodePlatform.WINDOWS;
  }

  /**
   * The full summary.
   *
   * @param node the newest node sample
   * @param previousNode the node sample before it, for {@code usageNanoCores}; {@code null} on the first sample
   * @param runtime the newest runtime sample; {@code null} when the runtime has not answered yet
   */
  public Summary assemble(NodeSample node, @Nullable NodeSample previousNode, @Nullable RuntimeSample runtime) {
    return build(node, previousNode, runtime, null, false);
  }

  /**
   * The full summary with pressure stall information: {@code psi} on the node's, pods' and containers' CPU and memory
   * and an {@code io} with IO pressure, from {@code cgroups} (the node's {@code /proc/pressure}, each cgroup's
   * {@code *.pressure}). Where a file is absent (cgroup v1, Windows, no PSI) the field is absent, never zero.
   */
  public Summary assemble(
      NodeSample node,
      @Nullable NodeSample previousNode,
      @Nullable RuntimeSample runtime,
      @Nullable CgroupSample cgroups) {
    return build(node, previousNode, runtime, cgroups, false);
  }

  /** The {@code ?only_cpu_and_memory=true} form: CPU and memory of the node, pods and containers only. */
  public Summary assembleCpuAndMemory(
      NodeSample node, @Nullable NodeSample previousNode, @Nullable RuntimeSample runtime) {
    return build(node, previousNode, runtime, null, true);
  }

  /** The {@code ?only_cpu_and_memory=true} form with CPU and memory pressure where the host has it. */
  public Summary assembleCpuAndMemory(
      NodeSample node,
      @Nullable NodeSample previousNode,
      @Nullable RuntimeSample runtime,
      @Nullable CgroupSample cgroups) {
    return build(node, previousNode, runtime, cgroups, true);
  }

  private Summary build(
      NodeSample node,
      @Nullable NodeSample previousNode,
      @Nullable RuntimeSample runtime,
      @Nullable CgroupSample cgroups,
      boolean cpuAndMemoryOnly) {
    NodePressure np = cgroups == null ? null : cgroups.node();
    Instant startTime = nodeStartTime(node);
    FsStats rootFs = nodeFs(node);
    NodeStats nodeStats =
        new NodeStats(
            nodeName,
            systemContainers(node, runtime, startTime),
            startTime,
            withPsi(nodeCpu(node, previousNode), np == null ? null : np.cpu()),
            withPsi(nodeMemory(node), np == null ? null : np.memory()),
            cpuAndMemoryOnly ? null : nodeNetwork(node),
            cpuAndMemoryOnly ? null : rootFs,
            cpuAndMemoryOnly ? null : runtimeStats(runtime),
            cpuAndMemoryOnly ? null : rlimit(node),
            cpuAndMemoryOnly || np == null || cgroups == null ? null : io(cgroups.timestamp(), np.io()),
            nodeSwap(node));
    List<PodStats> pods = new ArrayList<>();
    if (runtime != null) {
      for (PodSample pod : runtime.pods()) {
        pods.add(podStats(pod, cpuAndMemoryOnly, rootFs, cgroups));
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
        nanoCores = nanoCores == null || pod.cpu().usageNanoCores() == null ? null : nanoCores + pod.cpu().usageNanoCores();
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
        null,
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
  private static @Nullable FsStats nodeFs(NodeSample node) {
    FilesystemUsage root = node.kubeletRootFs();
    for (FilesystemUsage fs : root != null ? List.<FilesystemUsage>of() : node.filesystems()) {
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
    RuntimeFilesystem image = filesystems.image().get(0);
    FsStats imageFs = fsStats(image);
    FsStats containerFs = imageFs;
    if (!filesystems.container().isEmpty()
        && !filesystems.container().get(0).mountpoint().equals(image.mountpoint())) {
      containerFs = fsStats(filesystems.container().get(0));
    }
    return new RuntimeStats(imageFs, containerFs);
  }

  private static FsStats fsStats(RuntimeFilesystem fs) {
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

  private static PodStats podStats(
      PodSample pod, boolean cpuAndMemoryOnly, @Nullable FsStats rootFs, @Nullable CgroupSample cgroups) {
    List<ContainerStats> containers = new ArrayList<>();
    for (ContainerSample container : RunningContainers.of(pod)) {
      CgroupStats cg = cgroups == null ? null : cgroups.containers().get(container.id());
      containers.add(
          new ContainerStats(
              container.name(),
              container.createdAt(),
              withPsi(cpu(container.cpu()), cg == null ? null : cg.cpuPressure()),
              withPsi(memory(container.memory()), cg == null ? null : cg.memoryPressure()),
              cpuAndMemoryOnly ? null : rootfs(container.writableLayer()),
              cpuAndMemoryOnly ? null : logs(container.logs(), rootFs),
              cpuAndMemoryOnly || cg == null || cgroups == null ? null : io(cgroups.timestamp(), cg.ioPressure()),
              swap(cgroups, cg)));
    }
    CgroupStats podCg = cgroups == null ? null : cgroups.pods().get(pod.sandboxId());
    return new PodStats(
        new PodReference(pod.ref().name(), pod.ref().namespace(), pod.ref().uid()),
        pod.createdAt(),
        containers,
        withPsi(cpu(pod.cpu()), podCg == null ? null : podCg.cpuPressure()),
        withPsi(memory(pod.memory()), podCg == null ? null : podCg.memoryPressure()),
        cpuAndMemoryOnly ? null : network(pod.network()),
        cpuAndMemoryOnly ? null : ephemeralStorage(pod, rootFs),
        cpuAndMemoryOnly || pod.processCount() == null ? null : new ProcessStats(pod.processCount()),
        cpuAndMemoryOnly || podCg == null || cgroups == null ? null : io(cgroups.timestamp(), podCg.ioPressure()),
        swap(cgroups, podCg));
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

  /**
   * A pod's or container's {@code swap} from its cgroup, as the kubelet's {@code cadvisorInfoToSwapStats}: usage
   * {@code memory.swap.current}, available the limit ({@code memory.swap.max}) minus usage, absent when unlimited.
   * Absent without swap accounting (no {@code memory.swap.current}; cgroup v1 without {@code total_swap}), never 0.
   */
  private static @Nullable SwapStats swap(@Nullable CgroupSample cgroups, @Nullable CgroupStats cg) {
    CgroupMemory memory = cg == null ? null : cg.memory();
    if (cgroups == null || memory == null || memory.swapBytes() == null) {
      return null;
    }
    Long limit = memory.swapLimitBytes();
    return new SwapStats(
        cgroups.timestamp(), limit == null ? null : Math.max(0, limit - memory.swapBytes()), memory.swapBytes());
  }

  private static @Nullable CpuStats withPsi(@Nullable CpuStats cpu, @Nullable Pressure pressure) {
    return cpu == null || pressure == null ? cpu : cpu.withPsi(psi(pressure));
  }

  private static @Nullable MemoryStats withPsi(@Nullable MemoryStats memory, @Nullable Pressure pressure) {
    return memory == null || pressure == null ? memory : memory.withPsi(psi(pressure));
  }

  /** {@code io} only where there is IO pressure to report: the kubelet's IOStats carries nothing else. */
  private static @Nullable IoStats io(Instant at, @Nullable Pressure pressure) {
    return pressure == null ? null : new IoStats(at, psi(pressure));
  }

  /**
   * A pressure file as {@code PSIStats}. {@code full} is zero where the file has no {@code full} line
   * ({@code /proc/pressure/cpu} before Linux 5.13), as cAdvisor's zero-valued {@code PSIData} shows it.
   */
  private static PsiStats psi(Pressure p) {
    PressureLine full = p.full();
    return new PsiStats(
        full == null ? new PsiData(0, 0, 0, 0) : psiData(full), psiData(p.some()));
  }

  private static PsiData psiData(PressureLine l) {
    return new PsiData(l.totalMicros(), l.avg10(), l.avg60(), l.avg300());
  }

  /**
   * A container's {@code logs}, as the kubelet's {@code getPodContainerLogStats} builds it: the used bytes and inodes
   * of its log files, with the capacity of the node's root filesystem (the kubelet's {@code rootFsInfo}, the same
   * {@code node.fs}), and the later of the two times.
   */
  private static @Nullable FsStats logs(@Nullable ContainerLogUsage logs, @Nullable FsStats rootFs) {
    if (logs == null) {
      return null;
    }
    if (rootFs == null) {
      return new FsStats(logs.timestamp(), null, null, logs.usedBytes(), null, null, logs.inodesUsed());
    }
    return new FsStats(
        later(rootFs.time(), logs.timestamp()),
        rootFs.availableBytes(),
        rootFs.capacityBytes(),
        logs.usedBytes(),
        rootFs.inodesFree(),
        rootFs.inodes(),
        logs.inodesUsed());
  }

  /**
   * A pod's {@code ephemeral-storage}, following the kubelet's {@code calcEphemeralStorage}: the capacity of the node's
   * root filesystem; used bytes and inodes summed over its containers that report a {@code "rootfs"}: the writable layer
   * plus the container's log files. The kubelet also adds the pod's ephemeral volumes ({@code emptyDir}, configMap,
   * secret and downward-API volumes), files directly in the pod's log directory and its {@code etc-hosts}; the runtime
   * reports none of those, so they are not included and the figure is a lower bound. Absent when no container reports a
   * {@code "rootfs"}.
   */
  private static @Nullable FsStats ephemeralStorage(PodSample pod, @Nullable FsStats rootFs) {
    Instant time = rootFs == null ? null : rootFs.time();
    Long used = null;
    Long inodesUsed = null;
    boolean any = false;
    for (ContainerSample c : RunningContainers.of(pod)) {
      FsStats rootfs = rootfs(c.writableLayer());
      if (rootfs == null) {
        continue;
      }
      any = true;
      time = time == null ? rootfs.time() : later(time, rootfs.time());
      used = add(used, rootfs.usedBytes());
      inodesUsed = add(inodesUsed, rootfs.inodesUsed());
      FsStats logs = logs(c.logs(), rootFs);
      if (logs != null) {
        used = add(used, logs.usedBytes());
        inodesUsed = add(inodesUsed, logs.inodesUsed());
        time = later(time, logs.time());
      }
    }
    if (!any || time == null) { // time is set whenever any is: the second test is for NullAway
      return null;
    }
    return new FsStats(
        time,
        rootFs == null ? null : rootFs.availableBytes(),
        rootFs == null ? null : rootFs.capacityBytes(),
        used,
        rootFs == null ? null : rootFs.inodesFree(),
        rootFs == null ? null : rootFs.inodes(),
        inodesUsed);
  }

  /** A pod's {@code ephemeral-storage} as {@link #assemble} reports it, for the same samples. */
  public record PodEphemeralStorage(PodReference pod, FsStats storage) {
    public PodEphemeralStorage {
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(storage, "storage");
    }
  }

  /**
   * Each pod's {@code ephemeral-storage}, the figure the full summary of {@code node} and {@code runtime} carries, in
   * the runtime's pod order; a pod whose summary has none (no container reports a writable layer) is left out. For
   * serving the same figures as series without assembling the whole summary.
   */
  public static List<PodEphemeralStorage> podEphemeralStorage(NodeSample node, @Nullable RuntimeSample runtime) {
    if (runtime == null) {
      return List.of();
    }
    FsStats rootFs = nodeFs(node);
    List<PodEphemeralStorage> pods = new ArrayList<>(runtime.pods().size());
    for (PodSample pod : runtime.pods()) {
      FsStats storage = ephemeralStorage(pod, rootFs);
      if (storage != null) {
        pods.add(
            new PodEphemeralStorage(new PodReference(pod.ref().name(), pod.ref().namespace(), pod.ref().uid()), storage));
      }
    }
    return pods;
  }

  /** The kubelet's {@code addUsage}: a missing term leaves the sum as it is. */
  private static @Nullable Long add(@Nullable Long sum, @Nullable Long term) {
    if (sum == null) {
      return term;
    }
    if (term == null) {
      return sum;
    }
    return Math.addExact(sum, term);
  }

  private static Instant later(Instant a, Instant b) {
    return a.isBefore(b) ? b : a;
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

  /**
   * A container's {@code rootfs}, as the kubelet's CRI stats provider fills it: used bytes and inodes of the writable
   * layer, capacity and free space of the filesystem holding the layer's mountpoint (the image filesystem).
   */
  private static @Nullable FsStats rootfs(@Nullable WritableLayerUsage layer) {
    if (layer == null) {
      return null;
    }
    FilesystemCapacity c = layer.capacity();
    return new FsStats(
        layer.timestamp(),
        c == null ? null : c.availableBytes(),
        c == null ? null : c.capacityBytes(),
        layer.usedBytes(),
        c == null ? null : c.inodesFree(),
        c == null ? null : c.inodes(),
        layer.inodesUsed());
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
