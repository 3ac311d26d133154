package io.winstats.perfcounters;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Cumulative I/O counters of one physical disk ({@code \PhysicalDisk(*)} on Windows), the figures windows_exporter
 * v0.31.8's physical_disk collector serves ({@code internal/collector/physical_disk/physical_disk.go:244-326@v0.31.8}).
 *
 * @param instance the PDH instance: the disk number and the drive letters of its volumes ({@code 0 C: D:}, {@code 1})
 * @param readTimeNanos time busy reading, from {@code % Disk Read Time}
 * @param writeTimeNanos time busy writing, from {@code % Disk Write Time}
 * @param idleTimeNanos time idle, from {@code % Idle Time}
 * @param splitIos I/Os split into several, from {@code Split IO/Sec}
 * @param queueLength requests in flight now (a gauge)
 * @param readLatencyNanos the sum of every read's duration ({@code Avg. Disk sec/Read}'s FirstValue); none where the
 *     source has no total (a counter log holds the average over each interval only)
 * @param writeLatencyNanos the same for writes ({@code Avg. Disk sec/Write})
 * @param transferLatencyNanos the same for every transfer ({@code Avg. Disk sec/Transfer})
 */
@RecordBuilder
public record PhysicalDiskCounters(
    String instance,
    long readBytes,
    long writtenBytes,
    long reads,
    long writes,
    long readTimeNanos,
    long writeTimeNanos,
    long idleTimeNanos,
    long splitIos,
    long queueLength,
    @Nullable Long readLatencyNanos,
    @Nullable Long writeLatencyNanos,
    @Nullable Long transferLatencyNanos) {
  public PhysicalDiskCounters {
    Objects.requireNonNull(instance, "instance");
  }

  /**
   * The disk number: the instance up to its first space, as windows_exporter derives its {@code disk} label ({@code
   * strings.Cut(data.Name, " ")}, {@code physical_disk.go:240-242@v0.31.8}).
   */
  public String diskNumber() {
    int space = instance.indexOf(' ');
    return space < 0 ? instance : instance.substring(0, space);
  }

  /** A builder for {@code instance} with every counter 0 and no latency total; a source sets each by name. */
  public static PhysicalDiskCountersBuilder builder(String instance) {
    return PhysicalDiskCountersBuilder.builder().instance(instance);
  }
}
