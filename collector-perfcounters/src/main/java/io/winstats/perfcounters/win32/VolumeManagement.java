package io.winstats.perfcounters.win32;

import java.util.List;
import java.util.Objects;

/**
 * The narrow port to kernel32's volume management functions and the volume IOCTL windows_exporter v0.31.8's
 * logical_disk collector calls ({@code internal/collector/logical_disk/logical_disk.go:580-727@v0.31.8}), in Java
 * terms: strings decoded, multi-strings split, handles opened and closed inside each call.
 *
 * <p>Every failure is a {@link Win32Exception} naming the function and its {@code GetLastError} code. Implementations
 * may be called from one thread at a time.
 */
public interface VolumeManagement {
  /** {@code DRIVE_UNKNOWN} (winbase.h). */
  int DRIVE_UNKNOWN = 0;
  /** {@code DRIVE_NO_ROOT_DIR}: the root path is invalid, no volume is mounted there. */
  int DRIVE_NO_ROOT_DIR = 1;
  /** {@code DRIVE_REMOVABLE}. */
  int DRIVE_REMOVABLE = 2;
  /** {@code DRIVE_FIXED}. */
  int DRIVE_FIXED = 3;
  /** {@code DRIVE_REMOTE}. */
  int DRIVE_REMOTE = 4;
  /** {@code DRIVE_CDROM}. */
  int DRIVE_CDROM = 5;
  /** {@code DRIVE_RAMDISK}. */
  int DRIVE_RAMDISK = 6;
  /** {@code FILE_READ_ONLY_VOLUME} (winnt.h), a bit of the file system flags. */
  int FILE_READ_ONLY_VOLUME = 0x0008_0000;

  /**
   * {@code GetVolumeInformationW}'s answers.
   *
   * @param volumeName {@code lpVolumeNameBuffer}, the label; empty when the volume has none
   * @param serialNumber {@code lpVolumeSerialNumber}, a {@code DWORD}
   * @param fileSystemFlags the flags {@code GetVolumeInformationW} wrote ({@code FILE_READ_ONLY_VOLUME}, ...)
   * @param fileSystemName {@code lpFileSystemNameBuffer}
   */
  record VolumeInformation(String volumeName, int serialNumber, int fileSystemFlags, String fileSystemName) {
    public VolumeInformation {
      Objects.requireNonNull(volumeName, "volumeName");
      Objects.requireNonNull(fileSystemName, "fileSystemName");
    }
  }

  /**
   * {@code FindFirstVolumeW}, then {@code FindNextVolumeW} until it fails with {@code ERROR_NO_MORE_FILES}, then
   * {@code FindVolumeClose} (logical_disk.go:669-692@v0.31.8): every volume's GUID path, {@code
   * \\?\Volume{GUID}\}, in the order Windows gives them.
   */
  List<String> findVolumes();

  /**
   * {@code GetVolumePathNamesForVolumeNameW(volumeName, ...)}: the drive letters and mounted folders of the volume
   * ({@code C:\}, {@code C:\mnt\data\}), each ending in a backslash, in Windows' order; empty for a volume that is not
   * mounted. The buffer is grown while the call answers {@code ERROR_MORE_DATA}.
   */
  List<String> volumePathNames(String volumeName);

  /**
   * {@code CreateFileW(devicePath, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
   * FILE_ATTRIBUTE_READONLY, NULL)}, {@code DeviceIoControl(IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS)} and {@code
   * CloseHandle} (logical_disk.go:592-627@v0.31.8): the {@code DiskNumber} of each of {@code VOLUME_DISK_EXTENTS}'
   * {@code NumberOfDiskExtents} extents, in their order, as unsigned {@code DWORD}s.
   */
  List<Long> diskNumbers(String devicePath);

  /** {@code GetDriveTypeW(rootPath)}: a {@code DRIVE_*} code; it cannot fail ({@link #DRIVE_NO_ROOT_DIR} instead). */
  int driveType(String rootPath);

  /**
   * {@code GetVolumeInformationW(rootPath, label[MAX_PATH + 1], &serial, &maxComponentLength, &flags,
   * fileSystem[MAX_PATH + 1])} (logical_disk.go:640-650@v0.31.8).
   */
  VolumeInformation volumeInformation(String rootPath);
}
