package io.winstats.perfcounters;

import io.soabase.recordbuilder.core.RecordBuilder;
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
@RecordBuilder
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

  /**
   * A builder for the FilesystemUsage of {@code device}, {@code mountpoint}, {@code fsType}, every other component 0
   * or absent until set by name.
   */
  public static FilesystemUsageBuilder builder(String device, String mountpoint, String fsType) {
    return FilesystemUsageBuilder.builder().device(device).mountpoint(mountpoint).fsType(fsType);
  }
}
