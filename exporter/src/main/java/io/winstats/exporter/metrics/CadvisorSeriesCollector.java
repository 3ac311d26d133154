package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.MetricFamilies.counter;
import static io.winstats.exporter.metrics.MetricFamilies.gauge;
import static io.winstats.exporter.metrics.MetricFamilies.labelNames;

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
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.StorageIo;
import io.winstats.cri.WritableLayerUsage;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.NetDevInterface;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.NodeInterfaces;
import java.time.Instant;
import java.util.List;
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
 * <p>This collector owns every {@code container_network_*} family: on Linux a pod's packets and drops, which CRI does
 * not carry, come from the pod's {@code /proc/<pid>/net/dev} read in the cgroup round ({@link CgroupSample#podNetworks()}).
 *
 * <p>On a Windows node the CPU split, the commit peak (as {@code container_memory_max_usage_bytes}: on Windows a
 * container's usage is its commit), the storage I/O and the pods' packet counts come from containerd's task metrics
 * and HNS ({@code --cri.windows-stats=tasks}); on Linux {@link CgroupSeriesCollector} serves those names from the
 * cgroups, so they are declared here for Windows nodes only. The storage I/O has no {@code device} label: HCS counts a
 * container's reads and writes over all its volumes, and no Windows volume is a block device name.
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
    MetricFamilies f = new MetricFamilies();
    NodeSample node = snapshot.node();
    if (node != null) {
      addMachine(f, node);
      addRoot(f, node, platform);
    }
    RuntimeSample runtime = snapshot.runtime();
    if (runtime != null) {
      // On Windows the pod's process count is the runtime's; on Linux CgroupSeriesCollector serves
      // container_processes from the pids cgroup. One family name must come from one collector, decided by the node
      // kind and never by the snapshot: the two collectors read the store one after the other, and a cgroup sample
      // published in between made both serve it (a duplicate that failed the whole /metrics render).
      CgroupSample cgroups = snapshot.cgroups();
      boolean processesFromRuntime = platform == NodePlatform.WINDOWS;
      for (PodSample pod : runtime.pods()) {
        addPod(f, pod, runtime.timestamp(), processesFromRuntime);
        if (cgroups != null) {
          addPodNetDev(f, pod, cgroups);
        }
        for (ContainerSample container : pod.containers()) {
          addContainer(f, pod, container, runtime.timestamp(), platform);
        }
      }
    }
    f.add(SCRAPE_ERROR, snapshot.runtimeFailing() ? 1 : 0, Labels.EMPTY, null);
    return f.build();
  }

  private static void addMachine(MetricFamilies f, NodeSample node) {
    if (node.cpu() != null) {
      f.add(MACHINE_CPU_CORES, node.cpu().logicalCores(), Labels.EMPTY, null);
    }
    if (node.memory() != null) {
      f.addIfPresent(MACHINE_MEMORY_BYTES, node.memory().totalBytes(), Labels.EMPTY, null);
    }
  }

  private static void addRoot(MetricFamilies f, NodeSample node, NodePlatform platform) {
    Labels root = labels("", "/", "", "", "", "");
    Instant at = node.timestamp();
    if (node.cpu() != null) {
      cpu(f, root.merge(CPU_TOTAL), node.cpu().usageCoreNanos(), at);
    }
    if (node.memory() != null) {
      f.addIfPresent(WORKING_SET, node.memory().workingSetBytes(), root, at);
      f.addIfPresent(USAGE, node.memory().usageBytes(), root, at);
    }
    for (NetworkInterfaceCounters nic : NodeInterfaces.of(node.interfaces(), platform)) {
      Labels l = root.add("interface", nic.name());
      f.add(RX_BYTES, nic.rxBytes(), l, at);
      f.add(TX_BYTES, nic.txBytes(), l, at);
      f.add(RX_ERRORS, nic.rxErrors(), l, at);
      f.add(TX_ERRORS, nic.txErrors(), l, at);
      f.add(RX_DROPPED, nic.rxDropped(), l, at);
      f.add(TX_DROPPED, nic.txDropped(), l, at);
      f.add(RX_PACKETS, nic.rxPackets(), l, at);
      f.add(TX_PACKETS, nic.txPackets(), l, at);
    }
    if (node.system() != null && node.system().bootTime() != null) {
      f.add(START_TIME, node.system().bootTime().getEpochSecond(), root, at);
    }
  }

  private static void addPod(MetricFamilies f, PodSample pod, Instant roundTime, boolean processesFromRuntime) {
    Labels l = labels("", podCgroup(pod), "", "", pod.ref().namespace(), pod.ref().name());
    usage(f, l, pod.cpu(), pod.memory());
    NetworkUsage network = pod.network();
    if (network != null) {
      for (InterfaceUsage nic : network.interfaces()) {
        Labels n = l.add("interface", nic.name());
        Instant at = network.timestamp();
        f.addIfPresent(RX_BYTES, nic.rxBytes(), n, at);
        f.addIfPresent(TX_BYTES, nic.txBytes(), n, at);
        f.addIfPresent(RX_ERRORS, nic.rxErrors(), n, at);
        f.addIfPresent(TX_ERRORS, nic.txErrors(), n, at);
        f.addIfPresent(RX_DROPPED, nic.rxPacketsDropped(), n, at);
        f.addIfPresent(TX_DROPPED, nic.txPacketsDropped(), n, at);
        // HNS endpoint statistics count packets (Windows); CRI does not, and Linux pods' come from /proc net/dev.
        f.addIfPresent(RX_PACKETS, nic.rxPackets(), n, at);
        f.addIfPresent(TX_PACKETS, nic.txPackets(), n, at);
      }
    }
    if (processesFromRuntime) {
      // containerd's Windows count: len(task.Pids) of the sandbox and its running containers (podSandboxStats in
      // internal/cri/server/sandbox_stats_windows.go); cAdvisor's is the pod cgroup's process count.
      f.addIfPresent(PROCESSES, pod.processCount(), l, roundTime);
    }
    f.add(START_TIME, pod.createdAt().getEpochSecond(), l, roundTime);
    f.add(LAST_SEEN, roundTime.getEpochSecond(), l, roundTime);
  }

  /**
   * What CRI's Linux {@code NetworkInterfaceUsage} lacks, from the pod's {@code /proc/<pid>/net/dev} read in the
   * cgroup round: packets, and the drops of an interface whose CRI figures have none. cAdvisor's interfaces only (no
   * {@code lo}), stamped with the cgroup read's time.
   */
  private static void addPodNetDev(MetricFamilies f, PodSample pod, CgroupSample cgroups) {
    List<NetDevInterface> interfaces = cgroups.podNetworks().get(pod.sandboxId());
    if (interfaces == null) {
      return;
    }
    Labels l = labels("", podCgroup(pod), "", "", pod.ref().namespace(), pod.ref().name());
    Instant at = cgroups.timestamp();
    for (NetDevInterface nic : interfaces) {
      if (NodeInterfaces.isIgnored(nic.name())) {
        continue;
      }
      Labels n = l.add("interface", nic.name());
      f.add(RX_PACKETS, nic.rxPackets(), n, at);
      f.add(TX_PACKETS, nic.txPackets(), n, at);
      if (!criCountsDrops(pod.network(), nic.name())) {
        f.add(RX_DROPPED, nic.rxDropped(), n, at);
        f.add(TX_DROPPED, nic.txDropped(), n, at);
      }
    }
  }

  private static boolean criCountsDrops(@Nullable NetworkUsage network, String name) {
    if (network == null) {
      return false;
    }
    for (InterfaceUsage nic : network.interfaces()) {
      if (nic.name().equals(name) && (nic.rxPacketsDropped() != null || nic.txPacketsDropped() != null)) {
        return true;
      }
    }
    return false;
  }

  private static void addContainer(
      MetricFamilies f, PodSample pod, ContainerSample c, Instant roundTime, NodePlatform platform) {
    Labels l =
        labels(c.name(), podCgroup(pod) + "/" + c.id(), c.image(), c.id(), pod.ref().namespace(), pod.ref().name());
    usage(f, l, c.cpu(), c.memory());
    if (platform == NodePlatform.WINDOWS) {
      addWindowsTaskFigures(f, l, c);
    }
    WritableLayerUsage layer = c.writableLayer();
    if (layer != null) {
      Labels device = l.add("device", layer.mountpoint());
      f.addIfPresent(FS_USAGE, layer.usedBytes(), device, layer.timestamp());
      FilesystemCapacity capacity = layer.capacity();
      if (capacity != null) {
        f.add(FS_LIMIT, capacity.capacityBytes(), device, layer.timestamp());
        // The filesystem's inodes, as cAdvisor labels them with the device; none on Windows (NTFS has no count).
        f.addIfPresent(FS_INODES_FREE, capacity.inodesFree(), device, layer.timestamp());
        f.addIfPresent(FS_INODES_TOTAL, capacity.inodes(), device, layer.timestamp());
      }
    }
    spec(f, l, c.resources(), roundTime);
    f.add(START_TIME, c.createdAt().getEpochSecond(), l, roundTime);
    f.add(LAST_SEEN, roundTime.getEpochSecond(), l, roundTime);
  }

  /** The figures of Windows task metrics under cAdvisor's names, where the round read them (never from CRI). */
  private static void addWindowsTaskFigures(MetricFamilies f, Labels l, ContainerSample c) {
    CpuUsage cpu = c.cpu();
    if (cpu != null) {
      if (cpu.userNanos() != null) {
        f.add(CPU_USER, cpu.userNanos() / 1e9, l, cpu.timestamp());
      }
      if (cpu.kernelNanos() != null) {
        f.add(CPU_SYSTEM, cpu.kernelNanos() / 1e9, l, cpu.timestamp());
      }
    }
    MemoryUsage memory = c.memory();
    if (memory != null) {
      f.addIfPresent(MEMORY_MAX_USAGE, memory.commitPeakBytes(), l, memory.timestamp());
    }
    StorageIo io = c.storage();
    if (io != null) {
      f.add(FS_READS, io.readCount(), l, io.timestamp());
      f.add(FS_READS_BYTES, io.readBytes(), l, io.timestamp());
      f.add(FS_WRITES, io.writeCount(), l, io.timestamp());
      f.add(FS_WRITES_BYTES, io.writeBytes(), l, io.timestamp());
    }
  }

  /**
   * cAdvisor's {@code container_spec_*} from the resources the runtime applied ({@code ContainerStatus.resources}).
   * Period, quota and shares when set (CRI's 0 is "not set"; the kubelet always sets shares); the memory limit 0 when
   * unlimited, as cAdvisor's {@code specMemoryValue}. Nothing when the runtime reports no resources (containerd
   * before 1.6 on Linux; Windows, whose resources this daemon does not read).
   */
  private static void spec(MetricFamilies f, Labels l, @Nullable ResourceSpec spec, Instant at) {
    if (spec == null) {
      return;
    }
    f.addIfPresent(SPEC_CPU_PERIOD, spec.cpuPeriodMicros(), l, at);
    f.addIfPresent(SPEC_CPU_QUOTA, spec.cpuQuotaMicros(), l, at);
    f.addIfPresent(SPEC_CPU_SHARES, spec.cpuShares(), l, at);
    f.add(SPEC_MEMORY_LIMIT, spec.memoryLimitBytes() == null ? 0 : spec.memoryLimitBytes(), l, at);
  }

  private static void usage(MetricFamilies f, Labels l, @Nullable CpuUsage cpu, @Nullable MemoryUsage memory) {
    if (cpu != null) {
      cpu(f, l.merge(CPU_TOTAL), cpu.usageCoreNanos(), cpu.timestamp());
    }
    if (memory != null) {
      f.addIfPresent(WORKING_SET, memory.workingSetBytes(), l, memory.timestamp());
      f.addIfPresent(USAGE, memory.usageBytes(), l, memory.timestamp());
      f.addIfPresent(RSS, memory.rssBytes(), l, memory.timestamp());
    }
  }

  private static void cpu(MetricFamilies f, Labels l, long usageCoreNanos, Instant at) {
    f.add(CPU_USAGE, usageCoreNanos / 1e9, l, at);
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

  private static final List<String> INTERFACE = labelNames(CONTAINER_LABELS, "interface");
  private static final List<String> DEVICE = labelNames(CONTAINER_LABELS, "device");

  static final MetricFamilyDescriptor MACHINE_CPU_CORES = gauge("machine_cpu_cores", "Number of logical CPU cores.", List.of());
  static final MetricFamilyDescriptor MACHINE_MEMORY_BYTES =
      gauge("machine_memory_bytes", "Amount of memory installed on the machine.", List.of());
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
  static final MetricFamilyDescriptor RSS = gauge("container_memory_rss", "Size of RSS in bytes.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor RX_BYTES =
      counter("container_network_receive_bytes_total", "Cumulative count of bytes received", INTERFACE);
  static final MetricFamilyDescriptor TX_BYTES =
      counter("container_network_transmit_bytes_total", "Cumulative count of bytes transmitted", INTERFACE);
  static final MetricFamilyDescriptor RX_ERRORS =
      counter(
          "container_network_receive_errors_total", "Cumulative count of errors encountered while receiving", INTERFACE);
  static final MetricFamilyDescriptor TX_ERRORS =
      counter(
          "container_network_transmit_errors_total",
          "Cumulative count of errors encountered while transmitting",
          INTERFACE);
  static final MetricFamilyDescriptor RX_DROPPED =
      counter(
          "container_network_receive_packets_dropped_total",
          "Cumulative count of packets dropped while receiving",
          INTERFACE);
  static final MetricFamilyDescriptor TX_DROPPED =
      counter(
          "container_network_transmit_packets_dropped_total",
          "Cumulative count of packets dropped while transmitting",
          INTERFACE);
  static final MetricFamilyDescriptor RX_PACKETS =
      counter("container_network_receive_packets_total", "Cumulative count of packets received", INTERFACE);
  static final MetricFamilyDescriptor TX_PACKETS =
      counter("container_network_transmit_packets_total", "Cumulative count of packets transmitted", INTERFACE);
  static final MetricFamilyDescriptor PROCESSES =
      gauge("container_processes", "Number of processes running inside the container.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor START_TIME =
      gauge("container_start_time_seconds", "Start time of the container since unix epoch in seconds.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor LAST_SEEN =
      gauge("container_last_seen", "Last time a container was seen by the exporter", CONTAINER_LABELS);
  static final MetricFamilyDescriptor FS_USAGE =
      gauge(
          "container_fs_usage_bytes", "Number of bytes that are consumed by the container on this filesystem.", DEVICE);
  static final MetricFamilyDescriptor FS_LIMIT =
      gauge(
          "container_fs_limit_bytes",
          "Number of bytes that can be consumed by the container on this filesystem.",
          DEVICE);
  static final MetricFamilyDescriptor FS_INODES_FREE = gauge("container_fs_inodes_free", "Number of available Inodes", DEVICE);
  static final MetricFamilyDescriptor FS_INODES_TOTAL = gauge("container_fs_inodes_total", "Number of Inodes", DEVICE);
  static final MetricFamilyDescriptor SPEC_CPU_PERIOD =
      gauge("container_spec_cpu_period", "CPU period of the container.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor SPEC_CPU_QUOTA =
      gauge("container_spec_cpu_quota", "CPU quota of the container.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor SPEC_CPU_SHARES =
      gauge("container_spec_cpu_shares", "CPU share of the container.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor SPEC_MEMORY_LIMIT =
      gauge("container_spec_memory_limit_bytes", "Memory limit for the container.", CONTAINER_LABELS);
  // Windows nodes only (CgroupSeriesCollector declares them on Linux): cAdvisor's help, as there.
  static final MetricFamilyDescriptor CPU_USER =
      counter("container_cpu_user_seconds_total", "Cumulative user cpu time consumed in seconds.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor CPU_SYSTEM =
      counter(
          "container_cpu_system_seconds_total", "Cumulative system cpu time consumed in seconds.", CONTAINER_LABELS);
  /** A counter in cAdvisor whose name has no {@code _total}: a gauge here, as in {@link CgroupSeriesCollector}. */
  static final MetricFamilyDescriptor MEMORY_MAX_USAGE =
      gauge("container_memory_max_usage_bytes", "Maximum memory usage recorded in bytes", CONTAINER_LABELS);
  static final MetricFamilyDescriptor FS_READS_BYTES =
      counter("container_fs_reads_bytes_total", "Cumulative count of bytes read", DEVICE);
  static final MetricFamilyDescriptor FS_WRITES_BYTES =
      counter("container_fs_writes_bytes_total", "Cumulative count of bytes written", DEVICE);
  static final MetricFamilyDescriptor FS_READS =
      counter("container_fs_reads_total", "Cumulative count of reads completed", DEVICE);
  static final MetricFamilyDescriptor FS_WRITES =
      counter("container_fs_writes_total", "Cumulative count of writes completed", DEVICE);
  static final MetricFamilyDescriptor SCRAPE_ERROR =
      gauge("container_scrape_error", "1 if there was an error while getting container metrics, 0 otherwise", List.of());

  /** The families of a Linux node, in the order a full snapshot first serves them. */
  private static final List<MetricFamilyDescriptor> FAMILIES =
      List.of(
          MACHINE_CPU_CORES,
          MACHINE_MEMORY_BYTES,
          CPU_USAGE,
          WORKING_SET,
          USAGE,
          RX_BYTES,
          TX_BYTES,
          RX_ERRORS,
          TX_ERRORS,
          RX_DROPPED,
          TX_DROPPED,
          RX_PACKETS,
          TX_PACKETS,
          START_TIME,
          LAST_SEEN,
          RSS,
          FS_USAGE,
          FS_LIMIT,
          FS_INODES_FREE,
          FS_INODES_TOTAL,
          SPEC_CPU_PERIOD,
          SPEC_CPU_QUOTA,
          SPEC_CPU_SHARES,
          SPEC_MEMORY_LIMIT,
          SCRAPE_ERROR);

  private static final List<MetricFamilyDescriptor> WINDOWS_FAMILIES =
      Stream.concat(
              FAMILIES.stream(),
              Stream.of(
                  PROCESSES, CPU_USER, CPU_SYSTEM, MEMORY_MAX_USAGE, FS_READS_BYTES, FS_WRITES_BYTES, FS_READS,
                  FS_WRITES))
          .toList();
}
