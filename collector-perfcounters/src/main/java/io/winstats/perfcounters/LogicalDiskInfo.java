package io.winstats.perfcounters;

import java.util.Objects;

/**
 * What the volume management functions say of one {@code \LogicalDisk(*)} instance, in the terms windows_exporter
 * v0.31.8's logical_disk collector labels {@code windows_logical_disk_info} with ({@code getVolumeInfo}, {@code
 * internal/collector/logical_disk/logical_disk.go:580-667@v0.31.8}). Upstream serves the series with every label but
 * {@code volume} empty when the volume could not be read, and so does this record ({@link #unread}).
 *
 * @param volume the PDH instance name ({@code C:}, {@code HarddiskVolume3})
 * @param disk the disk numbers of the volume's extents ({@code IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS}), in decimal,
 *     sorted as strings, each once, joined by {@code ;} (logical_disk.go:618-630,660@v0.31.8)
 * @param type {@code GetDriveTypeW}'s answer as upstream names it: {@code unknown}, {@code norootdir}, {@code
 *     removable}, {@code fixed}, {@code remote}, {@code cdrom}, {@code ramdisk} (logical_disk.go:556-575@v0.31.8)
 * @param volumeName the volume label ({@code GetVolumeInformationW}'s {@code lpVolumeNameBuffer})
 * @param filesystem the file system's name ({@code lpFileSystemNameBuffer}: {@code NTFS}, {@code ReFS}, {@code FAT32})
 * @param serialNumber the volume serial number in upper-case hex without leading zeros, as Go's {@code %X} writes it
 */
public record LogicalDiskInfo(
    String volume, String disk, String type, String volumeName, String filesystem, String serialNumber) {

  public LogicalDiskInfo {
    Objects.requireNonNull(volume, "volume");
    Objects.requireNonNull(disk, "disk");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(volumeName, "volumeName");
    Objects.requireNonNull(filesystem, "filesystem");
    Objects.requireNonNull(serialNumber, "serialNumber");
  }

  /** A volume that could not be read: every label but {@code volume} empty, as upstream's zero {@code volumeInfo}. */
  public static LogicalDiskInfo unread(String volume) {
    return new LogicalDiskInfo(volume, "", "", "", "", "");
  }
}
