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

  /**
   * A builder for {@code device} with every counter 0 and no optional figure (none a source does not read); a source
   * sets each by name.
   */
  public static Builder builder(String device) {
    return new Builder(device);
  }

  /** Names each counter of a {@link DiskIoCounters}; not thread-safe. */
  public static final class Builder {
    private final String device;
    private long readBytes;
    private long writtenBytes;
    private long reads;
    private long writes;
    private long readTimeNanos;
    private long writeTimeNanos;
    private long ioTimeNanos;
    private long queueLength;
    private @Nullable Long weightedIoTimeNanos;
    private @Nullable Long idleTimeNanos;
    private @Nullable Long splitIos;
    private @Nullable Long readQueueNanos;
    private @Nullable Long writeQueueNanos;
    private @Nullable Long readLatencyNanos;
    private @Nullable Long writeLatencyNanos;
    private @Nullable Long transferLatencyNanos;

    private Builder(String device) {
      this.device = Objects.requireNonNull(device, "device");
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

    public Builder ioTimeNanos(long value) {
      this.ioTimeNanos = value;
      return this;
    }

    public Builder queueLength(long value) {
      this.queueLength = value;
      return this;
    }

    /** Linux's weighted I/O time; none (null) on a source without one. */
    public Builder weightedIoTimeNanos(@Nullable Long value) {
      this.weightedIoTimeNanos = value;
      return this;
    }

    public Builder idleTimeNanos(@Nullable Long value) {
      this.idleTimeNanos = value;
      return this;
    }

    public Builder splitIos(@Nullable Long value) {
      this.splitIos = value;
      return this;
    }

    public Builder readQueueNanos(@Nullable Long value) {
      this.readQueueNanos = value;
      return this;
    }

    public Builder writeQueueNanos(@Nullable Long value) {
      this.writeQueueNanos = value;
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

    public DiskIoCounters build() {
      return new DiskIoCounters(
          device,
          readBytes,
          writtenBytes,
          reads,
          writes,
          readTimeNanos,
          writeTimeNanos,
          ioTimeNanos,
          queueLength,
          weightedIoTimeNanos,
          idleTimeNanos,
          splitIos,
          readQueueNanos,
          writeQueueNanos,
          readLatencyNanos,
          writeLatencyNanos,
          transferLatencyNanos);
    }
  }
}
