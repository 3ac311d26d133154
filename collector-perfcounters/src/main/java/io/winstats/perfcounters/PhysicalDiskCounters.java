package io.winstats.perfcounters;

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
  public static Builder builder(String instance) {
    return new Builder(instance);
  }

  /** Names each counter of a {@link PhysicalDiskCounters}; not thread-safe. */
  public static final class Builder {
    private final String instance;
    private long readBytes;
    private long writtenBytes;
    private long reads;
    private long writes;
    private long readTimeNanos;
    private long writeTimeNanos;
    private long idleTimeNanos;
    private long splitIos;
    private long queueLength;
    private @Nullable Long readLatencyNanos;
    private @Nullable Long writeLatencyNanos;
    private @Nullable Long transferLatencyNanos;

    private Builder(String instance) {
      this.instance = Objects.requireNonNull(instance, "instance");
    }

    public Builder readBytes(long value) {
      this.readBytes = value;
      return this;
    }

    public Builder writtenBytes(long value) {
      this.writtenBytes = value;
      return this;
    }

    public Builder reads(long value) {
      this.reads = value;
      return this;
    }

    public Builder writes(long value) {
      this.writes = value;
      return this;
    }

    public Builder readTimeNanos(long value) {
      this.readTimeNanos = value;
      return this;
    }

    public Builder writeTimeNanos(long value) {
      this.writeTimeNanos = value;
      return this;
    }

    public Builder idleTimeNanos(long value) {
      this.idleTimeNanos = value;
      return this;
    }

    public Builder splitIos(long value) {
      this.splitIos = value;
      return this;
    }

    public Builder queueLength(long value) {
      this.queueLength = value;
      return this;
    }

    public Builder readLatencyNanos(@Nullable Long value) {
      this.readLatencyNanos = value;
      return this;
    }

    public Builder writeLatencyNanos(@Nullable Long value) {
      this.writeLatencyNanos = value;
      return this;
    }

    public Builder transferLatencyNanos(@Nullable Long value) {
      this.transferLatencyNanos = value;
      return this;
    }

    public PhysicalDiskCounters build() {
      return new PhysicalDiskCounters(
          instance,
          readBytes,
          writtenBytes,
          reads,
          writes,
          readTimeNanos,
          writeTimeNanos,
          idleTimeNanos,
          splitIos,
          queueLength,
          readLatencyNanos,
          writeLatencyNanos,
          transferLatencyNanos);
    }
  }
}
