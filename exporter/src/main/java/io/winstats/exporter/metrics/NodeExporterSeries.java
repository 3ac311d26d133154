package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.MetricFamilies.counter;
import static io.winstats.exporter.metrics.MetricFamilies.gauge;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
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
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Node series of a Linux node under node_exporter's names and labels, so that node_exporter dashboards and rules work
 * unchanged. Values carry no timestamp, as node_exporter's do not. Built once per snapshot version.
 */
public final class NodeExporterSeries extends PerVersionCollector {
  public NodeExporterSeries(Supplier<Snapshot> snapshots) {
    super(snapshots);
  }

  @Override
  public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
    return FAMILIES;
  }

  @Override
  MetricSnapshots build(Snapshot snapshot) {
    return snapshot.node() == null ? MetricSnapshots.of() : build(snapshot.node());
  }

  static MetricSnapshots build(NodeSample node) {
    MetricFamilies f = new MetricFamilies();
    Instant noTimestamp = null;
    if (node.cpu() != null) {
      for (CoreCpuTime core : node.cpu().cores()) {
        for (Map.Entry<CpuMode, Long> mode : core.nanosByMode().entrySet()) {
          f.add(CPU_SECONDS_TOTAL, mode.getValue() / 1e9, Labels.of("cpu", core.core(), "mode", mode.getKey().label()), noTimestamp);
        }
      }
    }
    NodeMemory m = node.memory();
    if (m != null) {
      f.addIfPresent(MEMORY_MEMTOTAL_BYTES, m.totalBytes(), Labels.EMPTY, noTimestamp);
      f.addIfPresent(MEMORY_MEMAVAILABLE_BYTES, m.availableBytes(), Labels.EMPTY, noTimestamp);
      f.addIfPresent(MEMORY_MEMFREE_BYTES, m.freeBytes(), Labels.EMPTY, noTimestamp);
      f.addIfPresent(MEMORY_COMMITTED_AS_BYTES, m.committedBytes(), Labels.EMPTY, noTimestamp);
      f.addIfPresent(MEMORY_COMMITLIMIT_BYTES, m.commitLimitBytes(), Labels.EMPTY, noTimestamp);
      f.addIfPresent(MEMORY_SWAPTOTAL_BYTES, m.swapTotalBytes(), Labels.EMPTY, noTimestamp);
      f.addIfPresent(MEMORY_SWAPFREE_BYTES, m.swapFreeBytes(), Labels.EMPTY, noTimestamp);
      if (m.pageFaults() != null) {
        f.add(VMSTAT_PGFAULT, m.pageFaults(), Labels.EMPTY, noTimestamp);
      }
      if (m.majorPageFaults() != null) {
        f.add(VMSTAT_PGMAJFAULT, m.majorPageFaults(), Labels.EMPTY, noTimestamp);
      }
    }
    for (NetworkInterfaceCounters nic : node.interfaces()) {
      Labels l = Labels.of("device", nic.name());
      f.add(NETWORK_RECEIVE_BYTES_TOTAL, nic.rxBytes(), l, noTimestamp);
      f.add(NETWORK_TRANSMIT_BYTES_TOTAL, nic.txBytes(), l, noTimestamp);
      f.add(NETWORK_RECEIVE_PACKETS_TOTAL, nic.rxPackets(), l, noTimestamp);
      f.add(NETWORK_TRANSMIT_PACKETS_TOTAL, nic.txPackets(), l, noTimestamp);
      f.add(NETWORK_RECEIVE_ERRS_TOTAL, nic.rxErrors(), l, noTimestamp);
      f.add(NETWORK_TRANSMIT_ERRS_TOTAL, nic.txErrors(), l, noTimestamp);
      f.add(NETWORK_RECEIVE_DROP_TOTAL, nic.rxDropped(), l, noTimestamp);
      f.add(NETWORK_TRANSMIT_DROP_TOTAL, nic.txDropped(), l, noTimestamp);
    }
    for (FilesystemUsage fs : node.filesystems()) {
      Labels l = Labels.of("device", fs.device(), "fstype", fs.fsType(), "mountpoint", fs.mountpoint());
      f.add(FILESYSTEM_SIZE_BYTES, fs.capacityBytes(), l, noTimestamp);
      f.add(FILESYSTEM_AVAIL_BYTES, fs.availableBytes(), l, noTimestamp);
      f.add(FILESYSTEM_FREE_BYTES, Math.max(0, fs.capacityBytes() - fs.usedBytes()), l, noTimestamp);
      f.addIfPresent(FILESYSTEM_FILES, fs.inodes(), l, noTimestamp);
      f.addIfPresent(FILESYSTEM_FILES_FREE, fs.inodesFree(), l, noTimestamp);
      if (fs.readOnly() != null) {
        // Every node-mixin NodeFilesystem* alert selects node_filesystem_readonly == 0.
        f.add(FILESYSTEM_READONLY, fs.readOnly() ? 1 : 0, l, noTimestamp);
      }
    }
    for (DiskIoCounters d : node.disks()) {
      Labels l = Labels.of("device", d.device());
      f.add(DISK_READ_BYTES_TOTAL, d.readBytes(), l, noTimestamp);
      f.add(DISK_WRITTEN_BYTES_TOTAL, d.writtenBytes(), l, noTimestamp);
      f.add(DISK_READS_COMPLETED_TOTAL, d.reads(), l, noTimestamp);
      f.add(DISK_WRITES_COMPLETED_TOTAL, d.writes(), l, noTimestamp);
      f.add(DISK_READ_TIME_SECONDS_TOTAL, d.readTimeNanos() / 1e9, l, noTimestamp);
      f.add(DISK_WRITE_TIME_SECONDS_TOTAL, d.writeTimeNanos() / 1e9, l, noTimestamp);
      f.add(DISK_IO_TIME_SECONDS_TOTAL, d.ioTimeNanos() / 1e9, l, noTimestamp);
      if (d.weightedIoTimeNanos() != null) {
        // node-mixin's NodeDiskIOSaturation rates this series.
        f.add(DISK_IO_TIME_WEIGHTED_SECONDS_TOTAL, d.weightedIoTimeNanos() / 1e9, l, noTimestamp);
      }
      f.add(DISK_IO_NOW, d.queueLength(), l, noTimestamp);
    }
    NodeSystem s = node.system();
    if (s != null) {
      if (s.bootTime() != null) {
        f.add(BOOT_TIME_SECONDS, s.bootTime().getEpochSecond(), Labels.EMPTY, noTimestamp);
      }
      if (s.load1() != null) {
        f.add(LOAD1, s.load1(), Labels.EMPTY, noTimestamp);
        f.add(LOAD5, s.load5() == null ? 0 : s.load5(), Labels.EMPTY, noTimestamp);
        f.add(LOAD15, s.load15() == null ? 0 : s.load15(), Labels.EMPTY, noTimestamp);
      }
      if (s.contextSwitches() != null) {
        f.add(CONTEXT_SWITCHES_TOTAL, s.contextSwitches(), Labels.EMPTY, noTimestamp);
      }
      if (s.processorQueueLength() != null) {
        f.add(PROCS_RUNNING, s.processorQueueLength(), Labels.EMPTY, noTimestamp);
      }
      f.add(PROCESSES_PIDS, s.processes(), Labels.EMPTY, noTimestamp);
      f.addIfPresent(PROCESSES_MAX_PROCESSES, s.maxProcesses(), Labels.EMPTY, noTimestamp);
    }
    return f.build();
  }

  private static final List<String> DEVICE = List.of("device");
  private static final List<String> FILESYSTEM = List.of("device", "fstype", "mountpoint");

  static final MetricFamilyDescriptor MEMORY_MEMTOTAL_BYTES = memory("MemTotal");
  static final MetricFamilyDescriptor MEMORY_MEMAVAILABLE_BYTES = memory("MemAvailable");
  static final MetricFamilyDescriptor MEMORY_MEMFREE_BYTES = memory("MemFree");
  static final MetricFamilyDescriptor MEMORY_COMMITTED_AS_BYTES = memory("Committed_AS");
  static final MetricFamilyDescriptor MEMORY_COMMITLIMIT_BYTES = memory("CommitLimit");
  static final MetricFamilyDescriptor MEMORY_SWAPTOTAL_BYTES = memory("SwapTotal");
  static final MetricFamilyDescriptor MEMORY_SWAPFREE_BYTES = memory("SwapFree");
  static final MetricFamilyDescriptor CPU_SECONDS_TOTAL =
      counter("node_cpu_seconds_total", "Seconds the CPUs spent in each mode.", List.of("cpu", "mode"));
  static final MetricFamilyDescriptor VMSTAT_PGFAULT =
      gauge("node_vmstat_pgfault", "/proc/vmstat information field pgfault.", List.of());
  static final MetricFamilyDescriptor VMSTAT_PGMAJFAULT =
      gauge("node_vmstat_pgmajfault", "/proc/vmstat information field pgmajfault.", List.of());
  static final MetricFamilyDescriptor NETWORK_RECEIVE_BYTES_TOTAL =
      counter("node_network_receive_bytes_total", "Network device statistic receive_bytes.", DEVICE);
  static final MetricFamilyDescriptor NETWORK_TRANSMIT_BYTES_TOTAL =
      counter("node_network_transmit_bytes_total", "Network device statistic transmit_bytes.", DEVICE);
  static final MetricFamilyDescriptor NETWORK_RECEIVE_PACKETS_TOTAL =
      counter("node_network_receive_packets_total", "Network device statistic receive_packets.", DEVICE);
  static final MetricFamilyDescriptor NETWORK_TRANSMIT_PACKETS_TOTAL =
      counter("node_network_transmit_packets_total", "Network device statistic transmit_packets.", DEVICE);
  static final MetricFamilyDescriptor NETWORK_RECEIVE_ERRS_TOTAL =
      counter("node_network_receive_errs_total", "Network device statistic receive_errs.", DEVICE);
  static final MetricFamilyDescriptor NETWORK_TRANSMIT_ERRS_TOTAL =
      counter("node_network_transmit_errs_total", "Network device statistic transmit_errs.", DEVICE);
  static final MetricFamilyDescriptor NETWORK_RECEIVE_DROP_TOTAL =
      counter("node_network_receive_drop_total", "Network device statistic receive_drop.", DEVICE);
  static final MetricFamilyDescriptor NETWORK_TRANSMIT_DROP_TOTAL =
      counter("node_network_transmit_drop_total", "Network device statistic transmit_drop.", DEVICE);
  static final MetricFamilyDescriptor FILESYSTEM_SIZE_BYTES =
      gauge("node_filesystem_size_bytes", "Filesystem size in bytes.", FILESYSTEM);
  static final MetricFamilyDescriptor FILESYSTEM_AVAIL_BYTES =
      gauge("node_filesystem_avail_bytes", "Filesystem space available to non-root users in bytes.", FILESYSTEM);
  static final MetricFamilyDescriptor FILESYSTEM_FREE_BYTES =
      gauge("node_filesystem_free_bytes", "Filesystem free space in bytes.", FILESYSTEM);
  static final MetricFamilyDescriptor FILESYSTEM_FILES =
      gauge("node_filesystem_files", "Filesystem total file nodes.", FILESYSTEM);
  static final MetricFamilyDescriptor FILESYSTEM_FILES_FREE =
      gauge("node_filesystem_files_free", "Filesystem total free file nodes.", FILESYSTEM);
  static final MetricFamilyDescriptor FILESYSTEM_READONLY =
      gauge("node_filesystem_readonly", "Filesystem read-only status.", FILESYSTEM);
  static final MetricFamilyDescriptor DISK_READ_BYTES_TOTAL =
      counter("node_disk_read_bytes_total", "The total number of bytes read successfully.", DEVICE);
  static final MetricFamilyDescriptor DISK_WRITTEN_BYTES_TOTAL =
      counter("node_disk_written_bytes_total", "The total number of bytes written successfully.", DEVICE);
  static final MetricFamilyDescriptor DISK_READS_COMPLETED_TOTAL =
      counter("node_disk_reads_completed_total", "The total number of reads completed successfully.", DEVICE);
  static final MetricFamilyDescriptor DISK_WRITES_COMPLETED_TOTAL =
      counter("node_disk_writes_completed_total", "The total number of writes completed successfully.", DEVICE);
  static final MetricFamilyDescriptor DISK_READ_TIME_SECONDS_TOTAL =
      counter("node_disk_read_time_seconds_total", "The total number of seconds spent by all reads.", DEVICE);
  static final MetricFamilyDescriptor DISK_WRITE_TIME_SECONDS_TOTAL =
      counter("node_disk_write_time_seconds_total", "This is the total number of seconds spent by all writes.", DEVICE);
  static final MetricFamilyDescriptor DISK_IO_TIME_SECONDS_TOTAL =
      counter("node_disk_io_time_seconds_total", "Total seconds spent doing I/Os.", DEVICE);
  static final MetricFamilyDescriptor DISK_IO_TIME_WEIGHTED_SECONDS_TOTAL =
      counter("node_disk_io_time_weighted_seconds_total", "The weighted # of seconds spent doing I/Os.", DEVICE);
  static final MetricFamilyDescriptor DISK_IO_NOW =
      gauge("node_disk_io_now", "The number of I/Os currently in progress.", DEVICE);
  static final MetricFamilyDescriptor BOOT_TIME_SECONDS =
      gauge("node_boot_time_seconds", "Node boot time, in unixtime.", List.of());
  static final MetricFamilyDescriptor LOAD1 = gauge("node_load1", "1m load average.", List.of());
  static final MetricFamilyDescriptor LOAD5 = gauge("node_load5", "5m load average.", List.of());
  static final MetricFamilyDescriptor LOAD15 = gauge("node_load15", "15m load average.", List.of());
  static final MetricFamilyDescriptor CONTEXT_SWITCHES_TOTAL =
      counter("node_context_switches_total", "Total number of context switches.", List.of());
  static final MetricFamilyDescriptor PROCS_RUNNING =
      gauge("node_procs_running", "Number of processes in runnable state.", List.of());
  static final MetricFamilyDescriptor PROCESSES_PIDS = gauge("node_processes_pids", "Number of PIDs", List.of());
  static final MetricFamilyDescriptor PROCESSES_MAX_PROCESSES =
      gauge("node_processes_max_processes", "Number of max PIDs limit", List.of());

  /** Every family, in the order a full sample first serves them. */
  static final List<MetricFamilyDescriptor> FAMILIES =
      List.of(
          CPU_SECONDS_TOTAL,
          MEMORY_MEMTOTAL_BYTES,
          MEMORY_MEMAVAILABLE_BYTES,
          MEMORY_MEMFREE_BYTES,
          MEMORY_COMMITTED_AS_BYTES,
          MEMORY_COMMITLIMIT_BYTES,
          MEMORY_SWAPTOTAL_BYTES,
          MEMORY_SWAPFREE_BYTES,
          VMSTAT_PGFAULT,
          VMSTAT_PGMAJFAULT,
          NETWORK_RECEIVE_BYTES_TOTAL,
          NETWORK_TRANSMIT_BYTES_TOTAL,
          NETWORK_RECEIVE_PACKETS_TOTAL,
          NETWORK_TRANSMIT_PACKETS_TOTAL,
          NETWORK_RECEIVE_ERRS_TOTAL,
          NETWORK_TRANSMIT_ERRS_TOTAL,
          NETWORK_RECEIVE_DROP_TOTAL,
          NETWORK_TRANSMIT_DROP_TOTAL,
          FILESYSTEM_SIZE_BYTES,
          FILESYSTEM_AVAIL_BYTES,
          FILESYSTEM_FREE_BYTES,
          FILESYSTEM_FILES,
          FILESYSTEM_FILES_FREE,
          FILESYSTEM_READONLY,
          DISK_READ_BYTES_TOTAL,
          DISK_WRITTEN_BYTES_TOTAL,
          DISK_READS_COMPLETED_TOTAL,
          DISK_WRITES_COMPLETED_TOTAL,
          DISK_READ_TIME_SECONDS_TOTAL,
          DISK_WRITE_TIME_SECONDS_TOTAL,
          DISK_IO_TIME_SECONDS_TOTAL,
          DISK_IO_TIME_WEIGHTED_SECONDS_TOTAL,
          DISK_IO_NOW,
          BOOT_TIME_SECONDS,
          LOAD1,
          LOAD5,
          LOAD15,
          CONTEXT_SWITCHES_TOTAL,
          PROCS_RUNNING,
          PROCESSES_PIDS,
          PROCESSES_MAX_PROCESSES);

  /** node_exporter's meminfo family of one {@code /proc/meminfo} field, with node_exporter's own mixed case. */
  private static MetricFamilyDescriptor memory(String field) {
    return gauge("node_memory_" + field + "_bytes", "Memory information field " + field + "_bytes.", List.of());
  }
}
