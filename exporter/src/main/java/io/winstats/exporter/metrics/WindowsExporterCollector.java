package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.LogicalDiskInfo;
import io.winstats.perfcounters.NetworkAdapter;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.ProcessorCounters;
import io.winstats.perfcounters.WindowsOs;
import io.winstats.perfcounters.WindowsService;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * windows_exporter's collectors whose families {@link WindowsExporterSeries} serves, under their upstream names, each
 * switched by its own {@link Collector} row ({@code --[no-]collector.windows.NAME}), as windows_exporter's {@code
 * --collectors.enabled} list switches them. A family goes with the collector whose counters it reads, so the legacy
 * {@code windows_cs_logical_processors} is cpu's, {@code windows_cs_physical_memory_bytes} and {@code
 * windows_os_visible_memory_bytes} are memory's, and {@code windows_cs_hostname} is os's. windows_exporter's container
 * collector is the daemon's own {@link Collector#CONTAINER} row. A new collector is a constant here, its case in {@link
 * #add} and {@link #families}, and its row in {@link Collector}.
 */
public enum WindowsExporterCollector {
  CPU("cpu"),
  MEMORY("memory"),
  NET("net"),
  LOGICAL_DISK("logical_disk"),
  PHYSICAL_DISK("physical_disk"),
  SYSTEM("system"),
  OS("os"),
  SERVICE("service");

  private final String upstreamName;

  WindowsExporterCollector(String upstreamName) {
    this.upstreamName = upstreamName;
  }

  /** Its name in windows_exporter's {@code --collectors.enabled}. */
  public String upstreamName() {
    return upstreamName;
  }

  /** Its series of {@code node} (windows_exporter sets no timestamps). */
  void add(FamiliesBuilder f, NodeSample node) {
    @Nullable Instant none = null;
    switch (this) {
      case CPU -> {
        if (node.cpu() != null) {
          WindowsExporterSeries.CPU.add(f, node.cpu(), Labels.EMPTY, none);
          for (ProcessorCounters p : node.cpu().processors()) {
            WindowsCpuTables.CORE.add(f, p, Labels.of("core", p.core()), none);
          }
        }
      }
      case MEMORY -> {
        if (node.memory() != null) {
          WindowsMemoryTables.MEMORY.add(f, node.memory(), Labels.EMPTY, none);
        }
      }
      case NET -> {
        for (NetworkInterfaceCounters nic : node.interfaces()) {
          // windows_exporter 0.30+ labels with the PDH instance name as it is (internal/collector/net/net.go);
          // Windows itself already writes ( ) # / \ in adapter names as [ ] _ _ _ there. Older releases replaced
          // every non-alphanumeric character with _.
          WindowsExporterSeries.NET.add(f, nic, Labels.of("nic", nic.name()), none);
        }
        for (NetworkAdapter adapter : node.adapters()) {
          WindowsNetAdapterTables.ADAPTER.add(f, adapter, Labels.EMPTY, none);
        }
      }
      case LOGICAL_DISK -> {
        for (FilesystemUsage fs : node.filesystems()) {
          WindowsExporterSeries.VOLUME_SPACE.add(f, fs, Labels.of("volume", fs.device()), none);
        }
        for (DiskIoCounters d : node.disks()) {
          WindowsExporterSeries.VOLUME_IO.add(f, d, Labels.of("volume", d.device()), none);
        }
        for (LogicalDiskInfo v : node.volumes()) {
          WindowsExporterSeries.VOLUME_INFO.add(f, v, Labels.EMPTY, none);
        }
      }
      case PHYSICAL_DISK -> {
        for (PhysicalDiskCounters d : node.physicalDisks()) {
          WindowsPhysicalDiskTables.DISK.add(f, d, Labels.of("disk", d.diskNumber()), none);
        }
      }
      case SYSTEM -> {
        if (node.system() != null) {
          WindowsExporterSeries.SYSTEM.add(f, node.system(), Labels.EMPTY, none);
        }
      }
      case OS -> {
        WindowsOs os = node.windowsOs();
        if (os != null && os.version() != null) {
          WindowsOsTables.RELEASE.add(f, os.version(), Labels.EMPTY, none);
        }
        if (os != null && os.hostName() != null) {
          WindowsOsTables.HOST.add(f, os.hostName(), Labels.EMPTY, none);
        }
      }
      case SERVICE -> {
        for (WindowsService s : node.services()) {
          WindowsServiceTables.SERVICE.add(f, s, Labels.EMPTY, none);
        }
      }
    }
  }

  /** Its families, in the order {@link #add} first serves them. */
  List<MetricFamilyDescriptor> families() {
    return switch (this) {
      case CPU -> SeriesTable.families(WindowsExporterSeries.CPU, WindowsCpuTables.CORE);
      case MEMORY -> SeriesTable.families(WindowsMemoryTables.MEMORY);
      case NET -> SeriesTable.families(WindowsExporterSeries.NET, WindowsNetAdapterTables.ADAPTER);
      case LOGICAL_DISK ->
          SeriesTable.families(
              WindowsExporterSeries.VOLUME_SPACE, WindowsExporterSeries.VOLUME_IO, WindowsExporterSeries.VOLUME_INFO);
      case PHYSICAL_DISK -> SeriesTable.families(WindowsPhysicalDiskTables.DISK);
      case SYSTEM -> SeriesTable.families(WindowsExporterSeries.SYSTEM);
      case OS -> SeriesTable.families(WindowsOsTables.RELEASE, WindowsOsTables.HOST);
      case SERVICE -> SeriesTable.families(WindowsServiceTables.SERVICE);
    };
  }
}
