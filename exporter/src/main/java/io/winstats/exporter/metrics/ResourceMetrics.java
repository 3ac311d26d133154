package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.MetricFamilies.counter;
import static io.winstats.exporter.metrics.MetricFamilies.gauge;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.RunningContainers;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The kubelet's {@code /metrics/resource} series — what metrics-server reads — with the kubelet's names, types, labels
 * and help texts, each point carrying its sample's own timestamp. A value the sources lack is left out, as the
 * kubelet skips nil pointers.
 */
public final class ResourceMetrics {
  private static final List<String> POD = List.of("namespace", "pod");
  private static final List<String> CONTAINER = List.of("namespace", "pod", "container");

  static final MetricFamilyDescriptor NODE_CPU =
      counter(
          "node_cpu_usage_seconds_total", "[STABLE] Cumulative cpu time consumed by the node in core-seconds", List.of());
  static final MetricFamilyDescriptor NODE_WORKING_SET =
      gauge("node_memory_working_set_bytes", "[STABLE] Current working set of the node in bytes", List.of());
  // Memory usage as kubernetes#141651 (open) proposes to serve it, ALPHA: the Summary's usageBytes, which on Windows is
  // commit, what Windows enforces container limits on; the working set alone under-reports (kubernetes#112111).
  static final MetricFamilyDescriptor NODE_USAGE =
      gauge("node_memory_usage_bytes", "[ALPHA] Current memory usage of the node in bytes", List.of());
  static final MetricFamilyDescriptor NODE_SWAP =
      gauge(
          "node_swap_usage_bytes",
          "[ALPHA] Current swap usage of the node in bytes. Reported only on non-windows systems",
          List.of());
  static final MetricFamilyDescriptor CONTAINER_CPU =
      counter(
          "container_cpu_usage_seconds_total",
          "[STABLE] Cumulative cpu time consumed by the container in core-seconds",
          CONTAINER);
  static final MetricFamilyDescriptor CONTAINER_WORKING_SET =
      gauge("container_memory_working_set_bytes", "[STABLE] Current working set of the container in bytes", CONTAINER);
  static final MetricFamilyDescriptor CONTAINER_USAGE =
      gauge("container_memory_usage_bytes", "[ALPHA] Current memory usage of the container in bytes", CONTAINER);
  static final MetricFamilyDescriptor CONTAINER_START_TIME =
      gauge(
          "container_start_time_seconds", "[STABLE] Start time of the container since unix epoch in seconds", CONTAINER);
  static final MetricFamilyDescriptor POD_CPU =
      counter("pod_cpu_usage_seconds_total", "[STABLE] Cumulative cpu time consumed by the pod in core-seconds", POD);
  static final MetricFamilyDescriptor POD_WORKING_SET =
      gauge("pod_memory_working_set_bytes", "[STABLE] Current working set of the pod in bytes", POD);
  static final MetricFamilyDescriptor POD_USAGE =
      gauge("pod_memory_usage_bytes", "[ALPHA] Current memory usage of the pod in bytes", POD);
  static final MetricFamilyDescriptor SCRAPE_ERROR =
      gauge(
          "resource_scrape_error",
          "[STABLE] 1 if there was an error while getting container metrics, 0 otherwise",
          List.of());

  /** Every family, in the order a full snapshot first serves them. */
  static final List<MetricFamilyDescriptor> FAMILIES =
      List.of(
          NODE_CPU,
          NODE_WORKING_SET,
          NODE_USAGE,
          NODE_SWAP,
          CONTAINER_CPU,
          CONTAINER_WORKING_SET,
          CONTAINER_USAGE,
          CONTAINER_START_TIME,
          POD_CPU,
          POD_WORKING_SET,
          POD_USAGE,
          SCRAPE_ERROR);

  private ResourceMetrics() {}

  /** The series of one snapshot. */
  public static MetricSnapshots build(Snapshot snapshot) {
    MetricFamilies f = new MetricFamilies();
    NodeSample node = snapshot.node();
    if (node != null) {
      if (node.cpu() != null) {
        f.add(NODE_CPU, node.cpu().usageCoreNanos() / 1e9, Labels.EMPTY, node.timestamp());
      }
      NodeMemory memory = node.memory();
      if (memory != null) {
        // The kubelet skips a series whose pointer is nil; a replayed log may lack the working set.
        f.addIfPresent(NODE_WORKING_SET, memory.workingSetBytes(), Labels.EMPTY, node.timestamp());
        f.addIfPresent(NODE_USAGE, memory.usageBytes(), Labels.EMPTY, node.timestamp());
        if (memory.swapTotalBytes() != null && memory.swapFreeBytes() != null) {
          f.add(NODE_SWAP, Math.max(0, memory.swapTotalBytes() - memory.swapFreeBytes()), Labels.EMPTY, node.timestamp());
        }
      }
    }
    RuntimeSample runtime = snapshot.runtime();
    if (runtime != null) {
      for (PodSample pod : runtime.pods()) {
        Labels podLabels = Labels.of("namespace", pod.ref().namespace(), "pod", pod.ref().name());
        for (ContainerSample c : RunningContainers.of(pod)) {
          Labels l = podLabels.add("container", c.name());
          if (c.cpu() != null) {
            f.add(CONTAINER_CPU, c.cpu().usageCoreNanos() / 1e9, l, c.cpu().timestamp());
          }
          if (c.memory() != null) {
            f.addIfPresent(CONTAINER_WORKING_SET, c.memory().workingSetBytes(), l, c.memory().timestamp());
            f.addIfPresent(CONTAINER_USAGE, usage(c.memory()), l, c.memory().timestamp());
          }
          // As the kubelet's collectContainerStartTime: skipped before the epoch, to the nanosecond, and without a
          // sample timestamp (a start time is not a reading of the moment).
          Instant createdAt = c.createdAt();
          if (createdAt.getEpochSecond() > 0) {
            f.add(CONTAINER_START_TIME, createdAt.getEpochSecond() + createdAt.getNano() / 1e9, l, null);
          }
        }
        if (pod.cpu() != null) {
          f.add(POD_CPU, pod.cpu().usageCoreNanos() / 1e9, podLabels, pod.cpu().timestamp());
        }
        if (pod.memory() != null) {
          f.addIfPresent(POD_WORKING_SET, pod.memory().workingSetBytes(), podLabels, pod.memory().timestamp());
        }
        podUsage(f, pod, podLabels);
      }
    }
    // scrape_error was deprecated in 1.29.0; component-base hides a deprecated metric from the next minor release,
    // so a kubelet >= 1.30 serves only resource_scrape_error.
    int error = snapshot.runtimeFailing() ? 1 : 0;
    f.add(SCRAPE_ERROR, error, Labels.EMPTY, null);
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

  /**
   * The pod's usage as the runtime reports it, else the sum over its running containers: containerd's Windows pod
   * total leaves out the containers' commit ({@code appendMemoryPodStats}), and the kubelet sums containers where the
   * pod has none ({@code addPodCPUMemoryStats}).
   */
  private static void podUsage(MetricFamilies f, PodSample pod, Labels labels) {
    MemoryUsage own = pod.memory();
    if (own != null && own.usageBytes() != null) {
      f.add(POD_USAGE, own.usageBytes(), labels, own.timestamp());
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
      f.add(POD_USAGE, sum, labels, latest);
    }
  }
}
