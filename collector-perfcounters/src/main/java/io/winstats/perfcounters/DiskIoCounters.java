package io.winstats.perfcounters;

import io.soabase.recordbuilder.core.RecordBuilder;
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
 * @param idleTimeNanos time idle, from {@code % Idle Time} (Windows only)
 * @param splitIos I/Os split into several, from {@code Split IO/Sec} (Windows only)
 * @param readQueueNanos the read queue length integrated over time, in request-nanoseconds, from {@code Avg. Disk
 *     Read Queue Length} (Windows only): its increase over an interval divided by the interval is the mean read queue
 * @param writeQueueNanos the same for writes, from {@code Avg. Disk Write Queue Length} (Windows only)
 * @param readLatencyNanos the sum of every read's duration ({@code Avg. Disk sec/Read}'s FirstValue); none where the
 *     source has no total (Linux; a counter log holds the average over each interval only)
 * @param writeLatencyNanos the same for writes ({@code Avg. Disk sec/Write})
 * @param transferLatencyNanos the same for every transfer ({@code Avg. Disk sec/Transfer})
 */
@RecordBuilder
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
    @Nullable Long weightedIoTimeNanos,
    @Nullable Long idleTimeNanos,
    @Nullable Long splitIos,
    @Nullable Long readQueueNanos,
    @Nullable Long writeQueueNanos,
    @Nullable Long readLatencyNanos,
    @Nullable Long writeLatencyNanos,
    @Nullable Long transferLatencyNanos) {
  public DiskIoCounters {
    Objects.requireNonNull(device, "device");
  }

  /** A builder for {@code device}: every counter 0 and no optional figure until a source sets each by name. */
  public static DiskIoCountersBuilder builder(String device) {
    return DiskIoCountersBuilder.builder().device(device);
  }
}
