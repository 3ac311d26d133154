package io.winstats.cri;

import org.jspecify.annotations.Nullable;

/**
 * Size and free space of the filesystem holding a path, as {@code statvfs} (or {@code GetDiskFreeSpaceEx}) reports
 * it: what the kubelet takes from cAdvisor's {@code GetDirFsInfo} for the image filesystem and container root
 * filesystems.
 *
 * @param capacityBytes the filesystem's size in bytes
 * @param availableBytes bytes available to unprivileged writers
 * @param inodes total inodes; {@code null} where unknown (off Linux: NTFS has none)
 * @param inodesFree free inodes; {@code null} where unknown
 */
public record FilesystemCapacity(
    long capacityBytes, long availableBytes, @Nullable Long inodes, @Nullable Long inodesFree) {
  public FilesystemCapacity {
    if (capacityBytes < 0 || availableBytes < 0) {
      throw new IllegalArgumentException(
          "capacity and available bytes must not be negative: " + capacityBytes + ", " + availableBytes);
    }
    if ((inodes != null && inodes < 0) || (inodesFree != null && inodesFree < 0)) {
      throw new IllegalArgumentException("inodes must not be negative: " + inodes + ", " + inodesFree);
    }
  }
}
