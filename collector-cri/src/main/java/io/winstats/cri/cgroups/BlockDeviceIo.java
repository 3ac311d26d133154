package io.winstats.cri.cgroups;

import java.util.Objects;

/**
 * One block device's IO by one cgroup, hierarchically (the cgroup and its descendants).
 *
 * @param device the device node ({@code /dev/vda}), or {@code major:minor} where {@code /sys/dev/block} has no name
 * @param readBytes bytes read
 * @param writeBytes bytes written
 * @param reads read operations
 * @param writes write operations
 */
public record BlockDeviceIo(
    String device, int major, int minor, long readBytes, long writeBytes, long reads, long writes) {
  public BlockDeviceIo {
    Objects.requireNonNull(device, "device");
  }

  /** A builder for the BlockDeviceIo of {@code device}, every other component 0, empty or absent until set by name. */
  public static Builder builder(String device) {
    return new Builder(device);
  }

  /** Names each component of a {@link BlockDeviceIo}; not thread-safe. */
  public static final class Builder {
    private final String device;
    private int major;
    private int minor;
    private long readBytes;
    private long writeBytes;
    private long reads;
    private long writes;

    private Builder(String device) {
      this.device = Objects.requireNonNull(device, "device");
    }

    public Builder major(int value) {
      this.major = value;
      return this;
    }

    public Builder minor(int value) {
      this.minor = value;
      return this;
    }

    public Builder readBytes(long value) {
      this.readBytes = value;
      return this;
    }

    public Builder writeBytes(long value) {
      this.writeBytes = value;
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

    public BlockDeviceIo build() {
      return new BlockDeviceIo(device, major, minor, readBytes, writeBytes, reads, writes);
    }
  }
}
