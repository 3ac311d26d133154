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
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Node series of a Linux node under node_exporter's names and labels, so that node_exporter dashboards and rules work
 * unchanged. Values carry no timestamp, as node_exporter's do not. Built once per snapshot version.
 */
public final class NodeExporterSeries extends PerVersionCollector {
  public NodeExporterSeries(Supplier<Snapshot> snapshots) {
    super(snapshots);
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
          f.counter(
              "node_cpu_seconds_total",
              "Seconds the CPUs spent in each mode.",
              mode.getValue() / 1e9,
              Labels.of("cpu", core.core(), "mode", mode.getKey().label()),
              noTimestamp);
        }
      }
    }
    NodeMemory m = node.memory();
    if (m != null) {
      memory(f, "MemTotal", m.totalBytes());
      memory(f, "MemAvailable", m.availableBytes());
      memory(f, "MemFree", m.freeBytes());
      memory(f, "Committed_AS", m.committedBytes());
      memory(f, "CommitLimit", m.commitLimitBytes());
      memory(f, "SwapTotal", m.swapTotalBytes());
      memory(f, "SwapFree", m.swapFreeBytes());
      if (m.pageFaults() != null) {
        f.gauge("node_vmstat_pgfault", "/proc/vmstat information field pgfault.", m.pageFaults(), Labels.EMPTY, noTimestamp);
      }
      if (m.majorPageFaults() != null) {
        f.gauge("node_vmstat_pgmajfault", "/proc/vmstat information field pgmajfault.", m.majorPageFaults(), Labels.EMPTY, noTimestamp);
      }
    }
    for (NetworkInterfaceCounters nic : node.interfaces()) {
      Labels l = Labels.of("device", nic.name());
      f.counter("node_network_receive_bytes_total", "Network device statistic receive_bytes.", nic.rxBytes(), l, noTimestamp);
      f.counter("node_network_transmit_bytes_total", "Network device statistic transmit_bytes.", nic.txBytes(), l, noTimestamp);
      f.counter("node_network_receive_packets_total", "Network device statistic receive_packets.", nic.rxPackets(), l, noTimestamp);
      f.counter("node_network_transmit_packets_total", "Network device statistic transmit_packets.", nic.txPackets(), l, noTimestamp);
      f.counter("node_network_receive_errs_total", "Network device statistic receive_errs.", nic.rxErrors(), l, noTimestamp);
      f.counter("node_network_transmit_errs_total", "Network device statistic transmit_errs.", nic.txErrors(), l, noTimestamp);
      f.counter("node_network_receive_drop_total", "Network device statistic receive_drop.", nic.rxDropped(), l, noTimestamp);
      f.counter("node_network_transmit_drop_total", "Network device statistic transmit_drop.", nic.txDropped(), l, noTimestamp);
    }
    for (FilesystemUsage fs : node.filesystems()) {
      Labels l = Labels.of("device", fs.device(), "fstype", fs.fsType(), "mountpoint", fs.mountpoint());
      f.gauge("node_filesystem_size_bytes", "Filesystem size in bytes.", fs.capacityBytes(), l, noTimestamp);
      f.gauge("node_filesystem_avail_bytes", "Filesystem space available to non-root users in bytes.", fs.availableBytes(), l, noTimestamp);
      f.gauge("node_filesystem_free_bytes", "Filesystem free space in bytes.", Math.max(0, fs.capacityBytes() - fs.usedBytes()), l, noTimestamp);
      f.gaugeIfPresent("node_filesystem_files", "Filesystem total file nodes.", fs.inodes(), l, noTimestamp);
      f.gaugeIfPresent("node_filesystem_files_free", "Filesystem total free file nodes.", fs.inodesFree(), l, noTimestamp);
      if (fs.readOnly() != null) {
        // Every node-mixin NodeFilesystem* alert selects node_filesystem_readonly == 0.
        f.gauge("node_filesystem_readonly", "Filesystem read-only status.", fs.readOnly() ? 1 : 0, l, noTimestamp);
      }
    }
    for (DiskIoCounters d : node.disks()) {
      Labels l = Labels.of("device", d.device());
      f.counter("node_disk_read_bytes_total", "The total number of bytes read successfully.", d.readBytes(), l, noTimestamp);
      f.counter("node_disk_written_bytes_total", "The total number of bytes written successfully.", d.writtenBytes(), l, noTimestamp);
      f.counter("node_disk_reads_completed_total", "The total number of reads completed successfully.", d.reads(), l, noTimestamp);
      f.counter("node_disk_writes_completed_total", "The total number of writes completed successfully.", d.writes(), l, noTimestamp);
      f.counter("node_disk_read_time_seconds_total", "The total number of seconds spent by all reads.", d.readTimeNanos() / 1e9, l, noTimestamp);
      f.counter("node_disk_write_time_seconds_total", "This is the total number of seconds spent by all writes.", d.writeTimeNanos() / 1e9, l, noTimestamp);
      f.counter("node_disk_io_time_seconds_total", "Total seconds spent doing I/Os.", d.ioTimeNanos() / 1e9, l, noTimestamp);
      if (d.weightedIoTimeNanos() != null) {
        // node-mixin's NodeDiskIOSaturation rates this series.
        f.counter(
            "node_disk_io_time_weighted_seconds_total",
            "The weighted # of seconds spent doing I/Os.",
            d.weightedIoTimeNanos() / 1e9,
            l,
            noTimestamp);
      }
      f.gauge("node_disk_io_now", "The number of I/Os currently in progress.", d.queueLength(), l, noTimestamp);
    }
    NodeSystem s = node.system();
    if (s != null) {
      if (s.bootTime() != null) {
        f.gauge("node_boot_time_seconds", "Node boot time, in unixtime.", s.bootTime().getEpochSecond(), Labels.EMPTY, noTimestamp);
      }
      if (s.load1() != null) {
        f.gauge("node_load1", "1m load average.", s.load1(), Labels.EMPTY, noTimestamp);
        f.gauge("node_load5", "5m load average.", s.load5() == null ? 0 : s.load5(), Labels.EMPTY, noTimestamp);
        f.gauge("node_load15", "15m load average.", s.load15() == null ? 0 : s.load15(), Labels.EMPTY, noTimestamp);
      }
      if (s.contextSwitches() != null) {
        f.counter("node_context_switches_total", "Total number of context switches.", s.contextSwitches(), Labels.EMPTY, noTimestamp);
      }
      if (s.processorQueueLength() != null) {
        f.gauge("node_procs_running", "Number of processes in runnable state.", s.processorQueueLength(), Labels.EMPTY, noTimestamp);
      }
      f.gauge("node_processes_pids", "Number of PIDs", s.processes(), Labels.EMPTY, noTimestamp);
      f.gaugeIfPresent("node_processes_max_processes", "Number of max PIDs limit", s.maxProcesses(), Labels.EMPTY, noTimestamp);
    }
    return f.build();
  }

  private static void memory(MetricFamilies f, String field, @Nullable Long bytes) {
    f.gaugeIfPresent(
        "node_memory_" + field + "_bytes", "Memory information field " + field + "_bytes.", bytes, Labels.EMPTY, null);
  }
}
