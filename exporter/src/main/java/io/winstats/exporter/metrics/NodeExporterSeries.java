package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.counter;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Node series of a Linux node under node_exporter's names and labels, so that node_exporter dashboards and rules work
 * unchanged. Values carry no timestamp, as node_exporter's do not. Built once per snapshot version. Each series is one
 * row of a {@link SeriesTable}: a new figure of the node model is served by adding its row, or listed in {@link
 * #UNSERVED} with the reason it is not.
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
    FamiliesBuilder f = new FamiliesBuilder();
    Instant noTimestamp = null;
    if (node.cpu() != null) {
      CPU.add(f, node.cpu(), Labels.EMPTY, noTimestamp);
    }
    if (node.memory() != null) {
      MEMORY.add(f, node.memory(), Labels.EMPTY, noTimestamp);
    }
    for (NetworkInterfaceCounters nic : node.interfaces()) {
      NETWORK.add(f, nic, Labels.of("device", nic.name()), noTimestamp);
    }
    for (FilesystemUsage fs : node.filesystems()) {
      Labels l = Labels.of("device", fs.device(), "fstype", fs.fsType(), "mountpoint", fs.mountpoint());
      FILESYSTEM.add(f, fs, l, noTimestamp);
    }
    for (DiskIoCounters d : node.disks()) {
      DISK.add(f, d, Labels.of("device", d.device()), noTimestamp);
    }
    if (node.system() != null) {
      SYSTEM.add(f, node.system(), Labels.EMPTY, noTimestamp);
    }
    return f.build();
  }

  private static final List<String> NONE = List.of();

  static final SeriesTable<NodeCpu> CPU =
      SeriesTable.<NodeCpu>labelled(NONE)
          .write(
              counter("node_cpu_seconds_total", "Seconds the CPUs spent in each mode.", List.of("cpu", "mode")),
              (f, family, cpu, l, at) -> {
                for (CoreCpuTime core : cpu.cores()) {
                  for (Map.Entry<CpuMode, Long> mode : core.nanosByMode().entrySet()) {
                    Labels cl = Labels.of("cpu", core.core(), "mode", mode.getKey().label());
                    f.add(family, mode.getValue() / 1e9, cl, at);
                  }
                }
              })
          .build();

  static final SeriesTable<NodeMemory> MEMORY =
      SeriesTable.<NodeMemory>labelled(NONE)
          .row(memory("MemTotal"), NodeMemory::totalBytes)
          .row(memory("MemAvailable"), NodeMemory::availableBytes)
          .row(memory("MemFree"), NodeMemory::freeBytes)
          .row(memory("Committed_AS"), NodeMemory::committedBytes)
          .row(memory("CommitLimit"), NodeMemory::commitLimitBytes)
          .row(memory("SwapTotal"), NodeMemory::swapTotalBytes)
          .row(memory("SwapFree"), NodeMemory::swapFreeBytes)
          .gauge("node_vmstat_pgfault", "/proc/vmstat information field pgfault.", NodeMemory::pageFaults)
          .gauge("node_vmstat_pgmajfault", "/proc/vmstat information field pgmajfault.", NodeMemory::majorPageFaults)
          .build();

  static final SeriesTable<NetworkInterfaceCounters> NETWORK =
      SeriesTable.<NetworkInterfaceCounters>labelled(List.of("device"))
          .counter(
              "node_network_receive_bytes_total",
              "Network device statistic receive_bytes.",
              NetworkInterfaceCounters::rxBytes)
          .counter(
              "node_network_transmit_bytes_total",
              "Network device statistic transmit_bytes.",
              NetworkInterfaceCounters::txBytes)
          .counter(
              "node_network_receive_packets_total",
              "Network device statistic receive_packets.",
              NetworkInterfaceCounters::rxPackets)
          .counter(
              "node_network_transmit_packets_total",
              "Network device statistic transmit_packets.",
              NetworkInterfaceCounters::txPackets)
          .counter(
              "node_network_receive_errs_total",
              "Network device statistic receive_errs.",
              NetworkInterfaceCounters::rxErrors)
          .counter(
              "node_network_transmit_errs_total",
              "Network device statistic transmit_errs.",
              NetworkInterfaceCounters::txErrors)
          .counter(
              "node_network_receive_drop_total",
              "Network device statistic receive_drop.",
              NetworkInterfaceCounters::rxDropped)
          .counter(
              "node_network_transmit_drop_total",
              "Network device statistic transmit_drop.",
              NetworkInterfaceCounters::txDropped)
          .build();

  static final SeriesTable<FilesystemUsage> FILESYSTEM =
      SeriesTable.<FilesystemUsage>labelled(List.of("device", "fstype", "mountpoint"))
          .gauge("node_filesystem_size_bytes", "Filesystem size in bytes.", FilesystemUsage::capacityBytes)
          .gauge(
              "node_filesystem_avail_bytes",
              "Filesystem space available to non-root users in bytes.",
              FilesystemUsage::availableBytes)
          .gauge(
              "node_filesystem_free_bytes",
              "Filesystem free space in bytes.",
              fs -> Math.max(0, fs.capacityBytes() - fs.usedBytes()))
          .gauge("node_filesystem_files", "Filesystem total file nodes.", FilesystemUsage::inodes)
          .gauge("node_filesystem_files_free", "Filesystem total free file nodes.", FilesystemUsage::inodesFree)
          // Every node-mixin NodeFilesystem* alert selects node_filesystem_readonly == 0.
          .gauge("node_filesystem_readonly", "Filesystem read-only status.", NodeExporterSeries::readOnly)
          .build();

  static final SeriesTable<DiskIoCounters> DISK =
      SeriesTable.<DiskIoCounters>labelled(List.of("device"))
          .counter(
              "node_disk_read_bytes_total", "The total number of bytes read successfully.", DiskIoCounters::readBytes)
          .counter(
              "node_disk_written_bytes_total",
              "The total number of bytes written successfully.",
              DiskIoCounters::writtenBytes)
          .counter(
              "node_disk_reads_completed_total",
              "The total number of reads completed successfully.",
              DiskIoCounters::reads)
          .counter(
              "node_disk_writes_completed_total",
              "The total number of writes completed successfully.",
              DiskIoCounters::writes)
          .counter(
              "node_disk_read_time_seconds_total",
              "The total number of seconds spent by all reads.",
              d -> d.readTimeNanos() / 1e9)
          .counter(
              "node_disk_write_time_seconds_total",
              "This is the total number of seconds spent by all writes.",
              d -> d.writeTimeNanos() / 1e9)
          .counter("node_disk_io_time_seconds_total", "Total seconds spent doing I/Os.", d -> d.ioTimeNanos() / 1e9)
          // node-mixin's NodeDiskIOSaturation rates this series.
          .counter(
              "node_disk_io_time_weighted_seconds_total",
              "The weighted # of seconds spent doing I/Os.",
              d -> seconds(d.weightedIoTimeNanos()))
          .gauge("node_disk_io_now", "The number of I/Os currently in progress.", DiskIoCounters::queueLength)
          .build();

  static final SeriesTable<NodeSystem> SYSTEM =
      SeriesTable.<NodeSystem>labelled(NONE)
          .gauge(
              "node_boot_time_seconds",
              "Node boot time, in unixtime.",
              s -> FamiliesBuilder.epochSeconds(s.bootTime()))
          // node_exporter's loadavg collector serves all three or none: the 5 and 15 minute figures with the 1.
          .gauge("node_load1", "1m load average.", NodeSystem::load1)
          .gauge("node_load5", "5m load average.", s -> s.load1() == null ? null : orZero(s.load5()))
          .gauge("node_load15", "15m load average.", s -> s.load1() == null ? null : orZero(s.load15()))
          .counter(
              "node_context_switches_total", "Total number of context switches.", NodeSystem::contextSwitches)
          .gauge("node_procs_running", "Number of processes in runnable state.", NodeSystem::processorQueueLength)
          .gauge("node_processes_pids", "Number of PIDs", NodeSystem::processes)
          .gauge("node_processes_max_processes", "Number of max PIDs limit", NodeSystem::maxProcesses)
          .build();

  /** Every family, in the order a full sample first serves them. */
  static final List<MetricFamilyDescriptor> FAMILIES =
      SeriesTable.families(CPU, MEMORY, NETWORK, FILESYSTEM, DISK, SYSTEM);

  /**
   * Figures of the node model this collector does not serve, each with the reason: {@code ServedFiguresTest} fails on
   * a figure that is neither served nor here. A Windows counter's figure that a Linux node lacks (a row of a binding
   * table, absent from the Linux fixture) is not listed: the test derives those.
   */
  static final Map<String, String> UNSERVED =
      Map.ofEntries(
          Map.entry("NodeSample.timestamp", "node_exporter sets no sample timestamps"),
          Map.entry("NodeSample.monotonicNanos", "the sampling clock, for rates"),
          Map.entry("NodeSample.kubeletRootFs", "the kubelet's root filesystem: /stats/summary's nodefs"),
          Map.entry("NodeSample.windowsOs", "Windows' release and DNS names: windows_exporter's os series"),
          Map.entry("NodeCpu.logicalCores", "cAdvisor's machine_cpu_cores (CadvisorSeriesCollector)"),
          Map.entry("NodeCpu.usageCoreNanos", "the sum of the cores' busy time: cAdvisor's root container_cpu_usage"),
          Map.entry("NodeMemory.workingSetBytes", "the kubelet's working set: /stats/summary and cAdvisor's root"),
          Map.entry("NodeMemory.usageBytes", "the kubelet's usage: /stats/summary and cAdvisor's root"),
          Map.entry("NodeMemory.rssBytes", "the kubelet's node rssBytes: /stats/summary"),
          Map.entry("NodeMemory.cacheBytes", "a Windows figure (Memory\\Cache Bytes)"),
          Map.entry("NodeMemory.physicalFreeBytes", "a Windows figure (GlobalMemoryStatusEx.ullAvailPhys)"),
          Map.entry("NodeMemory.processMemoryLimitBytes", "a Windows figure (GlobalMemoryStatusEx.ullTotalVirtual)"),
          Map.entry("DiskIoCounters.readLatencyNanos", "a Windows figure (LogicalDisk\\Avg. Disk sec/Read's total)"),
          Map.entry("DiskIoCounters.writeLatencyNanos", "a Windows figure (LogicalDisk\\Avg. Disk sec/Write's total)"),
          Map.entry(
              "DiskIoCounters.transferLatencyNanos", "a Windows figure (LogicalDisk\\Avg. Disk sec/Transfer's total)"),
          Map.entry("NodeSystem.maxThreads", "the kubelet's rlimit.maxpid: /stats/summary"));

  /** node_exporter's meminfo family of one {@code /proc/meminfo} field, with node_exporter's own mixed case. */
  private static MetricFamilyDescriptor memory(String field) {
    return FamiliesBuilder.gauge(
        "node_memory_" + field + "_bytes", "Memory information field " + field + "_bytes.", List.of());
  }

  private static @Nullable Double seconds(@Nullable Long nanos) {
    return nanos == null ? null : nanos / 1e9;
  }

  private static Double orZero(@Nullable Double value) {
    return value == null ? 0.0 : value;
  }

  private static @Nullable Integer readOnly(FilesystemUsage fs) {
    Boolean readOnly = fs.readOnly();
    return readOnly == null ? null : readOnly ? 1 : 0;
  }
}
