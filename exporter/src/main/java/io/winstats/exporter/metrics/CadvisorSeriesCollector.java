package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.counter;
import static io.winstats.exporter.metrics.FamiliesBuilder.gauge;
import static io.winstats.exporter.metrics.FamiliesBuilder.labelNames;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.ResourceSpec;
import io.winstats.cri.RuntimeFilesystemUsage;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.summary.NodeInterfaces;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The cAdvisor-compatible series the kubelet serves on {@code /metrics/cadvisor}, with cAdvisor's names, types and
 * labels ({@code container}, {@code id}, {@code image}, {@code name}, {@code namespace}, {@code pod}): one set per
 * container, one per pod ({@code container=""}) and one for the node root ({@code id="/"}), each with its sample's
 * own timestamp.
 *
 * <p>{@code id} follows the cgroupfs layout the kubelet's series use — {@code /kubepods/pod<uid>/<container id>} — as
 * CRI does not report a container's cgroup path and Windows has none. {@code name} is the runtime's container id, as
 * cAdvisor names containerd containers.
 *
 * <p>This collector owns every {@code container_network_*} family ({@link CadvisorNetworkTables}): on Linux a pod's
 * packets and drops, which CRI does not carry, come from the pod's {@code /proc/<pid>/net/dev} read in the cgroup round
 * ({@link CgroupSample#podNetworks()}).
 *
 * <p>On a Windows node the CPU split, the commit peak (as {@code container_memory_max_usage_bytes}: on Windows a
 * container's usage is its commit), the storage I/O and the pods' packet counts come from containerd's task metrics
 * and HNS ({@code --cri.windows-stats=tasks}); on Linux {@link CgroupSeriesCollector} serves those names from the
 * cgroups, so they are declared for Windows nodes only ({@link CadvisorWindowsTables}). The storage I/O has no {@code
 * device} label: HCS counts a container's reads and writes over all its volumes, and no Windows volume is a block
 * device name.
 *
 * <p>Snapshots are built once per published {@link Snapshot#version()} and reused by every scrape of that version.
 */
public final class CadvisorSeriesCollector extends PerVersionCollector {
  // Made once: Labels.add validates the new name on every call, merging two valid label sets does not.
  private static final Labels CPU_TOTAL = Labels.of("cpu", "total");

  private final NodePlatform platform;

  /**
   * @param platform the node's: on Windows the root's interfaces are every adapter, on Linux those
   *     cAdvisor keeps on Linux ({@link NodeInterfaces})
   */
  public CadvisorSeriesCollector(Supplier<Snapshot> snapshots, NodePlatform platform) {
    super(snapshots);
    this.platform = platform;
  }

  @Override
  MetricSnapshots build(Snapshot snapshot) {
    return series(snapshot, platform);
  }

  /** Every family this collector serves on a node of its kind. */
  @Override
  public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
    return families(platform);
  }

  /**
   * The families on a node of {@code platform}: {@code container_processes} is the
   * runtime's on Windows and the pids cgroup's ({@link CgroupSeriesCollector}) on Linux.
   */
  static List<MetricFamilyDescriptor> families(NodePlatform platform) {
    return platform == NodePlatform.WINDOWS ? WINDOWS_FAMILIES : FAMILIES;
  }

  /** The series of {@code snapshot}, for golden tests and benchmarks. */
  static MetricSnapshots series(Snapshot snapshot, NodePlatform platform) {
    FamiliesBuilder f = new FamiliesBuilder();
    NodeSample node = snapshot.node();
    if (node != null) {
      MACHINE.add(f, node, Labels.EMPTY, null);
      addRoot(f, node, platform);
    }
    RuntimeSample runtime = snapshot.runtime();
    if (runtime != null) {
      // On Windows the pod's process count is the runtime's; on Linux CgroupSeriesCollector serves
      // container_processes from the pids cgroup. One family name must come from one collector, decided by the node
      // kind and never by the snapshot: the two collectors read the store one after the other, and a cgroup sample
      // published in between made both serve it (a duplicate that failed the whole /metrics render).
      CgroupSample cgroups = snapshot.cgroups();
      boolean windows = platform == NodePlatform.WINDOWS;
      for (PodSample pod : runtime.pods()) {
        addPod(f, pod, runtime.timestamp(), windows);
        if (cgroups != null) {
          CadvisorNetworkTables.addPodNetDev(
              f, pod, cgroups, labels("", podCgroup(pod), "", "", pod.ref().namespace(), pod.ref().name()));
        }
        for (ContainerSample container : pod.containers()) {
          addContainer(f, pod, container, runtime.timestamp(), windows);
        }
      }
    }
    SCRAPE_ERROR.add(f, snapshot, Labels.EMPTY, null);
    return f.build();
  }

  private static void addRoot(FamiliesBuilder f, NodeSample node, NodePlatform platform) {
    Labels root = labels("", "/", "", "", "", "");
    Instant at = node.timestamp();
    if (node.cpu() != null) {
      ROOT_CPU.add(f, node.cpu(), root, at);
    }
    if (node.memory() != null) {
      ROOT_MEMORY.add(f, node.memory(), root, at);
    }
    for (NetworkInterfaceCounters nic : NodeInterfaces.of(node.interfaces(), platform)) {
      CadvisorNetworkTables.ROOT.add(f, nic, root.add("interface", nic.name()), at);
    }
    if (node.system() != null) {
      ROOT_SYSTEM.add(f, node.system(), root, at);
    }
  }

  private static void addPod(FamiliesBuilder f, PodSample pod, Instant roundTime, boolean windows) {
    Labels l = labels("", podCgroup(pod), "", "", pod.ref().namespace(), pod.ref().name());
    usage(f, l, pod.cpu(), pod.memory());
    NetworkUsage network = pod.network();
    if (network != null) {
      for (InterfaceUsage nic : network.interfaces()) {
        CadvisorNetworkTables.POD.add(f, nic, l.add("interface", nic.name()), network.timestamp());
      }
    }
    if (windows) {
      CadvisorWindowsTables.POD_PROCESSES.add(f, pod, l, roundTime);
    }
    POD_TIMES.add(f, pod, l, roundTime);
  }

  private static void addContainer(
      FamiliesBuilder f, PodSample pod, ContainerSample c, Instant roundTime, boolean windows) {
    Labels l =
        labels(c.name(), podCgroup(pod) + "/" + c.id(), c.image(), c.id(), pod.ref().namespace(), pod.ref().name());
    usage(f, l, c.cpu(), c.memory());
    if (windows) {
      CadvisorWindowsTables.addTaskFigures(f, c, l);
    }
    RuntimeFilesystemUsage layer = c.writableLayer();
    if (layer != null) {
      Labels device = l.add("device", layer.mountpoint());
      LAYER.add(f, layer, device, layer.timestamp());
      if (layer.capacity() != null) {
        LAYER_CAPACITY.add(f, layer.capacity(), device, layer.timestamp());
      }
    }
    if (c.resources() != null) {
      SPEC.add(f, c.resources(), l, roundTime);
    }
    CONTAINER_TIMES.add(f, c, l, roundTime);
  }

  private static void usage(FamiliesBuilder f, Labels l, @Nullable CpuUsage cpu, @Nullable MemoryUsage memory) {
    if (cpu != null) {
      CPU.add(f, cpu, l, cpu.timestamp());
    }
    if (memory != null) {
      MEMORY.add(f, memory, l, memory.timestamp());
    }
  }

  static String podCgroup(PodSample pod) {
    return "/kubepods/pod" + pod.ref().uid();
  }

  static Labels labels(
      String container, String id, String image, String name, String namespace, String pod) {
    return Labels.of(
        "container", container, "id", id, "image", image, "name", name, "namespace", namespace, "pod", pod);
  }

  /** The labels of every container, pod and root series, as the kubelet's cAdvisor labels them. */
  static final List<String> CONTAINER_LABELS = List.of("container", "id", "image", "name", "namespace", "pod");

  private static final List<String> DEVICE = labelNames(CONTAINER_LABELS, "device");

  // Families the root, the pods and the containers all serve: declared once, named by each table's row.
  static final MetricFamilyDescriptor CPU_USAGE =
      counter(
          "container_cpu_usage_seconds_total",
          "Cumulative cpu time consumed in seconds.",
          labelNames(CONTAINER_LABELS, "cpu"));
  static final MetricFamilyDescriptor WORKING_SET =
      gauge("container_memory_working_set_bytes", "Current working set in bytes.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor USAGE =
      gauge(
          "container_memory_usage_bytes",
          "Current memory usage in bytes, including all memory regardless of when it was accessed",
          CONTAINER_LABELS);
  /** The runtime's on Windows, the pids cgroup's ({@link CgroupSeriesCollector}) on Linux. */
  static final MetricFamilyDescriptor PROCESSES =
      gauge("container_processes", "Number of processes running inside the container.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor START_TIME =
      gauge(
          "container_start_time_seconds",
          "Start time of the container since unix epoch in seconds.",
          CONTAINER_LABELS);
  static final MetricFamilyDescriptor LAST_SEEN =
      gauge("container_last_seen", "Last time a container was seen by the exporter", CONTAINER_LABELS);

  /** The machine: no labels, no timestamp. */
  static final SeriesTable<NodeSample> MACHINE =
      SeriesTable.<NodeSample>labelled(List.of())
          .gauge(
              "machine_cpu_cores",
              "Number of logical CPU cores.",
              n -> n.cpu() == null ? null : n.cpu().logicalCores())
          .gauge(
              "machine_memory_bytes",
              "Amount of memory installed on the machine.",
              n -> n.memory() == null ? null : n.memory().totalBytes())
          .build();

  /** The node root ({@code id="/"}), at the node sample's time. */
  static final SeriesTable<NodeCpu> ROOT_CPU =
      SeriesTable.<NodeCpu>labelled(CONTAINER_LABELS)
          .write(CPU_USAGE, (f, family, c, l, at) -> f.add(family, c.usageCoreNanos() / 1e9, l.merge(CPU_TOTAL), at))
          .build();

  static final SeriesTable<NodeMemory> ROOT_MEMORY =
      SeriesTable.<NodeMemory>labelled(CONTAINER_LABELS)
          .row(WORKING_SET, NodeMemory::workingSetBytes)
          .row(USAGE, NodeMemory::usageBytes)
          .build();

  static final SeriesTable<NodeSystem> ROOT_SYSTEM =
      SeriesTable.<NodeSystem>labelled(CONTAINER_LABELS)
          .row(START_TIME, s -> s.bootTime() == null ? null : s.bootTime().getEpochSecond())
          .build();

  /** A pod's or container's CRI figures, at their own times. */
  static final SeriesTable<CpuUsage> CPU =
      SeriesTable.<CpuUsage>labelled(CONTAINER_LABELS)
          .write(CPU_USAGE, (f, family, c, l, at) -> f.add(family, c.usageCoreNanos() / 1e9, l.merge(CPU_TOTAL), at))
          .build();

  static final SeriesTable<MemoryUsage> MEMORY =
      SeriesTable.<MemoryUsage>labelled(CONTAINER_LABELS)
          .row(WORKING_SET, MemoryUsage::workingSetBytes)
          .row(USAGE, MemoryUsage::usageBytes)
          .gauge("container_memory_rss", "Size of RSS in bytes.", MemoryUsage::rssBytes)
          .build();

  /** A pod's start and last-seen times, at the round's time. */
  static final SeriesTable<PodSample> POD_TIMES =
      SeriesTable.<PodSample>labelled(CONTAINER_LABELS)
          .row(START_TIME, p -> p.createdAt().getEpochSecond())
          .write(LAST_SEEN, CadvisorSeriesCollector::lastSeen)
          .build();

  /** A container's writable layer, labelled with its mountpoint as the device, at the layer's time. */
  static final SeriesTable<RuntimeFilesystemUsage> LAYER =
      SeriesTable.<RuntimeFilesystemUsage>labelled(DEVICE)
          .gauge(
              "container_fs_usage_bytes",
              "Number of bytes that are consumed by the container on this filesystem.",
              RuntimeFilesystemUsage::usedBytes)
          .build();

  /** The filesystem under the layer; its inodes as cAdvisor labels them, none on Windows (NTFS has no count). */
  static final SeriesTable<FilesystemCapacity> LAYER_CAPACITY =
      SeriesTable.<FilesystemCapacity>labelled(DEVICE)
          .gauge(
              "container_fs_limit_bytes",
              "Number of bytes that can be consumed by the container on this filesystem.",
              FilesystemCapacity::capacityBytes)
          .gauge("container_fs_inodes_free", "Number of available Inodes", FilesystemCapacity::inodesFree)
          .gauge("container_fs_inodes_total", "Number of Inodes", FilesystemCapacity::inodes)
          .build();

  /**
   * cAdvisor's {@code container_spec_*} from the resources the runtime applied ({@code ContainerStatus.resources}), at
   * the round's time. Period, quota and shares when set (CRI's 0 is "not set"; the kubelet always sets shares); the
   * memory limit 0 when unlimited, as cAdvisor's {@code specMemoryValue}. None when the runtime reports no resources
   * (containerd before 1.6 on Linux; Windows, whose resources this daemon does not read).
   */
  static final SeriesTable<ResourceSpec> SPEC =
      SeriesTable.<ResourceSpec>labelled(CONTAINER_LABELS)
          .gauge("container_spec_cpu_period", "CPU period of the container.", ResourceSpec::cpuPeriodMicros)
          .gauge("container_spec_cpu_quota", "CPU quota of the container.", ResourceSpec::cpuQuotaMicros)
          .gauge("container_spec_cpu_shares", "CPU share of the container.", ResourceSpec::cpuShares)
          .gauge(
              "container_spec_memory_limit_bytes",
              "Memory limit for the container.",
              s -> s.memoryLimitBytes() == null ? 0L : s.memoryLimitBytes())
          .build();

  /** A container's start and last-seen times, at the round's time. */
  static final SeriesTable<ContainerSample> CONTAINER_TIMES =
      SeriesTable.<ContainerSample>labelled(CONTAINER_LABELS)
          .row(START_TIME, c -> c.createdAt().getEpochSecond())
          .write(LAST_SEEN, CadvisorSeriesCollector::lastSeen)
          .build();

  static final SeriesTable<Snapshot> SCRAPE_ERROR =
      SeriesTable.<Snapshot>labelled(List.of())
          .gauge(
              "container_scrape_error",
              "1 if there was an error while getting container metrics, 0 otherwise",
              s -> s.runtimeFailing() ? 1 : 0)
          .build();

  /** The families of a Linux node, in the order a full snapshot first serves them. */
  private static final List<MetricFamilyDescriptor> FAMILIES =
      SeriesTable.families(
          MACHINE,
          ROOT_CPU,
          ROOT_MEMORY,
          CadvisorNetworkTables.ROOT,
          ROOT_SYSTEM,
          POD_TIMES,
          CPU,
          MEMORY,
          CadvisorNetworkTables.POD,
          CadvisorNetworkTables.NET_DEV_PACKETS,
          CadvisorNetworkTables.NET_DEV_DROPS,
          LAYER,
          LAYER_CAPACITY,
          SPEC,
          CONTAINER_TIMES,
          SCRAPE_ERROR);

  /** A Windows node's: the Linux ones and the runtime's process count and task-metric figures. */
  private static final List<MetricFamilyDescriptor> WINDOWS_FAMILIES =
      Stream.concat(FAMILIES.stream(), CadvisorWindowsTables.FAMILIES.stream()).toList();

  /**
   * Figures of the snapshot this collector does not serve on a node of {@code platform}, each with the reason: {@code
   * ServedFiguresTest} fails on a figure that is neither served nor here. {@code Record.*} stands for every figure of
   * a record that is not served (the node's memory and system figures, which the node collectors serve in full).
   */
  static Map<String, String> unserved(NodePlatform platform) {
    Map<String, String> unserved = new HashMap<>(UNSERVED);
    unserved.putAll(platform == NodePlatform.WINDOWS ? UNSERVED_ON_WINDOWS : UNSERVED_ON_LINUX);
    return Map.copyOf(unserved);
  }

  private static final String NOT_CADVISOR = "not a cAdvisor series";

  private static final Map<String, String> UNSERVED =
      Map.ofEntries(
          Map.entry("Snapshot.version", "the store's count, not a figure"),
          Map.entry("Snapshot.previousNode", "the sample before, for /stats/summary's rates"),
          Map.entry("NodeSample.monotonicNanos", "the sampling clock, for rates"),
          Map.entry("NodeSample.kubeletRootFs", "the kubelet's root filesystem: /stats/summary's nodefs"),
          Map.entry("NodeSample.windowsOs", "Windows' release and DNS names: windows_exporter's os series"),
          Map.entry("NodeSample.filesystems", "the node's volumes: node_exporter's and windows_exporter's series"),
          Map.entry("NodeSample.disks", "the node's disks: node_exporter's and windows_exporter's series"),
          Map.entry("NodeSample.physicalDisks", "Windows' physical disks: windows_exporter's physical_disk series"),
          Map.entry("NetworkInterfaceCounters.currentBandwidthBits", "windows_exporter's net series"),
          Map.entry("NetworkInterfaceCounters.outputQueuePackets", "windows_exporter's net series"),
          Map.entry("NetworkInterfaceCounters.rxUnknownProtocol", "windows_exporter's net series"),
          Map.entry("NodeCpu.cores", "per-core times: the root serves the total"),
          Map.entry("NodeCpu.processors", "Windows' per-core counters: windows_exporter's cpu series"),
          Map.entry("NodeMemory.*", "the root serves the node's total, working set and usage only"),
          Map.entry("NodeSystem.*", "the root serves the node's boot time only"),
          Map.entry("RuntimeSample.filesystems", "the runtime's image filesystem: /stats/summary's runtime"),
          Map.entry("PodSample.hostProcess", "windows_exporter's hostprocess label (WindowsContainerSeries)"),
          Map.entry("ContainerSample.attempt", "the restart attempt: no such cAdvisor series"),
          Map.entry("ContainerSample.logs", "the log files: /stats/summary's logs"),
          Map.entry("CpuUsage.usageNanoCores", "a rate: cAdvisor serves the cumulative time"),
          Map.entry("MemoryUsage.availableBytes", NOT_CADVISOR),
          Map.entry("MemoryUsage.pageFaults", "the cgroup's container_memory_failures_total"),
          Map.entry("MemoryUsage.majorPageFaults", "the cgroup's container_memory_failures_total"),
          Map.entry("MemoryUsage.commitBytes", "Windows commit: windows_exporter's series (WindowsContainerSeries)"),
          Map.entry("RuntimeFilesystemUsage.inodesUsed", "the layer's inodes: /stats/summary's rootfs"),
          Map.entry("FilesystemCapacity.availableBytes", NOT_CADVISOR));

  private static final Map<String, String> UNSERVED_ON_LINUX =
      Map.ofEntries(
          Map.entry("PodSample.processCount", "the pids cgroup's on Linux (CgroupSeriesCollector)"),
          Map.entry("CpuUsage.userNanos", "the cgroup's on Linux (CgroupSeriesCollector)"),
          Map.entry("CpuUsage.kernelNanos", "the cgroup's on Linux (CgroupSeriesCollector)"),
          Map.entry("MemoryUsage.commitPeakBytes", "the cgroup's maximum on Linux (CgroupSeriesCollector)"),
          Map.entry("ContainerSample.storage", "the cgroup's block IO on Linux (CgroupSeriesCollector)"),
          Map.entry("CgroupSample.node", "the node's PSI: /stats/summary"),
          Map.entry(
              "CgroupSample.kubepods",
              "the kubelet's pods system container: /stats/summary (the kubelet's cAdvisor also serves id=/kubepods;"
                  + " this daemon serves pod and container cgroups only)"));

  private static final Map<String, String> UNSERVED_ON_WINDOWS =
      Map.of(
          "ContainerSample.resources", "a Windows container's resources are not read: no container_spec_*",
          "Snapshot.cgroups", "no cgroups on Windows",
          "WindowsService.*", "Windows' services: windows_exporter's service series (WindowsServiceTables)",
          "NetworkAdapter.*", "Windows' network adapters: windows_exporter's nic series (WindowsNetAdapterTables)");

  /** {@code container_last_seen}: the round's time ({@code at}) in whole seconds. */
  private static <P> void lastSeen(
      FamiliesBuilder f, MetricFamilyDescriptor family, P part, Labels l, @Nullable Instant at) {
    Instant roundTime = Objects.requireNonNull(at, "the round's time");
    f.add(family, roundTime.getEpochSecond(), l, roundTime);
  }
}
