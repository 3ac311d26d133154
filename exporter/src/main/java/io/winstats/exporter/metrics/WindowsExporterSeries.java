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
import java.util.EnumSet;
import java.util.List;
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
  public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
    return FAMILIES;
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
            f.add(CPU_TIME_TOTAL, nanos / 1e9, Labels.of("core", core.core(), "mode", mode.label()), none);
          }
        }
      }
      f.add(CPU_LOGICAL_PROCESSOR, node.cpu().logicalCores(), Labels.EMPTY, none);
      f.add(CS_LOGICAL_PROCESSORS, node.cpu().logicalCores(), Labels.EMPTY, none);
    }
    NodeMemory m = node.memory();
    if (m != null) {
      f.addIfPresent(MEMORY_AVAILABLE_BYTES, m.availableBytes(), Labels.EMPTY, none);
      f.addIfPresent(MEMORY_CACHE_BYTES, m.cacheBytes(), Labels.EMPTY, none);
      f.addIfPresent(MEMORY_COMMITTED_BYTES, m.committedBytes(), Labels.EMPTY, none);
      f.addIfPresent(MEMORY_COMMIT_LIMIT, m.commitLimitBytes(), Labels.EMPTY, none);
      f.addIfPresent(MEMORY_FREE_AND_ZERO_PAGE_LIST_BYTES, m.freeBytes(), Labels.EMPTY, none);
      f.addIfPresent(MEMORY_PHYSICAL_TOTAL_BYTES, m.totalBytes(), Labels.EMPTY, none);
      if (m.pageFaults() != null) {
        f.add(MEMORY_PAGE_FAULTS_TOTAL, m.pageFaults(), Labels.EMPTY, none);
      }
      f.addIfPresent(MEMORY_MODIFIED_PAGE_LIST_BYTES, m.modifiedPageListBytes(), Labels.EMPTY, none);
      f.addIfPresent(MEMORY_STANDBY_CACHE_CORE_BYTES, m.standbyCacheCoreBytes(), Labels.EMPTY, none);
      f.addIfPresent(
          MEMORY_STANDBY_CACHE_NORMAL_PRIORITY_BYTES, m.standbyCacheNormalPriorityBytes(), Labels.EMPTY, none);
      f.addIfPresent(MEMORY_STANDBY_CACHE_RESERVE_BYTES, m.standbyCacheReserveBytes(), Labels.EMPTY, none);
      if (m.swapPageOperations() != null) {
        f.add(MEMORY_SWAP_PAGE_OPERATIONS_TOTAL, m.swapPageOperations(), Labels.EMPTY, none);
      }
      f.addIfPresent(OS_VISIBLE_MEMORY_BYTES, m.totalBytes(), Labels.EMPTY, none);
      f.addIfPresent(CS_PHYSICAL_MEMORY_BYTES, m.totalBytes(), Labels.EMPTY, none);
    }
    for (NetworkInterfaceCounters nic : node.interfaces()) {
      // windows_exporter 0.30+ labels with the PDH instance name as it is (internal/collector/net/net.go); Windows
      // itself already writes ( ) # / \ in adapter names as [ ] _ _ _ there. Older releases replaced every
      // non-alphanumeric character with _.
      Labels l = Labels.of("nic", nic.name());
      f.add(NET_BYTES_RECEIVED_TOTAL, nic.rxBytes(), l, none);
      f.add(NET_BYTES_SENT_TOTAL, nic.txBytes(), l, none);
      f.add(NET_BYTES_TOTAL, nic.rxBytes() + nic.txBytes(), l, none);
      f.add(NET_PACKETS_RECEIVED_TOTAL, nic.rxPackets(), l, none);
      f.add(NET_PACKETS_SENT_TOTAL, nic.txPackets(), l, none);
      f.add(NET_PACKETS_TOTAL, nic.rxPackets() + nic.txPackets(), l, none);
      f.add(NET_PACKETS_RECEIVED_ERRORS_TOTAL, nic.rxErrors(), l, none);
      f.add(NET_PACKETS_OUTBOUND_ERRORS_TOTAL, nic.txErrors(), l, none);
      f.add(NET_PACKETS_RECEIVED_DISCARDED_TOTAL, nic.rxDropped(), l, none);
      f.add(NET_PACKETS_OUTBOUND_DISCARDED_TOTAL, nic.txDropped(), l, none);
    }
    for (FilesystemUsage fs : node.filesystems()) {
      Labels l = Labels.of("volume", fs.device());
      f.add(LOGICAL_DISK_SIZE_BYTES, fs.capacityBytes(), l, none);
      f.add(LOGICAL_DISK_FREE_BYTES, fs.availableBytes(), l, none);
    }
    for (DiskIoCounters d : node.disks()) {
      Labels l = Labels.of("volume", d.device());
      f.add(LOGICAL_DISK_READ_BYTES_TOTAL, d.readBytes(), l, none);
      f.add(LOGICAL_DISK_WRITE_BYTES_TOTAL, d.writtenBytes(), l, none);
      f.add(LOGICAL_DISK_READS_TOTAL, d.reads(), l, none);
      f.add(LOGICAL_DISK_WRITES_TOTAL, d.writes(), l, none);
      f.add(LOGICAL_DISK_READ_SECONDS_TOTAL, d.readTimeNanos() / 1e9, l, none);
      f.add(LOGICAL_DISK_WRITE_SECONDS_TOTAL, d.writeTimeNanos() / 1e9, l, none);
      f.add(LOGICAL_DISK_REQUESTS_QUEUED, d.queueLength(), l, none);
    }
    NodeSystem s = node.system();
    if (s != null) {
      f.add(SYSTEM_PROCESSES, s.processes(), Labels.EMPTY, none);
      f.addIfPresent(SYSTEM_THREADS, s.threads(), Labels.EMPTY, none);
      if (s.contextSwitches() != null) {
        f.add(SYSTEM_CONTEXT_SWITCHES_TOTAL, s.contextSwitches(), Labels.EMPTY, none);
      }
      f.addIfPresent(SYSTEM_PROCESSOR_QUEUE_LENGTH, s.processorQueueLength(), Labels.EMPTY, none);
      if (s.bootTime() != null) {
        f.add(SYSTEM_BOOT_TIME_TIMESTAMP, s.bootTime().getEpochSecond(), Labels.EMPTY, none);
        f.add(SYSTEM_BOOT_TIME_TIMESTAMP_SECONDS, s.bootTime().getEpochSecond(), Labels.EMPTY, none);
      }
    }
    return f.build();
  }
  private static final List<String> NIC = List.of("nic");
  private static final List<String> VOLUME = List.of("volume");

  static final MetricFamilyDescriptor CPU_TIME_TOTAL =
      counter(
          "windows_cpu_time_total",
          "Time that processor spent in different modes (dpc, idle, interrupt, privileged, user)",
          List.of("core", "mode"));
  static final MetricFamilyDescriptor CPU_LOGICAL_PROCESSOR =
      gauge("windows_cpu_logical_processor", "Total number of logical processors", List.of());
  static final MetricFamilyDescriptor CS_LOGICAL_PROCESSORS =
      gauge(
          "windows_cs_logical_processors",
          "Deprecated name (cs collector) of the number of logical processors; kept for the kubernetes-mixin Windows rules.",
          List.of());
  static final MetricFamilyDescriptor MEMORY_AVAILABLE_BYTES =
      gauge(
          "windows_memory_available_bytes",
          "The amount of physical memory immediately available for allocation to a process or for system use.",
          List.of());
  static final MetricFamilyDescriptor MEMORY_CACHE_BYTES =
      gauge("windows_memory_cache_bytes", "Number of bytes currently being used by the file system cache", List.of());
  static final MetricFamilyDescriptor MEMORY_COMMITTED_BYTES =
      gauge("windows_memory_committed_bytes", "Amount of committed virtual memory in bytes", List.of());
  static final MetricFamilyDescriptor MEMORY_COMMIT_LIMIT =
      gauge(
          "windows_memory_commit_limit",
          "Amount of virtual memory, in bytes, that can be committed without having to extend the paging file(s)",
          List.of());
  static final MetricFamilyDescriptor MEMORY_FREE_AND_ZERO_PAGE_LIST_BYTES =
      gauge(
          "windows_memory_free_and_zero_page_list_bytes",
          "The amount of physical memory, in bytes, that is assigned to the free and zero page lists.",
          List.of());
  static final MetricFamilyDescriptor MEMORY_PHYSICAL_TOTAL_BYTES =
      gauge(
          "windows_memory_physical_total_bytes",
          "The physical memory installed (GlobalMemoryStatusEx.ullTotalPhys).",
          List.of());
  static final MetricFamilyDescriptor MEMORY_PAGE_FAULTS_TOTAL =
      counter(
          "windows_memory_page_faults_total",
          "Overall rate at which faulted pages are handled by the processor",
          List.of());
  // The next five as windows_exporter v0.31 declares them (internal/collector/memory/memory.go), help verbatim;
  // kube-prometheus-stack's windows.node.rules and USE Method / Node(Windows) query them.
  static final MetricFamilyDescriptor MEMORY_MODIFIED_PAGE_LIST_BYTES =
      gauge(
          "windows_memory_modified_page_list_bytes",
          "The amount of physical memory, in bytes, that is assigned to the modified page list. This memory contains"
              + " cached data and code that is not actively in use by processes, the system and the system cache"
              + " (ModifiedPageListBytes)",
          List.of());
  static final MetricFamilyDescriptor MEMORY_STANDBY_CACHE_CORE_BYTES =
      gauge(
          "windows_memory_standby_cache_core_bytes",
          "The amount of physical memory, in bytes, that is assigned to the core standby cache page lists. This memory"
              + " contains cached data and code that is not actively in use by processes, the system and the system"
              + " cache (StandbyCacheCoreBytes)",
          List.of());
  static final MetricFamilyDescriptor MEMORY_STANDBY_CACHE_NORMAL_PRIORITY_BYTES =
      gauge(
          "windows_memory_standby_cache_normal_priority_bytes",
          "The amount of physical memory, in bytes, that is assigned to the normal priority standby cache page lists."
              + " This memory contains cached data and code that is not actively in use by processes, the system and"
              + " the system cache (StandbyCacheNormalPriorityBytes)",
          List.of());
  static final MetricFamilyDescriptor MEMORY_STANDBY_CACHE_RESERVE_BYTES =
      gauge(
          "windows_memory_standby_cache_reserve_bytes",
          "The amount of physical memory, in bytes, that is assigned to the reserve standby cache page lists. This"
              + " memory contains cached data and code that is not actively in use by processes, the system and the"
              + " system cache (StandbyCacheReserveBytes)",
          List.of());
  static final MetricFamilyDescriptor MEMORY_SWAP_PAGE_OPERATIONS_TOTAL =
      counter(
          "windows_memory_swap_page_operations_total",
          "Total number of swap page read and writes (PagesPerSec)",
          List.of());
  static final MetricFamilyDescriptor OS_VISIBLE_MEMORY_BYTES =
      gauge(
          "windows_os_visible_memory_bytes",
          "Deprecated name (removed in windows_exporter v0.31) of the physical memory; kept for the kubernetes-mixin Windows rules.",
          List.of());
  static final MetricFamilyDescriptor CS_PHYSICAL_MEMORY_BYTES =
      gauge(
          "windows_cs_physical_memory_bytes",
          "Deprecated name of the physical memory (windows_exporter cs collector).",
          List.of());
  static final MetricFamilyDescriptor NET_BYTES_RECEIVED_TOTAL =
      counter("windows_net_bytes_received_total", "Total bytes received by interface", NIC);
  static final MetricFamilyDescriptor NET_BYTES_SENT_TOTAL =
      counter("windows_net_bytes_sent_total", "Total bytes transmitted by interface", NIC);
  static final MetricFamilyDescriptor NET_BYTES_TOTAL =
      counter("windows_net_bytes_total", "Total bytes received and transmitted by interface", NIC);
  static final MetricFamilyDescriptor NET_PACKETS_RECEIVED_TOTAL =
      counter("windows_net_packets_received_total", "Total packets received by interface", NIC);
  static final MetricFamilyDescriptor NET_PACKETS_SENT_TOTAL =
      counter("windows_net_packets_sent_total", "Total packets transmitted by interface", NIC);
  static final MetricFamilyDescriptor NET_PACKETS_TOTAL =
      counter("windows_net_packets_total", "Total packets received and transmitted by interface", NIC);
  static final MetricFamilyDescriptor NET_PACKETS_RECEIVED_ERRORS_TOTAL =
      counter(
          "windows_net_packets_received_errors_total",
          "Total packets that could not be received due to errors",
          NIC);
  static final MetricFamilyDescriptor NET_PACKETS_OUTBOUND_ERRORS_TOTAL =
      counter(
          "windows_net_packets_outbound_errors_total",
          "Total packets that could not be transmitted due to errors",
          NIC);
  static final MetricFamilyDescriptor NET_PACKETS_RECEIVED_DISCARDED_TOTAL =
      counter(
          "windows_net_packets_received_discarded_total",
          "Total inbound packets that were chosen to be discarded even though no errors had been detected",
          NIC);
  static final MetricFamilyDescriptor NET_PACKETS_OUTBOUND_DISCARDED_TOTAL =
      counter(
          "windows_net_packets_outbound_discarded_total",
          "Total outbound packets that were chosen to be discarded even though no errors had been detected",
          NIC);
  static final MetricFamilyDescriptor LOGICAL_DISK_SIZE_BYTES =
      gauge("windows_logical_disk_size_bytes", "Total space in bytes (LogicalDisk.PercentFreeSpace_Base)", VOLUME);
  static final MetricFamilyDescriptor LOGICAL_DISK_FREE_BYTES =
      gauge("windows_logical_disk_free_bytes", "Free space in bytes (LogicalDisk.PercentFreeSpace)", VOLUME);
  static final MetricFamilyDescriptor LOGICAL_DISK_READ_BYTES_TOTAL =
      counter(
          "windows_logical_disk_read_bytes_total",
          "The number of bytes transferred from the disk during read operations",
          VOLUME);
  static final MetricFamilyDescriptor LOGICAL_DISK_WRITE_BYTES_TOTAL =
      counter(
          "windows_logical_disk_write_bytes_total",
          "The number of bytes transferred to the disk during write operations",
          VOLUME);
  static final MetricFamilyDescriptor LOGICAL_DISK_READS_TOTAL =
      counter("windows_logical_disk_reads_total", "The number of read operations on the disk", VOLUME);
  static final MetricFamilyDescriptor LOGICAL_DISK_WRITES_TOTAL =
      counter("windows_logical_disk_writes_total", "The number of write operations on the disk", VOLUME);
  static final MetricFamilyDescriptor LOGICAL_DISK_READ_SECONDS_TOTAL =
      counter(
          "windows_logical_disk_read_seconds_total",
          "Seconds that the disk was busy servicing read requests",
          VOLUME);
  static final MetricFamilyDescriptor LOGICAL_DISK_WRITE_SECONDS_TOTAL =
      counter(
          "windows_logical_disk_write_seconds_total",
          "Seconds that the disk was busy servicing write requests",
          VOLUME);
  static final MetricFamilyDescriptor LOGICAL_DISK_REQUESTS_QUEUED =
      gauge("windows_logical_disk_requests_queued", "The number of requests queued to the disk", VOLUME);
  static final MetricFamilyDescriptor SYSTEM_PROCESSES =
      gauge("windows_system_processes", "Current number of processes", List.of());
  static final MetricFamilyDescriptor SYSTEM_THREADS =
      gauge("windows_system_threads", "Current number of threads", List.of());
  static final MetricFamilyDescriptor SYSTEM_CONTEXT_SWITCHES_TOTAL =
      counter("windows_system_context_switches_total", "Total number of context switches", List.of());
  static final MetricFamilyDescriptor SYSTEM_PROCESSOR_QUEUE_LENGTH =
      gauge("windows_system_processor_queue_length", "Length of processor queue", List.of());
  static final MetricFamilyDescriptor SYSTEM_BOOT_TIME_TIMESTAMP =
      gauge("windows_system_boot_time_timestamp", "Unix timestamp of system boot time", List.of());
  static final MetricFamilyDescriptor SYSTEM_BOOT_TIME_TIMESTAMP_SECONDS =
      gauge(
          "windows_system_boot_time_timestamp_seconds",
          "Deprecated name (removed in windows_exporter v0.31) of the boot time; kept for the kubernetes-mixin Windows rules.",
          List.of());

  /** Every family, in the order a full sample first serves them. */
  static final List<MetricFamilyDescriptor> FAMILIES =
      List.of(
          CPU_TIME_TOTAL,
          CPU_LOGICAL_PROCESSOR,
          CS_LOGICAL_PROCESSORS,
          MEMORY_AVAILABLE_BYTES,
          MEMORY_CACHE_BYTES,
          MEMORY_COMMITTED_BYTES,
          MEMORY_COMMIT_LIMIT,
          MEMORY_FREE_AND_ZERO_PAGE_LIST_BYTES,
          MEMORY_PHYSICAL_TOTAL_BYTES,
          MEMORY_PAGE_FAULTS_TOTAL,
          MEMORY_MODIFIED_PAGE_LIST_BYTES,
          MEMORY_STANDBY_CACHE_CORE_BYTES,
          MEMORY_STANDBY_CACHE_NORMAL_PRIORITY_BYTES,
          MEMORY_STANDBY_CACHE_RESERVE_BYTES,
          MEMORY_SWAP_PAGE_OPERATIONS_TOTAL,
          OS_VISIBLE_MEMORY_BYTES,
          CS_PHYSICAL_MEMORY_BYTES,
          NET_BYTES_RECEIVED_TOTAL,
          NET_BYTES_SENT_TOTAL,
          NET_BYTES_TOTAL,
          NET_PACKETS_RECEIVED_TOTAL,
          NET_PACKETS_SENT_TOTAL,
          NET_PACKETS_TOTAL,
          NET_PACKETS_RECEIVED_ERRORS_TOTAL,
          NET_PACKETS_OUTBOUND_ERRORS_TOTAL,
          NET_PACKETS_RECEIVED_DISCARDED_TOTAL,
          NET_PACKETS_OUTBOUND_DISCARDED_TOTAL,
          LOGICAL_DISK_SIZE_BYTES,
          LOGICAL_DISK_FREE_BYTES,
          LOGICAL_DISK_READ_BYTES_TOTAL,
          LOGICAL_DISK_WRITE_BYTES_TOTAL,
          LOGICAL_DISK_READS_TOTAL,
          LOGICAL_DISK_WRITES_TOTAL,
          LOGICAL_DISK_READ_SECONDS_TOTAL,
          LOGICAL_DISK_WRITE_SECONDS_TOTAL,
          LOGICAL_DISK_REQUESTS_QUEUED,
          SYSTEM_PROCESSES,
          SYSTEM_THREADS,
          SYSTEM_CONTEXT_SWITCHES_TOTAL,
          SYSTEM_PROCESSOR_QUEUE_LENGTH,
          SYSTEM_BOOT_TIME_TIMESTAMP,
          SYSTEM_BOOT_TIME_TIMESTAMP_SECONDS);
}
