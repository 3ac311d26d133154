package io.winstats.perfcounters;

import java.util.Objects;

/**
 * Cumulative I/O counters of one block device or logical disk.
 *
 * @param device the device ({@code vda}; {@code C:} on Windows)
 * @param ioTimeNanos time the device had I/O in flight (Linux); on Windows total time minus idle time
 * @param queueLength requests in flight now (a gauge)
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
    long queueLength) {
  public DiskIoCounters {
    Objects.requireNonNull(device, "device");
  }
}
