package io.winstats.exporter.metrics;

import io.winstats.perfcounters.PhysicalDiskCounters;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * windows_exporter v0.31.8's physical_disk collector ({@code internal/collector/physical_disk/physical_disk.go}): one
 * row per family, in the order it emits them ({@code physical_disk.go:244-326@v0.31.8}), with its names, types and help
 * verbatim ({@code physical_disk.go:132-214@v0.31.8}), labelled {@code disk} with the disk number ({@link
 * PhysicalDiskCounters#diskNumber}). Times in seconds, as its PDH collector scales a 100 ns timer by 1e-7. Served by
 * {@link WindowsExporterSeries}, one part per {@code \PhysicalDisk(*)} instance but {@code _Total}.
 */
final class WindowsPhysicalDiskTables {
  private WindowsPhysicalDiskTables() {}

  static final SeriesTable<PhysicalDiskCounters> DISK =
      SeriesTable.<PhysicalDiskCounters>labelled(List.of("disk"))
          .gauge(
              "windows_physical_disk_requests_queued",
              "The number of requests queued to the disk (PhysicalDisk.CurrentDiskQueueLength)",
              PhysicalDiskCounters::queueLength)
          .counter(
              "windows_physical_disk_read_bytes_total",
              "The number of bytes transferred from the disk during read operations (PhysicalDisk.DiskReadBytesPerSec)",
              PhysicalDiskCounters::readBytes)
          .counter(
              "windows_physical_disk_reads_total",
              "The number of read operations on the disk (PhysicalDisk.DiskReadsPerSec)",
              PhysicalDiskCounters::reads)
          .counter(
              "windows_physical_disk_write_bytes_total",
              "The number of bytes transferred to the disk during write operations (PhysicalDisk.DiskWriteBytesPerSec)",
              PhysicalDiskCounters::writtenBytes)
          .counter(
              "windows_physical_disk_writes_total",
              "The number of write operations on the disk (PhysicalDisk.DiskWritesPerSec)",
              PhysicalDiskCounters::writes)
          .counter(
              "windows_physical_disk_read_seconds_total",
              "Seconds that the disk was busy servicing read requests (PhysicalDisk.PercentDiskReadTime)",
              d -> d.readTimeNanos() / 1e9)
          .counter(
              "windows_physical_disk_write_seconds_total",
              "Seconds that the disk was busy servicing write requests (PhysicalDisk.PercentDiskWriteTime)",
              d -> d.writeTimeNanos() / 1e9)
          .counter(
              "windows_physical_disk_idle_seconds_total",
              "Seconds that the disk was idle (PhysicalDisk.PercentIdleTime)",
              d -> d.idleTimeNanos() / 1e9)
          .counter(
              "windows_physical_disk_split_ios_total",
              "The number of I/Os to the disk were split into multiple I/Os (PhysicalDisk.SplitIOPerSec)",
              PhysicalDiskCounters::splitIos)
          .counter(
              "windows_physical_disk_read_latency_seconds_total",
              "Shows the average time, in seconds, of a read operation from the disk (PhysicalDisk.AvgDiskSecPerRead)",
              d -> seconds(d.readLatencyNanos()))
          .counter(
              "windows_physical_disk_write_latency_seconds_total",
              "Shows the average time, in seconds, of a write operation to the disk (PhysicalDisk.AvgDiskSecPerWrite)",
              d -> seconds(d.writeLatencyNanos()))
          .counter(
              "windows_physical_disk_read_write_latency_seconds_total",
              "Shows the time, in seconds, of the average disk transfer (PhysicalDisk.AvgDiskSecPerTransfer)",
              d -> seconds(d.transferLatencyNanos()))
          .build();

  /** A total the source does not have (a replayed log) adds no point. */
  private static @Nullable Double seconds(@Nullable Long nanos) {
    return nanos == null ? null : nanos / 1e9;
  }
}
