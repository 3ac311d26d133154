package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Node series of a Windows node under windows_exporter's names and labels ({@code cpu}, {@code memory}, {@code net},
 * {@code logical_disk}, {@code system} collectors), plus the legacy names the kubernetes-mixin Windows rules still
 * query ({@code windows_os_visible_memory_bytes}, {@code windows_system_boot_time_timestamp_seconds},
 * {@code windows_cs_*}), so stock Windows dashboards work unchanged. No timestamps, as windows_exporter sets none.
 * Built once per snapshot version.
 */
public final class WindowsExporterSeries extends PerVersionCollector {
  private static final Set<CpuMode> WINDOWS_MODES =
      EnumSet.of(CpuMode.IDLE, CpuMode.INTERRUPT, CpuMode.DPC, CpuMode.PRIVILEGED, CpuMode.USER);

  public WindowsExporterSeries(Supplier<Snapshot> snapshots) {
    super(snapshots);
  }

  @Override
  MetricSnapshots build(Snapshot snapshot) {
    return snapshot.node() == null ? MetricSnapshots.of() : build(snapshot.node());
  }

  static MetricSnapshots build(NodeSample node) {
    MetricFamilies f = new MetricFamilies();
    Instant none = null;
    if (node.cpu() != null) {
      for (CoreCpuTime core : node.cpu().cores()) {
        for (CpuMode mode : WINDOWS_MODES) {
          Long nanos = core.nanosByMode().get(mode);
          if (nanos != null) {
            f.counter(
                "windows_cpu_time_total",
                "Time that processor spent in different modes (dpc, idle, interrupt, privileged, user)",
                nanos / 1e9,
                Labels.of("core", core.core(), "mode", mode.label()),
                none);
          }
        }
      }
      f.gauge("windows_cpu_logical_processor", "Total number of logical processors", node.cpu().logicalCores(), Labels.EMPTY, none);
      f.gauge("windows_cs_logical_processors", "Deprecated name (cs collector) of the number of logical processors; kept for the kubernetes-mixin Windows rules.", node.cpu().logicalCores(), Labels.EMPTY, none);
    }
    NodeMemory m = node.memory();
    if (m != null) {
      f.gaugeIfPresent("windows_memory_available_bytes", "The amount of physical memory immediately available for allocation to a process or for system use.", m.availableBytes(), Labels.EMPTY, none);
      f.gaugeIfPresent("windows_memory_cache_bytes", "Number of bytes currently being used by the file system cache", m.cacheBytes(), Labels.EMPTY, none);
      f.gaugeIfPresent("windows_memory_committed_bytes", "Amount of committed virtual memory in bytes", m.committedBytes(), Labels.EMPTY, none);
      f.gaugeIfPresent("windows_memory_commit_limit", "Amount of virtual memory, in bytes, that can be committed without having to extend the paging file(s)", m.commitLimitBytes(), Labels.EMPTY, none);
      f.gaugeIfPresent("windows_memory_free_and_zero_page_list_bytes", "The amount of physical memory, in bytes, that is assigned to the free and zero page lists.", m.freeBytes(), Labels.EMPTY, none);
      f.gaugeIfPresent("windows_memory_physical_total_bytes", "The physical memory installed (GlobalMemoryStatusEx.ullTotalPhys).", m.totalBytes(), Labels.EMPTY, none);
      if (m.pageFaults() != null) {
        f.counter("windows_memory_page_faults_total", "Overall rate at which faulted pages are handled by the processor", m.pageFaults(), Labels.EMPTY, none);
      }
      f.gaugeIfPresent("windows_os_visible_memory_bytes", "Deprecated name (removed in windows_exporter v0.31) of the physical memory; kept for the kubernetes-mixin Windows rules.", m.totalBytes(), Labels.EMPTY, none);
      f.gaugeIfPresent("windows_cs_physical_memory_bytes", "Deprecated name of the physical memory (windows_exporter cs collector).", m.totalBytes(), Labels.EMPTY, none);
    }
    for (NetworkInterfaceCounters nic : node.interfaces()) {
      // windows_exporter 0.30+ labels with the PDH instance name as it is (internal/collector/net/net.go); Windows
      // itself already writes ( ) # / \ in adapter names as [ ] _ _ _ there. Older releases replaced every
      // non-alphanumeric character with _.
      Labels l = Labels.of("nic", nic.name());
      f.counter("windows_net_bytes_received_total", "Total bytes received by interface", nic.rxBytes(), l, none);
      f.counter("windows_net_bytes_sent_total", "Total bytes transmitted by interface", nic.txBytes(), l, none);
      f.counter("windows_net_bytes_total", "Total bytes received and transmitted by interface", nic.rxBytes() + nic.txBytes(), l, none);
      f.counter("windows_net_packets_received_total", "Total packets received by interface", nic.rxPackets(), l, none);
      f.counter("windows_net_packets_sent_total", "Total packets transmitted by interface", nic.txPackets(), l, none);
      f.counter("windows_net_packets_total", "Total packets received and transmitted by interface", nic.rxPackets() + nic.txPackets(), l, none);
      f.counter("windows_net_packets_received_errors_total", "Total packets that could not be received due to errors", nic.rxErrors(), l, none);
      f.counter("windows_net_packets_outbound_errors_total", "Total packets that could not be transmitted due to errors", nic.txErrors(), l, none);
      f.counter("windows_net_packets_received_discarded_total", "Total inbound packets that were chosen to be discarded even though no errors had been detected", nic.rxDropped(), l, none);
      f.counter("windows_net_packets_outbound_discarded_total", "Total outbound packets that were chosen to be discarded even though no errors had been detected", nic.txDropped(), l, none);
    }
    for (FilesystemUsage fs : node.filesystems()) {
      Labels l = Labels.of("volume", fs.device());
      f.gauge("windows_logical_disk_size_bytes", "Total space in bytes (LogicalDisk.PercentFreeSpace_Base)", fs.capacityBytes(), l, none);
      f.gauge("windows_logical_disk_free_bytes", "Free space in bytes (LogicalDisk.PercentFreeSpace)", fs.availableBytes(), l, none);
    }
    for (DiskIoCounters d : node.disks()) {
      Labels l = Labels.of("volume", d.device());
      f.counter("windows_logical_disk_read_bytes_total", "The number of bytes transferred from the disk during read operations", d.readBytes(), l, none);
      f.counter("windows_logical_disk_write_bytes_total", "The number of bytes transferred to the disk during write operations", d.writtenBytes(), l, none);
      f.counter("windows_logical_disk_reads_total", "The number of read operations on the disk", d.reads(), l, none);
      f.counter("windows_logical_disk_writes_total", "The number of write operations on the disk", d.writes(), l, none);
      f.counter("windows_logical_disk_read_seconds_total", "Seconds that the disk was busy servicing read requests", d.readTimeNanos() / 1e9, l, none);
      f.counter("windows_logical_disk_write_seconds_total", "Seconds that the disk was busy servicing write requests", d.writeTimeNanos() / 1e9, l, none);
      f.gauge("windows_logical_disk_requests_queued", "The number of requests queued to the disk", d.queueLength(), l, none);
    }
    NodeSystem s = node.system();
    if (s != null) {
      f.gauge("windows_system_processes", "Current number of processes", s.processes(), Labels.EMPTY, none);
      f.gaugeIfPresent("windows_system_threads", "Current number of threads", s.threads(), Labels.EMPTY, none);
      if (s.contextSwitches() != null) {
        f.counter("windows_system_context_switches_total", "Total number of context switches", s.contextSwitches(), Labels.EMPTY, none);
      }
      f.gaugeIfPresent("windows_system_processor_queue_length", "Length of processor queue", s.processorQueueLength(), Labels.EMPTY, none);
      if (s.bootTime() != null) {
        f.gauge("windows_system_boot_time_timestamp", "Unix timestamp of system boot time", s.bootTime().getEpochSecond(), Labels.EMPTY, none);
        f.gauge("windows_system_boot_time_timestamp_seconds", "Deprecated name (removed in windows_exporter v0.31) of the boot time; kept for the kubernetes-mixin Windows rules.", s.bootTime().getEpochSecond(), Labels.EMPTY, none);
      }
    }
    return f.build();
  }
}
