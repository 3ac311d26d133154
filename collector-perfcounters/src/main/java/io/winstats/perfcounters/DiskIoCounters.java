package io.winstats.perfcounters;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Cumulative I/O counters of one block device or logical disk.
 *
 * @param device the device ({@code vda}; {@code C:} on Windows)
 * @param ioTimeNanos time the device had I/O in flight (Linux); on Windows total time minus idle time
 * @param queueLength requests in flight now (a gauge)
 * @param weightedIoTimeNanos time spent doing I/O weighted by the requests in flight ({@code /proc/diskstats} field
 *     11, Linux only): the I/O time times the queue depth, what node_exporter serves for disk saturation
 */
public record DiskIoCounters(
    String device,
    long readBytes,
    long writtenBytes,
    long reads,
    long writes,
    long readTimeNanos,
    long writeTimeNanos,
    long ioTimeNanos,
    long queueLength,
    @Nullable Long weightedIoTimeNanos) {
  public DiskIoCounters {
    Objects.requireNonNull(device, "device");
  }

  /** Counters of a source without a weighted I/O time (Windows, a counter log). */
  public DiskIoCounters(
      String device,
      long readBytes,
      long writtenBytes,
      long reads,
      long writes,
      long readTimeNanos,
      long writeTimeNanos,
      long ioTimeNanos,
      long queueLength) {
    this(device, readBytes, writtenBytes, reads, writes, readTimeNanos, writeTimeNanos, ioTimeNanos, queueLength, null);
  }
}
