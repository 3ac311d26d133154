package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.gauge;
import static io.winstats.exporter.metrics.FamiliesBuilder.labelNames;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
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
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
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
    FamiliesBuilder f = new FamiliesBuilder();
    if (runtime == null) {
      return f.build();
    }
    Instant noTimestamp = null;
    long hcsContainers = 0;
    for (PodSample pod : runtime.pods()) {
      List<ContainerSample> running = RunningContainers.of(pod);
      if (!Boolean.TRUE.equals(pod.hostProcess())) {
        hcsContainers += 1 + running.size();
      }
      for (ContainerSample c : running) {
        Labels l =
            Labels.of(
                "container", c.name(),
                "container_id", "containerd://" + c.id(),
                "namespace", pod.ref().namespace(),
                "pod", pod.ref().name());
        POD.add(f, pod, l, noTimestamp);
        if (c.cpu() != null) {
          CPU.add(f, c.cpu(), l, noTimestamp);
        }
        if (c.memory() != null) {
          MEMORY.add(f, c.memory(), l, noTimestamp);
        }
        if (c.storage() != null) {
          STORAGE.add(f, c.storage(), l, noTimestamp);
        }
        NetworkUsage network = pod.network();
        if (network != null) {
          for (InterfaceUsage nic : network.interfaces()) {
            NETWORK.add(f, nic, l.add("interface", nic.name().toUpperCase(Locale.ROOT)), noTimestamp);
          }
        }
      }
    }
    f.add(COUNT, hcsContainers, Labels.EMPTY, noTimestamp);
    return f.build();
  }

  /**
   * 0.31's count of the compute systems HCS lists as containers ({@code {"Types":["Container"]}}, hcs.go:30-34@v0.31.8)
   * in state {@code Running} (container.go:319-393@v0.31.8): a pod's sandbox (its pause container is one) and its
   * running containers. HostProcess containers are job objects, not HCS compute systems, so 0.31 leaves them out of
   * the count (collectJobContainers emits none; windows_exporter issue 964). Served with 0 when no pod runs, as 0.31
   * does (container.go:320-324@v0.31.8); not served when the round has no runtime sample, as 0.31 serves nothing when
   * HCS does not answer.
   */
  static final MetricFamilyDescriptor COUNT = gauge("windows_container_count", "Number of containers", List.of());

  private static final List<String> CONTAINER = List.of("container", "container_id", "namespace", "pod");

  /** Its {@code hostprocess} label is left out of a container whose pod's kind the runtime did not say. */
  static final SeriesTable<PodSample> POD =
      SeriesTable.<PodSample>labelled(CONTAINER)
          .write(
              gauge("windows_container_available", "Available", labelNames(CONTAINER, "hostprocess")),
              (f, family, pod, l, at) -> {
                Boolean hostProcess = pod.hostProcess();
                f.add(family, 1, hostProcess == null ? l : l.add("hostprocess", hostProcess.toString()), at);
              })
          .build();

  static final SeriesTable<CpuUsage> CPU =
      SeriesTable.<CpuUsage>labelled(CONTAINER)
          .counter(
              "windows_container_cpu_usage_seconds_total", "Total Run time in Seconds", c -> c.usageCoreNanos() / 1e9)
          .gauge(
              "windows_container_cpu_usage_seconds_kernelmode",
              "Run time in Kernel mode in Seconds",
              c -> seconds(c.kernelNanos()))
          .gauge(
              "windows_container_cpu_usage_seconds_usermode",
              "Run Time in User mode in Seconds",
              c -> seconds(c.userNanos()))
          .build();

  static final SeriesTable<MemoryUsage> MEMORY =
      SeriesTable.<MemoryUsage>labelled(CONTAINER)
          .gauge("windows_container_memory_usage_commit_bytes", "Memory Usage Commit Bytes", ResourceMetrics::usage)
          .gauge(
              "windows_container_memory_usage_commit_peak_bytes",
              "Memory Usage Commit Peak Bytes",
              MemoryUsage::commitPeakBytes)
          .gauge(
              "windows_container_memory_usage_private_working_set_bytes",
              "Memory Usage Private Working Set Bytes",
              MemoryUsage::workingSetBytes)
          .build();

  static final SeriesTable<StorageIo> STORAGE =
      SeriesTable.<StorageIo>labelled(CONTAINER)
          .counter(
              "windows_container_storage_read_count_normalized_total", "Read Count Normalized", StorageIo::readCount)
          .counter("windows_container_storage_read_size_bytes_total", "Read Size Bytes", StorageIo::readBytes)
          .counter(
              "windows_container_storage_write_count_normalized_total", "Write Count Normalized", StorageIo::writeCount)
          .counter("windows_container_storage_write_size_bytes_total", "Write Size Bytes", StorageIo::writeBytes)
          .build();

  static final SeriesTable<InterfaceUsage> NETWORK =
      SeriesTable.<InterfaceUsage>labelled(labelNames(CONTAINER, "interface"))
          .counter(
              "windows_container_network_receive_bytes_total", "Bytes Received on Interface", InterfaceUsage::rxBytes)
          .counter(
              "windows_container_network_transmit_bytes_total", "Bytes Sent on Interface", InterfaceUsage::txBytes)
          .counter(
              "windows_container_network_receive_packets_total",
              "Packets Received on Interface",
              InterfaceUsage::rxPackets)
          .counter(
              "windows_container_network_transmit_packets_total",
              "Packets Sent on Interface",
              InterfaceUsage::txPackets)
          .counter(
              "windows_container_network_receive_packets_dropped_total",
              "Dropped Incoming Packets on Interface",
              InterfaceUsage::rxPacketsDropped)
          .counter(
              "windows_container_network_transmit_packets_dropped_total",
              "Dropped Outgoing Packets on Interface",
              InterfaceUsage::txPacketsDropped)
          .build();

  /** Every family, in the order a full round first serves them. */
  static final List<MetricFamilyDescriptor> FAMILIES =
      Stream.concat(
              SeriesTable.families(POD, CPU, MEMORY, STORAGE, NETWORK).stream(), Stream.of(COUNT))
          .toList();

  /**
   * Figures of the runtime's model this collector does not serve, each with the reason: {@code ServedFiguresTest}
   * fails on a figure that is neither served nor here.
   */
  static final Map<String, String> UNSERVED =
      Map.ofEntries(
          Map.entry("RuntimeSample.timestamp", "windows_exporter sets no sample timestamps"),
          Map.entry("RuntimeSample.filesystems", "the runtime's image filesystem: /stats/summary's runtime"),
          Map.entry("PodSample.createdAt", "windows_exporter serves no start time"),
          Map.entry("PodSample.cpu", "a pod's own figures: windows_exporter serves containers only"),
          Map.entry("PodSample.memory", "a pod's own figures: windows_exporter serves containers only"),
          Map.entry("PodSample.processCount", "no process count series in windows_exporter's container collector"),
          Map.entry("NetworkUsage.timestamp", "windows_exporter sets no sample timestamps"),
          Map.entry("InterfaceUsage.rxErrors", "no error series in windows_exporter's container collector"),
          Map.entry("InterfaceUsage.txErrors", "no error series in windows_exporter's container collector"),
          Map.entry("ContainerSample.createdAt", "windows_exporter serves no start time"),
          Map.entry("ContainerSample.attempt", "the restart attempt: no such series in windows_exporter"),
          Map.entry("ContainerSample.writableLayer", "the writable layer: /stats/summary's rootfs"),
          Map.entry("ContainerSample.logs", "the log files: /stats/summary's logs"),
          Map.entry("ContainerSample.resources", "Linux resources: cAdvisor's container_spec_*"),
          Map.entry("CpuUsage.timestamp", "windows_exporter sets no sample timestamps"),
          Map.entry("CpuUsage.usageNanoCores", "a rate: windows_exporter serves the cumulative time"),
          Map.entry("MemoryUsage.timestamp", "windows_exporter sets no sample timestamps"),
          Map.entry("MemoryUsage.availableBytes", "no such series in windows_exporter's container collector"),
          Map.entry("MemoryUsage.commitBytes", "served only where the runtime gives no usageBytes (usage)"),
          Map.entry("MemoryUsage.rssBytes", "no such series in windows_exporter's container collector"),
          Map.entry("MemoryUsage.pageFaults", "no such series in windows_exporter's container collector"),
          Map.entry("MemoryUsage.majorPageFaults", "no such series in windows_exporter's container collector"),
          Map.entry("StorageIo.timestamp", "windows_exporter sets no sample timestamps"));

  private static @Nullable Double seconds(@Nullable Long nanos) {
    return nanos == null ? null : nanos / 1e9;
  }
}
