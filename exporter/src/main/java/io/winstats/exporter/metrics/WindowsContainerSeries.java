package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.MetricFamilies.counter;
import static io.winstats.exporter.metrics.MetricFamilies.gauge;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.StorageIo;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.summary.RunningContainers;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The container series of windows_exporter's {@code container} collector (0.31, {@code
 * internal/collector/container/container.go}) that CRI stats can fill, for a Windows node: what kubernetes-mixin's
 * {@code windows.pod.rules} query. Labels are 0.31's: {@code container_id="containerd://<id>"}, {@code namespace},
 * {@code pod}, {@code container}, and {@code interface} on network series: the HNS endpoint id, which containerd
 * passes on as the interface name, upper-cased as 0.31 writes it ({@code strings.ToUpper(endpoint.ID)}), so that a
 * query joining on it matches either exporter. As in windows_exporter, every container of a pod carries the pod's
 * network endpoint counters (an HNS endpoint is shared by the pod's containers), and no point has a timestamp.
 *
 * <p>{@code windows_container_available} carries 0.31's {@code hostprocess} label: {@code "true"} for a HostProcess
 * container (0.31 reads those through their job object and labels them {@code "true"}, HCS containers {@code "false"};
 * it picks the job containers by their spec's {@code microsoft.com/hostprocess-container} annotation, which containerd
 * sets from the pod's flag), from the pod's flag as the runtime's verbose {@code PodSandboxStatus} gives it ({@link
 * PodSample#hostProcess()}). Where the runtime did not say, the label is left out and the series still served.
 *
 * <p>The kernel/user CPU split, the commit peak, the storage counters and the packet counts come from containerd's
 * task metrics and HNS ({@code --cri.windows-stats=tasks}, the Windows default); with CRI stats they are left out, as
 * CRI lacks them. 0.31 serves {@code cpu_usage_seconds_kernelmode} and {@code _usermode} as counters without a {@code
 * _total} suffix (container.go:217-228@v0.31.8), which client_java 1.x would append to a counter: they are served as
 * gauges under 0.31's exact names, as {@code container_memory_max_usage_bytes} is beside the cgroup series.
 */
public final class WindowsContainerSeries extends PerVersionCollector {
  public WindowsContainerSeries(Supplier<Snapshot> snapshots) {
    super(snapshots);
  }

  @Override
  public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
    return FAMILIES;
  }

  @Override
  MetricSnapshots build(Snapshot snapshot) {
    return build(snapshot.runtime());
  }

  static MetricSnapshots build(@Nullable RuntimeSample runtime) {
    MetricFamilies f = new MetricFamilies();
    if (runtime == null) {
      return f.build();
    }
    Instant noTimestamp = null;
    for (PodSample pod : runtime.pods()) {
      for (ContainerSample c : RunningContainers.of(pod)) {
        Labels l =
            Labels.of(
                "container", c.name(),
                "container_id", "containerd://" + c.id(),
                "namespace", pod.ref().namespace(),
                "pod", pod.ref().name());
        Boolean hostProcess = pod.hostProcess();
        f.add(AVAILABLE, 1, hostProcess == null ? l : l.add("hostprocess", hostProcess.toString()), noTimestamp);
        if (c.cpu() != null) {
          f.add(CPU_USAGE_SECONDS_TOTAL, c.cpu().usageCoreNanos() / 1e9, l, noTimestamp);
          if (c.cpu().kernelNanos() != null) {
            f.add(CPU_USAGE_SECONDS_KERNELMODE, c.cpu().kernelNanos() / 1e9, l, noTimestamp);
          }
          if (c.cpu().userNanos() != null) {
            f.add(CPU_USAGE_SECONDS_USERMODE, c.cpu().userNanos() / 1e9, l, noTimestamp);
          }
        }
        MemoryUsage m = c.memory();
        if (m != null) {
          f.addIfPresent(MEMORY_USAGE_COMMIT_BYTES, ResourceMetrics.usage(m), l, noTimestamp);
          f.addIfPresent(MEMORY_USAGE_COMMIT_PEAK_BYTES, m.commitPeakBytes(), l, noTimestamp);
          f.addIfPresent(MEMORY_USAGE_PRIVATE_WORKING_SET_BYTES, m.workingSetBytes(), l, noTimestamp);
        }
        StorageIo io = c.storage();
        if (io != null) {
          f.add(STORAGE_READ_COUNT_NORMALIZED_TOTAL, io.readCount(), l, noTimestamp);
          f.add(STORAGE_READ_SIZE_BYTES_TOTAL, io.readBytes(), l, noTimestamp);
          f.add(STORAGE_WRITE_COUNT_NORMALIZED_TOTAL, io.writeCount(), l, noTimestamp);
          f.add(STORAGE_WRITE_SIZE_BYTES_TOTAL, io.writeBytes(), l, noTimestamp);
        }
        NetworkUsage network = pod.network();
        if (network != null) {
          for (InterfaceUsage nic : network.interfaces()) {
            Labels n = l.add("interface", nic.name().toUpperCase(Locale.ROOT));
            f.addIfPresent(NETWORK_RECEIVE_BYTES_TOTAL, nic.rxBytes(), n, noTimestamp);
            f.addIfPresent(NETWORK_TRANSMIT_BYTES_TOTAL, nic.txBytes(), n, noTimestamp);
            f.addIfPresent(NETWORK_RECEIVE_PACKETS_TOTAL, nic.rxPackets(), n, noTimestamp);
            f.addIfPresent(NETWORK_TRANSMIT_PACKETS_TOTAL, nic.txPackets(), n, noTimestamp);
            f.addIfPresent(NETWORK_RECEIVE_PACKETS_DROPPED_TOTAL, nic.rxPacketsDropped(), n, noTimestamp);
            f.addIfPresent(NETWORK_TRANSMIT_PACKETS_DROPPED_TOTAL, nic.txPacketsDropped(), n, noTimestamp);
          }
        }
      }
    }
    return f.build();
  }

  private static final List<String> CONTAINER = List.of("container", "container_id", "namespace", "pod");
  private static final List<String> INTERFACE = MetricFamilies.labelNames(CONTAINER, "interface");

  /** Its {@code hostprocess} label is left out of a container whose pod's kind the runtime did not say. */
  static final MetricFamilyDescriptor AVAILABLE =
      gauge("windows_container_available", "Available", MetricFamilies.labelNames(CONTAINER, "hostprocess"));
  static final MetricFamilyDescriptor CPU_USAGE_SECONDS_TOTAL =
      counter("windows_container_cpu_usage_seconds_total", "Total Run time in Seconds", CONTAINER);
  static final MetricFamilyDescriptor CPU_USAGE_SECONDS_USERMODE =
      gauge("windows_container_cpu_usage_seconds_usermode", "Run Time in User mode in Seconds", CONTAINER);
  static final MetricFamilyDescriptor CPU_USAGE_SECONDS_KERNELMODE =
      gauge("windows_container_cpu_usage_seconds_kernelmode", "Run time in Kernel mode in Seconds", CONTAINER);
  static final MetricFamilyDescriptor MEMORY_USAGE_COMMIT_BYTES =
      gauge("windows_container_memory_usage_commit_bytes", "Memory Usage Commit Bytes", CONTAINER);
  static final MetricFamilyDescriptor MEMORY_USAGE_COMMIT_PEAK_BYTES =
      gauge("windows_container_memory_usage_commit_peak_bytes", "Memory Usage Commit Peak Bytes", CONTAINER);
  static final MetricFamilyDescriptor STORAGE_READ_COUNT_NORMALIZED_TOTAL =
      counter("windows_container_storage_read_count_normalized_total", "Read Count Normalized", CONTAINER);
  static final MetricFamilyDescriptor STORAGE_READ_SIZE_BYTES_TOTAL =
      counter("windows_container_storage_read_size_bytes_total", "Read Size Bytes", CONTAINER);
  static final MetricFamilyDescriptor STORAGE_WRITE_COUNT_NORMALIZED_TOTAL =
      counter("windows_container_storage_write_count_normalized_total", "Write Count Normalized", CONTAINER);
  static final MetricFamilyDescriptor STORAGE_WRITE_SIZE_BYTES_TOTAL =
      counter("windows_container_storage_write_size_bytes_total", "Write Size Bytes", CONTAINER);
  static final MetricFamilyDescriptor NETWORK_RECEIVE_PACKETS_TOTAL =
      counter("windows_container_network_receive_packets_total", "Packets Received on Interface", INTERFACE);
  static final MetricFamilyDescriptor NETWORK_TRANSMIT_PACKETS_TOTAL =
      counter("windows_container_network_transmit_packets_total", "Packets Sent on Interface", INTERFACE);
  static final MetricFamilyDescriptor MEMORY_USAGE_PRIVATE_WORKING_SET_BYTES =
      gauge(
          "windows_container_memory_usage_private_working_set_bytes",
          "Memory Usage Private Working Set Bytes",
          CONTAINER);
  static final MetricFamilyDescriptor NETWORK_RECEIVE_BYTES_TOTAL =
      counter("windows_container_network_receive_bytes_total", "Bytes Received on Interface", INTERFACE);
  static final MetricFamilyDescriptor NETWORK_TRANSMIT_BYTES_TOTAL =
      counter("windows_container_network_transmit_bytes_total", "Bytes Sent on Interface", INTERFACE);
  static final MetricFamilyDescriptor NETWORK_RECEIVE_PACKETS_DROPPED_TOTAL =
      counter(
          "windows_container_network_receive_packets_dropped_total", "Dropped Incoming Packets on Interface", INTERFACE);
  static final MetricFamilyDescriptor NETWORK_TRANSMIT_PACKETS_DROPPED_TOTAL =
      counter(
          "windows_container_network_transmit_packets_dropped_total", "Dropped Outgoing Packets on Interface", INTERFACE);

  /** Every family, in the order a full round first serves them. */
  static final List<MetricFamilyDescriptor> FAMILIES =
      List.of(
          AVAILABLE,
          CPU_USAGE_SECONDS_TOTAL,
          CPU_USAGE_SECONDS_KERNELMODE,
          CPU_USAGE_SECONDS_USERMODE,
          MEMORY_USAGE_COMMIT_BYTES,
          MEMORY_USAGE_COMMIT_PEAK_BYTES,
          MEMORY_USAGE_PRIVATE_WORKING_SET_BYTES,
          STORAGE_READ_COUNT_NORMALIZED_TOTAL,
          STORAGE_READ_SIZE_BYTES_TOTAL,
          STORAGE_WRITE_COUNT_NORMALIZED_TOTAL,
          STORAGE_WRITE_SIZE_BYTES_TOTAL,
          NETWORK_RECEIVE_BYTES_TOTAL,
          NETWORK_TRANSMIT_BYTES_TOTAL,
          NETWORK_RECEIVE_PACKETS_TOTAL,
          NETWORK_TRANSMIT_PACKETS_TOTAL,
          NETWORK_RECEIVE_PACKETS_DROPPED_TOTAL,
          NETWORK_TRANSMIT_PACKETS_DROPPED_TOTAL);
}
