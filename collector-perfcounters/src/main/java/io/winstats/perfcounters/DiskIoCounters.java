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

  /**
   * A builder for {@code device} with every counter 0 and no weighted I/O time (the sources without one: Windows, a
   * counter log); a source sets each by name.
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
          weightedIoTimeNanos);
    }
  }
}
