package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.gauge;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.RunningContainers;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The kubelet's {@code /metrics/resource} series — what metrics-server reads — with the kubelet's names, types, labels
 * and help texts, each point carrying its sample's own timestamp. A value the sources lack is left out, as the
 * kubelet skips nil pointers.
 */
public final class ResourceMetrics {
  private static final List<String> NODE = List.of();
  private static final List<String> POD = List.of("namespace", "pod");
  private static final List<String> CONTAINER = List.of("namespace", "pod", "container");

  static final SeriesTable<NodeCpu> NODE_CPU =
      SeriesTable.<NodeCpu>labelled(NODE)
          .counter(
              "node_cpu_usage_seconds_total",
              "[STABLE] Cumulative cpu time consumed by the node in core-seconds",
              c -> c.usageCoreNanos() / 1e9)
          .build();

  // The kubelet skips a series whose pointer is nil; a replayed log may lack the working set.
  static final SeriesTable<NodeMemory> NODE_MEMORY =
      SeriesTable.<NodeMemory>labelled(NODE)
          .gauge(
              "node_memory_working_set_bytes",
              "[STABLE] Current working set of the node in bytes",
              NodeMemory::workingSetBytes)
          // Memory usage as kubernetes#141651 (open) proposes to serve it, ALPHA: the Summary's usageBytes, which on
          // Windows is commit, what Windows enforces container limits on; the working set alone under-reports
          // (kubernetes#112111).
          .gauge("node_memory_usage_bytes", "[ALPHA] Current memory usage of the node in bytes", NodeMemory::usageBytes)
          .gauge(
              "node_swap_usage_bytes",
              "[ALPHA] Current swap usage of the node in bytes. Reported only on non-windows systems",
              m -> m.swapTotalBytes() == null || m.swapFreeBytes() == null
                  ? null
                  : Math.max(0, m.swapTotalBytes() - m.swapFreeBytes()))
          .build();

  static final SeriesTable<CpuUsage> CONTAINER_CPU =
      SeriesTable.<CpuUsage>labelled(CONTAINER)
          .counter(
              "container_cpu_usage_seconds_total",
              "[STABLE] Cumulative cpu time consumed by the container in core-seconds",
              c -> c.usageCoreNanos() / 1e9)
          .build();

  static final SeriesTable<MemoryUsage> CONTAINER_MEMORY =
      SeriesTable.<MemoryUsage>labelled(CONTAINER)
          .gauge(
              "container_memory_working_set_bytes",
              "[STABLE] Current working set of the container in bytes",
              MemoryUsage::workingSetBytes)
          .gauge(
              "container_memory_usage_bytes",
              "[ALPHA] Current memory usage of the container in bytes",
              ResourceMetrics::usage)
          .build();

  // As the kubelet's collectContainerStartTime: skipped before the epoch, to the nanosecond, and without a sample
  // timestamp (a start time is not a reading of the moment).
  static final SeriesTable<ContainerSample> CONTAINER_START =
      SeriesTable.<ContainerSample>labelled(CONTAINER)
          .gauge(
              "container_start_time_seconds",
              "[STABLE] Start time of the container since unix epoch in seconds",
              ResourceMetrics::startSeconds)
          .build();

  static final SeriesTable<CpuUsage> POD_CPU =
      SeriesTable.<CpuUsage>labelled(POD)
          .counter(
              "pod_cpu_usage_seconds_total",
              "[STABLE] Cumulative cpu time consumed by the pod in core-seconds",
              c -> c.usageCoreNanos() / 1e9)
          .build();

  static final SeriesTable<MemoryUsage> POD_MEMORY =
      SeriesTable.<MemoryUsage>labelled(POD)
          .gauge(
              "pod_memory_working_set_bytes",
              "[STABLE] Current working set of the pod in bytes",
              MemoryUsage::workingSetBytes)
          .build();

  static final SeriesTable<PodSample> POD_USAGE =
      SeriesTable.<PodSample>labelled(POD)
          .write(
              gauge("pod_memory_usage_bytes", "[ALPHA] Current memory usage of the pod in bytes", POD),
              (f, family, pod, labels, at) -> podUsage(f, family, pod, labels))
          .build();

  // scrape_error was deprecated in 1.29.0; component-base hides a deprecated metric from the next minor release, so a
  // kubelet >= 1.30 serves only resource_scrape_error.
  static final SeriesTable<Snapshot> SCRAPE_ERROR =
      SeriesTable.<Snapshot>labelled(NODE)
          .gauge(
              "resource_scrape_error",
              "[STABLE] 1 if there was an error while getting container metrics, 0 otherwise",
              s -> s.runtimeFailing() ? 1 : 0)
          .build();

  /** Every family, in the order a full snapshot first serves them. */
  static final List<MetricFamilyDescriptor> FAMILIES =
      SeriesTable.families(
          NODE_CPU,
          NODE_MEMORY,
          CONTAINER_CPU,
          CONTAINER_MEMORY,
          CONTAINER_START,
          POD_CPU,
          POD_MEMORY,
          POD_USAGE,
          SCRAPE_ERROR);

  private static final String NOT_RESOURCE = "not a /metrics/resource series";

  /**
   * Figures of the snapshot this collector does not serve, each with the reason: {@code ServedFiguresTest} fails on a
   * figure that is neither served nor here. {@code Record.*} stands for every figure of a record that is not served
   * (the node's memory, which the node collectors serve in full), so a new one needs no entry.
   */
  static final Map<String, String> UNSERVED =
      Map.ofEntries(
          Map.entry("Snapshot.version", "the store's count, not a figure"),
          Map.entry("Snapshot.previousNode", "the sample before, for /stats/summary's rates"),
          Map.entry("Snapshot.cgroups", "cgroup figures: cAdvisor's series (CgroupSeriesCollector)"),
          Map.entry("NodeSample.monotonicNanos", "the sampling clock, for rates"),
          Map.entry("NodeSample.kubeletRootFs", "the kubelet's root filesystem: /stats/summary's nodefs"),
          Map.entry("NodeSample.windowsOs", "Windows' release and DNS names: windows_exporter's os series"),
          Map.entry("NodeSample.interfaces", NOT_RESOURCE),
          Map.entry("NodeSample.filesystems", NOT_RESOURCE),
          Map.entry("NodeSample.disks", NOT_RESOURCE),
          Map.entry("NodeSample.system", NOT_RESOURCE),
          Map.entry("NodeCpu.logicalCores", NOT_RESOURCE),
          Map.entry("NodeCpu.cores", "per-core times: the node's total is served"),
          Map.entry("NodeMemory.*", "the kubelet serves the node's working set, usage and swap only"),
          Map.entry("RuntimeSample.timestamp", "each point carries its own figures' time"),
          Map.entry("RuntimeSample.filesystems", "the runtime's image filesystem: /stats/summary's runtime"),
          Map.entry("PodSample.createdAt", "the kubelet serves the containers' start times only"),
          Map.entry("PodSample.hostProcess", NOT_RESOURCE),
          Map.entry("PodSample.network", NOT_RESOURCE),
          Map.entry("PodSample.processCount", NOT_RESOURCE),
          Map.entry("ContainerSample.attempt", NOT_RESOURCE),
          Map.entry("ContainerSample.writableLayer", NOT_RESOURCE),
          Map.entry("ContainerSample.logs", NOT_RESOURCE),
          Map.entry("ContainerSample.resources", NOT_RESOURCE),
          Map.entry("ContainerSample.storage", NOT_RESOURCE),
          Map.entry("CpuUsage.usageNanoCores", "a rate: the kubelet serves the cumulative time"),
          Map.entry("CpuUsage.userNanos", NOT_RESOURCE),
          Map.entry("CpuUsage.kernelNanos", NOT_RESOURCE),
          Map.entry("MemoryUsage.availableBytes", NOT_RESOURCE),
          Map.entry("MemoryUsage.rssBytes", NOT_RESOURCE),
          Map.entry("MemoryUsage.pageFaults", NOT_RESOURCE),
          Map.entry("MemoryUsage.majorPageFaults", NOT_RESOURCE),
          Map.entry("MemoryUsage.commitBytes", "served only where the runtime gives no usageBytes (usage)"),
          Map.entry("MemoryUsage.commitPeakBytes", NOT_RESOURCE));



  private ResourceMetrics() {}

  /** The series of one snapshot. */
  public static MetricSnapshots build(Snapshot snapshot) {
    FamiliesBuilder f = new FamiliesBuilder();
    NodeSample node = snapshot.node();
    if (node != null) {
      if (node.cpu() != null) {
        NODE_CPU.add(f, node.cpu(), Labels.EMPTY, node.timestamp());
      }
      if (node.memory() != null) {
        NODE_MEMORY.add(f, node.memory(), Labels.EMPTY, node.timestamp());
      }
    }
    RuntimeSample runtime = snapshot.runtime();
    if (runtime != null) {
      for (PodSample pod : runtime.pods()) {
        Labels podLabels = Labels.of("namespace", pod.ref().namespace(), "pod", pod.ref().name());
        for (ContainerSample c : RunningContainers.of(pod)) {
          Labels l = podLabels.add("container", c.name());
          if (c.cpu() != null) {
            CONTAINER_CPU.add(f, c.cpu(), l, c.cpu().timestamp());
          }
          if (c.memory() != null) {
            CONTAINER_MEMORY.add(f, c.memory(), l, c.memory().timestamp());
          }
          CONTAINER_START.add(f, c, l, null);
        }
        if (pod.cpu() != null) {
          POD_CPU.add(f, pod.cpu(), podLabels, pod.cpu().timestamp());
        }
        if (pod.memory() != null) {
          POD_MEMORY.add(f, pod.memory(), podLabels, pod.memory().timestamp());
        }
        POD_USAGE.add(f, pod, podLabels, null);
      }
    }
    SCRAPE_ERROR.add(f, snapshot, Labels.EMPTY, null);
    return f.build();
  }

  /**
   * A container's usage: {@code usageBytes} (the cgroup's usage on Linux; on Windows the commit, as containerd fills
   * {@code usage_bytes} from HCS commit in {@code ListContainerStats}), else the Windows {@code commit_memory_bytes}
   * of {@code ListPodSandboxStats} (containerd 2.0+).
   */
  static @Nullable Long usage(MemoryUsage memory) {
    return memory.usageBytes() != null ? memory.usageBytes() : memory.commitBytes();
  }

  private static @Nullable Double startSeconds(ContainerSample c) {
    Instant createdAt = c.createdAt();
    return createdAt.getEpochSecond() > 0 ? createdAt.getEpochSecond() + createdAt.getNano() / 1e9 : null;
  }

  /**
   * The pod's usage as the runtime reports it, else the sum over its running containers: containerd's Windows pod
   * total leaves out the containers' commit ({@code appendMemoryPodStats}), and the kubelet sums containers where the
   * pod has none ({@code addPodCPUMemoryStats}). Each point carries its own figures' time.
   */
  private static void podUsage(FamiliesBuilder f, MetricFamilyDescriptor family, PodSample pod, Labels labels) {
    MemoryUsage own = pod.memory();
    if (own != null && own.usageBytes() != null) {
      f.add(family, own.usageBytes(), labels, own.timestamp());
      return;
    }
    long sum = 0;
    Instant latest = null;
    for (ContainerSample c : RunningContainers.of(pod)) {
      MemoryUsage memory = c.memory();
      if (memory == null) {
        continue;
      }
      Long u = usage(memory);
      if (u != null) {
        sum = Math.addExact(sum, u);
        latest = latest == null || memory.timestamp().isAfter(latest) ? memory.timestamp() : latest;
      }
    }
    if (latest != null) {
      f.add(family, sum, labels, latest);
    }
  }
}
