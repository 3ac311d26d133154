package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.counter;
import static io.winstats.exporter.metrics.FamiliesBuilder.gauge;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.LogicalDiskInfo;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.PhysicalDiskCounters;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Node series of a Windows node under windows_exporter's names and labels ({@code cpu}, {@code memory}, {@code net},
 * {@code logical_disk}, {@code physical_disk} ({@link WindowsPhysicalDiskTables}), {@code system}, {@code os} ({@link
 * WindowsOsTables}) collectors), plus
 * the legacy names the kubernetes-mixin Windows rules still
 * query ({@code windows_os_visible_memory_bytes}, {@code windows_system_boot_time_timestamp_seconds},
 * {@code windows_cs_*}), so stock Windows dashboards work unchanged. No timestamps, as windows_exporter sets none.
 * Built once per snapshot version. Each series is one row of a {@link SeriesTable}: a new figure of the node model is
 * served by adding its row, or listed in {@link #UNSERVED} with the reason it is not.
 */
public final class WindowsExporterSeries extends PerVersionCollector {
  private static final Set<CpuMode> WINDOWS_MODES =
      EnumSet.of(CpuMode.IDLE, CpuMode.INTERRUPT, CpuMode.DPC, CpuMode.PRIVILEGED, CpuMode.USER);
  private static final List<String> NONE = List.of();

  private final WindowsExporterCollector collector;

  /** The series of one of windows_exporter's collectors. */
  public WindowsExporterSeries(Supplier<Snapshot> snapshots, WindowsExporterCollector collector) {
    super(snapshots);
    this.collector = collector;
  }

  @Override
  public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
    return collector.families();
  }

  @Override
  MetricSnapshots build(Snapshot snapshot) {
    return snapshot.node() == null ? MetricSnapshots.of() : build(snapshot.node(), collector);
  }

  /** Every collector's series, in {@link #FAMILIES}' order. */
  /** Current Bandwidth in bytes per second, as net.go:411-417@v0.31.8 serves it; null when the source lacks it. */
  static @Nullable Double bandwidthBytes(NetworkInterfaceCounters nic) {
    Long bits = nic.currentBandwidthBits();
    return bits == null ? null : bits / 8.0;
  }

  static MetricSnapshots build(NodeSample node) {
    FamiliesBuilder f = new FamiliesBuilder();
    for (WindowsExporterCollector c : WindowsExporterCollector.values()) {
      c.add(f, node);
    }
    return f.build();
  }

  static MetricSnapshots build(NodeSample node, WindowsExporterCollector collector) {
    FamiliesBuilder f = new FamiliesBuilder();
    collector.add(f, node);
    return f.build();
  }

  static final SeriesTable<NodeCpu> CPU =
      SeriesTable.<NodeCpu>labelled(NONE)
          .write(
              counter(
                  "windows_cpu_time_total",
                  "Time that processor spent in different modes (dpc, idle, interrupt, privileged, user)",
                  List.of("core", "mode")),
              (f, family, cpu, l, at) -> {
                for (CoreCpuTime core : cpu.cores()) {
                  for (CpuMode mode : WINDOWS_MODES) {
                    Long nanos = core.nanosByMode().get(mode);
                    if (nanos != null) {
                      f.add(family, nanos / 1e9, Labels.of("core", core.core(), "mode", mode.label()), at);
                    }
                  }
                }
              })
          .gauge("windows_cpu_logical_processor", "Total number of logical processors", NodeCpu::logicalCores)
          .gauge(
              "windows_cs_logical_processors",
              "Deprecated name (cs collector) of the number of logical processors; kept for the kubernetes-mixin"
                  + " Windows rules.",
              NodeCpu::logicalCores)
          .build();

  static final SeriesTable<NetworkInterfaceCounters> NET =
      SeriesTable.<NetworkInterfaceCounters>labelled(List.of("nic"))
          .counter(
              "windows_net_bytes_received_total",
              "(Network.BytesReceivedPerSec)",
              NetworkInterfaceCounters::rxBytes)
          .counter(
              "windows_net_bytes_sent_total", "(Network.BytesSentPerSec)", NetworkInterfaceCounters::txBytes)
          .counter(
              "windows_net_bytes_total",
              "(Network.BytesTotalPerSec)",
              nic -> nic.rxBytes() + nic.txBytes())
          .counter(
              "windows_net_packets_received_total",
              "(Network.PacketsReceivedPerSec)",
              NetworkInterfaceCounters::rxPackets)
          .counter(
              "windows_net_packets_sent_total",
              "(Network.PacketsSentPerSec)",
              NetworkInterfaceCounters::txPackets)
          .counter(
              "windows_net_packets_total",
              "(Network.PacketsPerSec)",
              nic -> nic.rxPackets() + nic.txPackets())
          .counter(
              "windows_net_packets_received_errors_total",
              "(Network.PacketsReceivedErrors)",
              NetworkInterfaceCounters::rxErrors)
          .counter(
              "windows_net_packets_outbound_errors_total",
              "(Network.PacketsOutboundErrors)",
              NetworkInterfaceCounters::txErrors)
          .counter(
              "windows_net_packets_received_discarded_total",
              "(Network.PacketsReceivedDiscarded)",
              NetworkInterfaceCounters::rxDropped)
          .counter(
              "windows_net_packets_outbound_discarded_total",
              "(Network.PacketsOutboundDiscarded)",
              NetworkInterfaceCounters::txDropped)
          // net.go:195-254 and 348-417@v0.31.8: the three counters below, raw values as read.
          .counter(
              "windows_net_packets_received_unknown_total",
              "(Network.PacketsReceivedUnknown)",
              NetworkInterfaceCounters::rxUnknownProtocol)
          .gauge(
              "windows_net_output_queue_length_packets",
              "(Network.OutputQueueLength)",
              NetworkInterfaceCounters::outputQueuePackets)
          // net.go:411-417@v0.31.8 serves Current Bandwidth (bits per second) divided by 8.
          .gauge(
              "windows_net_current_bandwidth_bytes",
              "(Network.CurrentBandwidth)",
              WindowsExporterSeries::bandwidthBytes)
          .build();

  static final SeriesTable<FilesystemUsage> VOLUME_SPACE =
      SeriesTable.<FilesystemUsage>labelled(List.of("volume"))
          .gauge(
              "windows_logical_disk_size_bytes",
              "Total space in bytes, updates every 10-15 min (LogicalDisk.PercentFreeSpace_Base)",
              FilesystemUsage::capacityBytes)
          .gauge(
              "windows_logical_disk_free_bytes",
              "Free space in bytes, updates every 10-15 min (LogicalDisk.PercentFreeSpace)",
              FilesystemUsage::availableBytes)
          .build();

  static final SeriesTable<DiskIoCounters> VOLUME_IO =
      SeriesTable.<DiskIoCounters>labelled(List.of("volume"))
          .counter(
              "windows_logical_disk_read_bytes_total",
              "The number of bytes transferred from the disk during read operations (LogicalDisk.DiskReadBytesPerSec)",
              DiskIoCounters::readBytes)
          .counter(
              "windows_logical_disk_write_bytes_total",
              "The number of bytes transferred to the disk during write operations (LogicalDisk.DiskWriteBytesPerSec)",
              DiskIoCounters::writtenBytes)
          .counter(
              "windows_logical_disk_reads_total",
              "The number of read operations on the disk (LogicalDisk.DiskReadsPerSec)",
              DiskIoCounters::reads)
          .counter(
              "windows_logical_disk_writes_total",
              "The number of write operations on the disk (LogicalDisk.DiskWritesPerSec)",
              DiskIoCounters::writes)
          .counter(
              "windows_logical_disk_read_seconds_total",
              "Seconds that the disk was busy servicing read requests (LogicalDisk.PercentDiskReadTime)",
              d -> d.readTimeNanos() / 1e9)
          .counter(
              "windows_logical_disk_write_seconds_total",
              "Seconds that the disk was busy servicing write requests (LogicalDisk.PercentDiskWriteTime)",
              d -> d.writeTimeNanos() / 1e9)
          .gauge(
              "windows_logical_disk_requests_queued",
              "The number of requests queued to the disk (LogicalDisk.CurrentDiskQueueLength)",
              DiskIoCounters::queueLength)
          // logical_disk.go:221-233,291-324,409-421,479-512@v0.31.8: the queue integrals (a gauge upstream, though
          // cumulative) and the latency totals are FirstValue x 1e-7 s; a figure the source lacks adds no point.
          .gauge(
              "windows_logical_disk_avg_read_requests_queued",
              "Average number of read requests that were queued for the selected disk during the sample interval"
                  + " (LogicalDisk.AvgDiskReadQueueLength)",
              d -> seconds(d.readQueueNanos()))
          .gauge(
              "windows_logical_disk_avg_write_requests_queued",
              "Average number of write requests that were queued for the selected disk during the sample interval"
                  + " (LogicalDisk.AvgDiskWriteQueueLength)",
              d -> seconds(d.writeQueueNanos()))
          .counter(
              "windows_logical_disk_idle_seconds_total",
              "Seconds that the disk was idle (LogicalDisk.PercentIdleTime)",
              d -> seconds(d.idleTimeNanos()))
          .counter(
              "windows_logical_disk_split_ios_total",
              "The number of I/Os to the disk were split into multiple I/Os (LogicalDisk.SplitIOPerSec)",
              DiskIoCounters::splitIos)
          .counter(
              "windows_logical_disk_read_latency_seconds_total",
              "Shows the average time, in seconds, of a read operation from the disk (LogicalDisk.AvgDiskSecPerRead)",
              d -> seconds(d.readLatencyNanos()))
          .counter(
              "windows_logical_disk_write_latency_seconds_total",
              "Shows the average time, in seconds, of a write operation to the disk (LogicalDisk.AvgDiskSecPerWrite)",
              d -> seconds(d.writeLatencyNanos()))
          .counter(
              "windows_logical_disk_read_write_latency_seconds_total",
              "Shows the time, in seconds, of the average disk transfer (LogicalDisk.AvgDiskSecPerTransfer)",
              d -> seconds(d.transferLatencyNanos()))
          .build();

  /** Nanoseconds as seconds; none (no point) where the source lacks the figure. */
  private static @Nullable Double seconds(@Nullable Long nanos) {
    return nanos == null ? null : nanos / 1e9;
  }

  /**
   * windows_exporter v0.31.8's {@code windows_logical_disk_info}, name, labels and help verbatim ({@code
   * internal/collector/logical_disk/logical_disk.go:202-207@v0.31.8}): 1 for each {@code \LogicalDisk(*)} instance,
   * labelled with its volume's disk numbers, drive type, label, file system and serial number, every label but {@code
   * volume} empty when the volume could not be read, as upstream serves it (389-399).
   */
  static final SeriesTable<LogicalDiskInfo> VOLUME_INFO =
      SeriesTable.<LogicalDiskInfo>labelled(NONE)
          .write(
              gauge(
                  "windows_logical_disk_info",
                  "A metric with a constant '1' value labeled with logical disk information",
                  List.of("disk", "type", "volume", "volume_name", "filesystem", "serial_number")),
              (f, family, v, l, at) ->
                  f.add(
                      family,
                      1.0,
                      Labels.of(
                          "disk", v.disk(),
                          "type", v.type(),
                          "volume", v.volume(),
                          "volume_name", v.volumeName(),
                          "filesystem", v.filesystem(),
                          "serial_number", v.serialNumber()),
                      at))
          .build();

  /**
   * windows_exporter's {@code windows_system_processes_limit}: Windows has no process limit, so upstream serves this
   * constant, {@code float64(4294967295)} (system.go:200-207@v0.31.8), on every scrape; served the same.
   */
  static final long PROCESSES_LIMIT = 4_294_967_295L;

  static final SeriesTable<NodeSystem> SYSTEM =
      SeriesTable.<NodeSystem>labelled(NONE)
          .gauge(
              "windows_system_processes",
              "Current number of processes (WMI source: PerfOS_System.Processes)",
              NodeSystem::processes)
          .gauge(
              "windows_system_threads",
              "Current number of threads (WMI source: PerfOS_System.Threads)",
              NodeSystem::threads)
          .counter(
              "windows_system_context_switches_total",
              "Total number of context switches (WMI source: PerfOS_System.ContextSwitchesPersec)",
              NodeSystem::contextSwitches)
          .counter(
              "windows_system_system_calls_total",
              "Total number of system calls (WMI source: PerfOS_System.SystemCallsPersec)",
              NodeSystem::systemCalls)
          .counter(
              "windows_system_exception_dispatches_total",
              "Total number of exceptions dispatched (WMI source: PerfOS_System.ExceptionDispatchesPersec)",
              NodeSystem::exceptionDispatches)
          .gauge(
              "windows_system_processor_queue_length",
              "Length of processor queue (WMI source: PerfOS_System.ProcessorQueueLength)",
              NodeSystem::processorQueueLength)
          .gauge(
              "windows_system_boot_time_timestamp",
              "Unix timestamp of system boot time",
              s -> FamiliesBuilder.epochSeconds(s.bootTime()))
          .gauge("windows_system_processes_limit", "Maximum number of processes.", s -> PROCESSES_LIMIT)
          .gauge(
              "windows_system_boot_time_timestamp_seconds",
              "Deprecated name (removed in windows_exporter v0.31) of the boot time; kept for the kubernetes-mixin"
                  + " Windows rules.",
              s -> FamiliesBuilder.epochSeconds(s.bootTime()))
          .build();

  /** Every family, in the order a full sample first serves them. */
  static final List<MetricFamilyDescriptor> FAMILIES =
      Arrays.stream(WindowsExporterCollector.values()).flatMap(c -> c.families().stream()).toList();

  /**
   * Figures of the node model this collector does not serve, each with the reason: {@code ServedFiguresTest} fails on
   * a figure that is neither served nor here.
   */
  static final Map<String, String> UNSERVED =
      Map.ofEntries(
          Map.entry("NodeSample.timestamp", "windows_exporter sets no sample timestamps"),
          Map.entry("NodeSample.monotonicNanos", "the sampling clock, for rates"),
          Map.entry("NodeSample.kubeletRootFs", "the kubelet's root filesystem: /stats/summary's nodefs"),
          Map.entry("NodeCpu.usageCoreNanos", "the sum of the cores' busy time: cAdvisor's root container_cpu_usage"),
          Map.entry("NodeMemory.workingSetBytes", "the kubelet's working set: /stats/summary and cAdvisor's root"),
          Map.entry("NodeMemory.usageBytes", "the kubelet's usage: /stats/summary and cAdvisor's root"),
          Map.entry("NodeMemory.rssBytes", "Linux's AnonPages; windows_exporter has no such series"),
          Map.entry("NodeMemory.majorPageFaults", "Linux's pgmajfault; windows_exporter has no such series"),
          Map.entry("NodeMemory.swapTotalBytes", "Linux's SwapTotal; windows_exporter has no such series"),
          Map.entry("NodeMemory.swapFreeBytes", "Linux's SwapFree; windows_exporter has no such series"),
          Map.entry("NodeSystem.maxProcesses", "Linux's pid_max; windows_exporter has no such series"),
          Map.entry("NodeSystem.load1", "Linux's load average; Windows has none"),
          Map.entry("NodeSystem.load5", "Linux's load average; Windows has none"),
          Map.entry("NodeSystem.load15", "Linux's load average; Windows has none"),
          Map.entry("NodeSystem.maxThreads", "Linux's threads-max; windows_exporter has no such series"),
          Map.entry("FilesystemUsage.usedBytes", "windows_exporter serves size and free space only"),
          Map.entry("FilesystemUsage.inodes", "NTFS has no inode count"),
          Map.entry("FilesystemUsage.inodesFree", "NTFS has no inode count"),
          Map.entry("FilesystemUsage.readOnly", "windows_exporter has no read-only series"),
          Map.entry("DiskIoCounters.ioTimeNanos", "node_exporter's io_time; windows_exporter serves idle time instead"),
          Map.entry("DiskIoCounters.weightedIoTimeNanos", "node_exporter's weighted io_time"));
}
