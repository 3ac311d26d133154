package io.winstats.perfcounters.win32;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * kernel32's volume management functions in memory, answering as Microsoft Learn documents them:
 *
 * <ul>
 *   <li>{@code FindFirstVolumeW}/{@code FindNextVolumeW}: each volume's GUID path {@code \\?\Volume{GUID}\}, with its
 *       trailing backslash, in the order added;
 *   <li>{@code GetVolumePathNamesForVolumeNameW}: the volume's drive letter and mounted folders, each ending in a
 *       backslash, none for a volume that is not mounted; a volume removed since the enumeration answers {@code
 *       ERROR_FILE_NOT_FOUND};
 *   <li>{@code CreateFileW} opens a volume by its device path: {@code \\.\Volume{GUID}}, {@code \\.\X:} for its drive
 *       letter, or {@code \\.\HarddiskVolumeN}, its NT device's name in the {@code GLOBAL??} namespace, all without a
 *       trailing backslash; any other path is {@code ERROR_FILE_NOT_FOUND}, and a volume can be set to refuse the open
 *       ({@code ERROR_ACCESS_DENIED});
 *   <li>{@code IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS}: the {@code DiskNumber} of each extent, or a set error ({@code
 *       ERROR_INVALID_FUNCTION} where the device does not handle the request, {@code ERROR_NOT_READY} without media);
 *   <li>{@code GetDriveTypeW} and {@code GetVolumeInformationW} take a root path ending in a backslash: {@code
 *       \\?\Volume{GUID}\}, {@code \\?\HarddiskVolumeN\} or one of the volume's mount paths. {@code GetDriveTypeW}
 *       answers {@code DRIVE_NO_ROOT_DIR} for a path that names no volume; {@code GetVolumeInformationW} answers the
 *       label, serial number, flags and file system, or {@code ERROR_NOT_READY} for a removable or CD-ROM drive
 *       without media, or {@code ERROR_PATH_NOT_FOUND} for a path that names no volume.
 * </ul>
 *
 * The values of {@link #kubernetesNode()} are those of a typical Windows Server 2022 node on Azure, made up, not
 * captured. Every call is recorded in {@link #calls}.
 */
public final class FakeVolumeManagement implements VolumeManagement {
  /** One volume as Windows describes it; set its fields to change its answers. */
  public static final class Volume {
    final String volumeName;
    final String deviceName;
    List<String> paths = List.of();
    int driveType = DRIVE_FIXED;
    List<Long> disks = List.of(0L);
    String label = "";
    int serialNumber;
    int flags = 0x03E7_00FF; // NTFS's usual set, without FILE_READ_ONLY_VOLUME
    String fileSystem = "NTFS";
    int openError;
    int extentsError;
    int informationError;
    boolean removed;

    Volume(String guid, String deviceName) {
      this.volumeName = "\\\\?\\Volume{" + guid + "}\\";
      this.deviceName = deviceName;
    }

    public Volume paths(String... value) {
      paths = List.of(value);
      return this;
    }

    public Volume driveType(int value) {
      driveType = value;
      return this;
    }

    public Volume disks(Long... value) {
      disks = List.of(value);
      return this;
    }

    public Volume information(String volumeLabel, int serial, String fileSystemName) {
      label = volumeLabel;
      serialNumber = serial;
      fileSystem = fileSystemName;
      return this;
    }

    /** {@code CreateFileW} fails with {@code code} (0: opens). */
    public Volume openFails(int code) {
      openError = code;
      return this;
    }

    /** {@code DeviceIoControl} fails with {@code code} (0: answers). */
    public Volume extentsFail(int code) {
      extentsError = code;
      return this;
    }

    /** {@code GetVolumeInformationW} fails with {@code code} (0: answers). */
    public Volume informationFails(int code) {
      informationError = code;
      return this;
    }

    /** Removed after the enumeration: {@code GetVolumePathNamesForVolumeNameW} answers ERROR_FILE_NOT_FOUND. */
    public Volume removed() {
      removed = true;
      return this;
    }
  }

  private final List<Volume> volumes = new ArrayList<>();
  private int findError;
  private int pathNamesError;
  public final List<String> calls = new ArrayList<>();

  /** Adds a volume of GUID {@code guid} whose NT device is {@code \Device\<deviceName>}. */
  public Volume volume(String guid, String deviceName) {
    Volume v = new Volume(guid, deviceName);
    volumes.add(v);
    return v;
  }

  /** Makes {@code FindFirstVolumeW} fail with {@code code}, or succeed again with 0. */
  public FakeVolumeManagement findFails(int code) {
    findError = code;
    return this;
  }

  /** Makes {@code GetVolumePathNamesForVolumeNameW} fail with {@code code} for every volume, or answer with 0. */
  public FakeVolumeManagement pathNamesFail(int code) {
    pathNamesError = code;
    return this;
  }

  /**
   * A node's volumes: C: (the OS disk, 0), D: (the temporary disk, 1), the EFI system partition and the recovery
   * partition without a letter, a data volume striped over disks 10 and 2 mounted at {@code C:\mnt\data\}.
   */
  public static FakeVolumeManagement kubernetesNode() {
    FakeVolumeManagement fake = new FakeVolumeManagement();
    fake.volume("b1f3e0c2-0000-0000-0000-100000000000", "HarddiskVolume1")
        .disks(0L)
        .information("", 0x5A3C_11E0, "FAT32");
    fake.volume("b1f3e0c2-0000-0000-0000-300000000000", "HarddiskVolume3")
        .paths("C:\\")
        .disks(0L)
        .information("Windows", 0x0A1B_2C3D, "NTFS");
    fake.volume("b1f3e0c2-0000-0000-0000-400000000000", "HarddiskVolume4")
        .disks(0L)
        .information("Recovery", 0xF00D_CAFE, "NTFS");
    fake.volume("5c2ab6d1-0000-0000-0000-000000000001", "HarddiskVolume5")
        .paths("D:\\")
        .disks(1L)
        .information("Temporary Storage", 0x0000_BEEF, "NTFS");
    fake.volume("9e7d4f20-0000-0000-0000-000000000002", "HarddiskVolume6")
        .paths("C:\\mnt\\data\\")
        .disks(10L, 2L, 2L)
        .information("data", 0x1234_5678, "ReFS");
    return fake;
  }

  @Override
  public List<String> findVolumes() {
    calls.add("FindFirstVolumeW");
    if (findError != 0) {
      throw new Win32Exception("FindFirstVolumeW", findError);
    }
    return volumes.stream().map(v -> v.volumeName).toList();
  }

  @Override
  public List<String> volumePathNames(String volumeName) {
    calls.add("GetVolumePathNamesForVolumeNameW " + volumeName);
    if (pathNamesError != 0) {
      throw new Win32Exception("GetVolumePathNamesForVolumeNameW", pathNamesError);
    }
    for (Volume v : volumes) {
      if (v.volumeName.equals(volumeName)) {
        if (v.removed) {
          throw new Win32Exception("GetVolumePathNamesForVolumeNameW", Win32Exception.ERROR_FILE_NOT_FOUND);
        }
        return v.paths;
      }
    }
    throw new Win32Exception("GetVolumePathNamesForVolumeNameW", Win32Exception.ERROR_FILE_NOT_FOUND);
  }

  @Override
  public List<Long> diskNumbers(String devicePath) {
    calls.add("CreateFileW " + devicePath);
    Volume v = byDevicePath(devicePath);
    if (v == null) {
      throw new Win32Exception("CreateFileW", Win32Exception.ERROR_FILE_NOT_FOUND);
    }
    if (v.openError != 0) {
      throw new Win32Exception("CreateFileW", v.openError);
    }
    calls.add("DeviceIoControl IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS");
    if (v.extentsError != 0) {
      throw new Win32Exception("DeviceIoControl", v.extentsError);
    }
    return v.disks;
  }

  @Override
  public int driveType(String rootPath) {
    calls.add("GetDriveTypeW " + rootPath);
    Volume v = byRootPath(rootPath);
    return v == null ? DRIVE_NO_ROOT_DIR : v.driveType;
  }

  @Override
  public VolumeInformation volumeInformation(String rootPath) {
    calls.add("GetVolumeInformationW " + rootPath);
    Volume v = byRootPath(rootPath);
    if (v == null) {
      throw new Win32Exception("GetVolumeInformationW", Win32Exception.ERROR_PATH_NOT_FOUND);
    }
    if (v.informationError != 0) {
      throw new Win32Exception("GetVolumeInformationW", v.informationError);
    }
    return new VolumeInformation(v.label, v.serialNumber, v.flags, v.fileSystem);
  }

  private @Nullable Volume byDevicePath(String devicePath) {
    for (Volume v : volumes) {
      if (v.removed) {
        continue;
      }
      String guidPath = "\\\\.\\" + v.volumeName.substring(4, v.volumeName.length() - 1);
      boolean letter =
          v.paths.stream().anyMatch(p -> p.length() == 3 && ("\\\\.\\" + p.substring(0, 2)).equals(devicePath));
      if (guidPath.equals(devicePath) || letter || ("\\\\.\\" + v.deviceName).equals(devicePath)) {
        return v;
      }
    }
    return null;
  }

  private @Nullable Volume byRootPath(String rootPath) {
    for (Volume v : volumes) {
      if (v.removed) {
        continue;
      }
      if (v.volumeName.equals(rootPath)
          || ("\\\\?\\" + v.deviceName + "\\").equals(rootPath)
          || v.paths.contains(rootPath)) {
        return v;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "FakeVolumeManagement" + Objects.toString(calls);
  }
}
