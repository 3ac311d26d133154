package io.winstats.perfcounters;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Capacity and use of one mounted filesystem or Windows volume.
 *
 * @param device the block device or volume ({@code /dev/vda}, {@code C:})
 * @param mountpoint where it is mounted ({@code /}, {@code C:\})
 * @param fsType the filesystem type ({@code ext4}, {@code NTFS})
 * @param inodes total inodes, absent on Windows
 * @param inodesFree free inodes, absent on Windows
 * @param readOnly whether it is mounted read-only, where the source reads mount options (Linux)
 */
public record FilesystemUsage(
    String device,
    String mountpoint,
    String fsType,
    long capacityBytes,
    long availableBytes,
    long usedBytes,
    @Nullable Long inodes,
    @Nullable Long inodesFree,
    @Nullable Boolean readOnly) {
  public FilesystemUsage {
    Objects.requireNonNull(device, "device");
    Objects.requireNonNull(mountpoint, "mountpoint");
    Objects.requireNonNull(fsType, "fsType");
    NodeMemory.requireNonNegative("capacityBytes", capacityBytes);
    NodeMemory.requireNonNegative("availableBytes", availableBytes);
    NodeMemory.requireNonNegative("usedBytes", usedBytes);
    NodeMemory.requireNonNegative("inodes", inodes);
    NodeMemory.requireNonNegative("inodesFree", inodesFree);
  }

  /** A filesystem whose mount options the source does not read (Windows volumes, a counter log). */
  public FilesystemUsage(
      String device,
      String mountpoint,
      String fsType,
      long capacityBytes,
      long availableBytes,
      long usedBytes,
      @Nullable Long inodes,
      @Nullable Long inodesFree) {
    this(device, mountpoint, fsType, capacityBytes, availableBytes, usedBytes, inodes, inodesFree, null);
  }

  /**
   * A builder for the FilesystemUsage of {@code device}, {@code mountpoint}, {@code fsType}, every other component 0,
   * empty or absent until set by name.
   */
  public static Builder builder(String device, String mountpoint, String fsType) {
    return new Builder(device, mountpoint, fsType);
  }

  /** Names each component of a {@link FilesystemUsage}; not thread-safe. */
  public static final class Builder {
    private final String device;
    private final String mountpoint;
    private final String fsType;
    private long capacityBytes;
    private long availableBytes;
    private long usedBytes;
    private @Nullable Long inodes;
    private @Nullable Long inodesFree;
    private @Nullable Boolean readOnly;

    private Builder(String device, String mountpoint, String fsType) {
      this.device = Objects.requireNonNull(device, "device");
      this.mountpoint = Objects.requireNonNull(mountpoint, "mountpoint");
      this.fsType = Objects.requireNonNull(fsType, "fsType");
    }

    public Builder capacityBytes(long value) {
      this.capacityBytes = value;
      return this;
    }

    public Builder availableBytes(long value) {
      this.availableBytes = value;
      return this;
    }

    public Builder usedBytes(long value) {
      this.usedBytes = value;
      return this;
    }

    public Builder inodes(@Nullable Long value) {
      this.inodes = value;
      return this;
    }

    public Builder inodesFree(@Nullable Long value) {
      this.inodesFree = value;
      return this;
    }

    public Builder readOnly(@Nullable Boolean value) {
      this.readOnly = value;
      return this;
    }

    public FilesystemUsage build() {
      return new FilesystemUsage(
          device,
          mountpoint,
          fsType,
          capacityBytes,
          availableBytes,
          usedBytes,
          inodes,
          inodesFree,
          readOnly);
    }
  }
}
