package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.snapshots.Labels;
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
import io.winstats.cri.WritableLayerUsage;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.NetDevInterface;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.NodeInterfaces;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
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
 * <p>Snapshots are built once per published {@link Snapshot#version()} and reused by every scrape of that version.
 */
public final class CadvisorSeriesCollector extends PerVersionCollector {
  // Made once: Labels.add validates the new name on every call, merging two valid label sets does not.
  private static final Labels CPU_TOTAL = Labels.of("cpu", "total");

  private final boolean windowsNode;

  /**
   * @param windowsNode whether the node runs Windows: the root's interfaces are then every adapter, else those
   *     cAdvisor keeps on Linux ({@link NodeInterfaces})
   */
  public CadvisorSeriesCollector(Supplier<Snapshot> snapshots, boolean windowsNode) {
    super(snapshots);
    this.windowsNode = windowsNode;
  }

  @Override
  MetricSnapshots build(Snapshot snapshot) {
    return series(snapshot, windowsNode);
  }

  /** The series of {@code snapshot}, for golden tests and benchmarks. */
  static MetricSnapshots series(Snapshot snapshot, boolean windowsNode) {
    MetricFamilies f = new MetricFamilies();
    NodeSample node = snapshot.node();
    if (node != null) {
      addMachine(f, node);
      addRoot(f, node, windowsNode);
    }
    RuntimeSample runtime = snapshot.runtime();
    if (runtime != null) {
      // On Windows the pod's process count is the runtime's; on Linux CgroupSeriesCollector serves
      // container_processes from the pids cgroup. One family name must come from one collector, decided by the node
      // kind and never by the snapshot: the two collectors read the store one after the other, and a cgroup sample
      // published in between made both serve it (a duplicate that failed the whole /metrics render).
      CgroupSample cgroups = snapshot.cgroups();
      boolean processesFromRuntime = windowsNode;
      for (PodSample pod : runtime.pods()) {
        addPod(f, pod, runtime.timestamp(), processesFromRuntime);
        if (cgroups != null) {
          addPodNetDev(f, pod, cgroups);
        }
        for (ContainerSample container : pod.containers()) {
          addContainer(f, pod, container, runtime.timestamp());
        }
      }
    }
    f.gauge(
        "container_scrape_error",
        "1 if there was an error while getting container metrics, 0 otherwise",
        snapshot.runtimeFailing() ? 1 : 0,
        Labels.EMPTY,
        null);
    return f.build();
  }

  private static void addMachine(MetricFamilies f, NodeSample node) {
    if (node.cpu() != null) {
      f.gauge("machine_cpu_cores", "Number of logical CPU cores.", node.cpu().logicalCores(), Labels.EMPTY, null);
    }
    if (node.memory() != null) {
      f.gaugeIfPresent(
          "machine_memory_bytes", "Amount of memory installed on the machine.", node.memory().totalBytes(), Labels.EMPTY, null);
    }
  }

  private static void addRoot(MetricFamilies f, NodeSample node, boolean windowsNode) {
    Labels root = labels("", "/", "", "", "", "");
    Instant at = node.timestamp();
    if (node.cpu() != null) {
      cpu(f, root.merge(CPU_TOTAL), node.cpu().usageCoreNanos(), at);
    }
    if (node.memory() != null) {
      f.gaugeIfPresent(WORKING_SET, WORKING_SET_HELP, node.memory().workingSetBytes(), root, at);
      f.gaugeIfPresent(USAGE, USAGE_HELP, node.memory().usageBytes(), root, at);
    }
    for (NetworkInterfaceCounters nic : NodeInterfaces.of(node.interfaces(), windowsNode)) {
      Labels l = root.add("interface", nic.name());
      f.counter("container_network_receive_bytes_total", RX_BYTES_HELP, nic.rxBytes(), l, at);
      f.counter("container_network_transmit_bytes_total", TX_BYTES_HELP, nic.txBytes(), l, at);
      f.counter("container_network_receive_errors_total", RX_ERRORS_HELP, nic.rxErrors(), l, at);
      f.counter("container_network_transmit_errors_total", TX_ERRORS_HELP, nic.txErrors(), l, at);
      f.counter("container_network_receive_packets_dropped_total", RX_DROPPED_HELP, nic.rxDropped(), l, at);
      f.counter("container_network_transmit_packets_dropped_total", TX_DROPPED_HELP, nic.txDropped(), l, at);
      f.counter(RX_PACKETS, RX_PACKETS_HELP, nic.rxPackets(), l, at);
      f.counter(TX_PACKETS, TX_PACKETS_HELP, nic.txPackets(), l, at);
    }
    if (node.system() != null && node.system().bootTime() != null) {
      f.gauge(START_TIME, START_TIME_HELP, node.system().bootTime().getEpochSecond(), root, at);
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
        counterIfPresent(f, "container_network_receive_bytes_total", RX_BYTES_HELP, nic.rxBytes(), n, at);
        counterIfPresent(f, "container_network_transmit_bytes_total", TX_BYTES_HELP, nic.txBytes(), n, at);
        counterIfPresent(f, "container_network_receive_errors_total", RX_ERRORS_HELP, nic.rxErrors(), n, at);
        counterIfPresent(f, "container_network_transmit_errors_total", TX_ERRORS_HELP, nic.txErrors(), n, at);
        counterIfPresent(f, "container_network_receive_packets_dropped_total", RX_DROPPED_HELP, nic.rxPacketsDropped(), n, at);
        counterIfPresent(f, "container_network_transmit_packets_dropped_total", TX_DROPPED_HELP, nic.txPacketsDropped(), n, at);
      }
    }
    if (processesFromRuntime) {
      // containerd's Windows count: len(task.Pids) of the sandbox and its running containers (podSandboxStats in
      // internal/cri/server/sandbox_stats_windows.go); cAdvisor's is the pod cgroup's process count.
      f.gaugeIfPresent(
          "container_processes",
          "Number of processes running inside the container.",
          pod.processCount(),
          l,
          roundTime);
    }
    f.gauge(START_TIME, START_TIME_HELP, pod.createdAt().getEpochSecond(), l, roundTime);
    f.gauge(LAST_SEEN, LAST_SEEN_HELP, roundTime.getEpochSecond(), l, roundTime);
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
      f.counter(RX_PACKETS, RX_PACKETS_HELP, nic.rxPackets(), n, at);
      f.counter(TX_PACKETS, TX_PACKETS_HELP, nic.txPackets(), n, at);
      if (!criCountsDrops(pod.network(), nic.name())) {
        f.counter("container_network_receive_packets_dropped_total", RX_DROPPED_HELP, nic.rxDropped(), n, at);
        f.counter("container_network_transmit_packets_dropped_total", TX_DROPPED_HELP, nic.txDropped(), n, at);
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

  private static void addContainer(MetricFamilies f, PodSample pod, ContainerSample c, Instant roundTime) {
    Labels l =
        labels(c.name(), podCgroup(pod) + "/" + c.id(), c.image(), c.id(), pod.ref().namespace(), pod.ref().name());
    usage(f, l, c.cpu(), c.memory());
    WritableLayerUsage layer = c.writableLayer();
    if (layer != null) {
      Labels device = l.add("device", layer.mountpoint());
      f.gaugeIfPresent(
          "container_fs_usage_bytes",
          "Number of bytes that are consumed by the container on this filesystem.",
          layer.usedBytes(),
          device,
          layer.timestamp());
      FilesystemCapacity capacity = layer.capacity();
      if (capacity != null) {
        f.gauge(
            "container_fs_limit_bytes",
            "Number of bytes that can be consumed by the container on this filesystem.",
            capacity.capacityBytes(),
            device,
            layer.timestamp());
        // The filesystem's inodes, as cAdvisor labels them with the device; none on Windows (NTFS has no count).
        f.gaugeIfPresent(
            "container_fs_inodes_free", "Number of available Inodes", capacity.inodesFree(), device, layer.timestamp());
        f.gaugeIfPresent("container_fs_inodes_total", "Number of Inodes", capacity.inodes(), device, layer.timestamp());
      }
    }
    spec(f, l, c.resources(), roundTime);
    f.gauge(START_TIME, START_TIME_HELP, c.createdAt().getEpochSecond(), l, roundTime);
    f.gauge(LAST_SEEN, LAST_SEEN_HELP, roundTime.getEpochSecond(), l, roundTime);
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
    f.gaugeIfPresent("container_spec_cpu_period", "CPU period of the container.", spec.cpuPeriodMicros(), l, at);
    f.gaugeIfPresent("container_spec_cpu_quota", "CPU quota of the container.", spec.cpuQuotaMicros(), l, at);
    f.gaugeIfPresent("container_spec_cpu_shares", "CPU share of the container.", spec.cpuShares(), l, at);
    f.gauge(
        "container_spec_memory_limit_bytes",
        "Memory limit for the container.",
        spec.memoryLimitBytes() == null ? 0 : spec.memoryLimitBytes(),
        l,
        at);
  }

  private static void usage(MetricFamilies f, Labels l, @Nullable CpuUsage cpu, @Nullable MemoryUsage memory) {
    if (cpu != null) {
      cpu(f, l.merge(CPU_TOTAL), cpu.usageCoreNanos(), cpu.timestamp());
    }
    if (memory != null) {
      f.gaugeIfPresent(WORKING_SET, WORKING_SET_HELP, memory.workingSetBytes(), l, memory.timestamp());
      f.gaugeIfPresent(USAGE, USAGE_HELP, memory.usageBytes(), l, memory.timestamp());
      f.gaugeIfPresent(
          "container_memory_rss", "Size of RSS in bytes.", memory.rssBytes(), l, memory.timestamp());
    }
  }

  private static void cpu(MetricFamilies f, Labels l, long usageCoreNanos, Instant at) {
    f.counter(
        "container_cpu_usage_seconds_total",
        "Cumulative cpu time consumed in seconds.",
        usageCoreNanos / 1e9,
        l,
        at);
  }

  private static void counterIfPresent(
      MetricFamilies f, String name, String help, @Nullable Long value, Labels l, Instant at) {
    if (value != null) {
      f.counter(name, help, value, l, at);
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

  private static final String WORKING_SET = "container_memory_working_set_bytes";
  private static final String WORKING_SET_HELP = "Current working set in bytes.";
  private static final String USAGE = "container_memory_usage_bytes";
  private static final String USAGE_HELP = "Current memory usage in bytes, including all memory regardless of when it was accessed";
  private static final String START_TIME = "container_start_time_seconds";
  private static final String START_TIME_HELP = "Start time of the container since unix epoch in seconds.";
  private static final String LAST_SEEN = "container_last_seen";
  private static final String LAST_SEEN_HELP = "Last time a container was seen by the exporter";
  private static final String RX_PACKETS = "container_network_receive_packets_total";
  private static final String RX_PACKETS_HELP = "Cumulative count of packets received";
  private static final String TX_PACKETS = "container_network_transmit_packets_total";
  private static final String TX_PACKETS_HELP = "Cumulative count of packets transmitted";
  private static final String RX_BYTES_HELP = "Cumulative count of bytes received";
  private static final String TX_BYTES_HELP = "Cumulative count of bytes transmitted";
  private static final String RX_ERRORS_HELP = "Cumulative count of errors encountered while receiving";
  private static final String TX_ERRORS_HELP = "Cumulative count of errors encountered while transmitting";
  private static final String RX_DROPPED_HELP = "Cumulative count of packets dropped while receiving";
  private static final String TX_DROPPED_HELP = "Cumulative count of packets dropped while transmitting";
}
