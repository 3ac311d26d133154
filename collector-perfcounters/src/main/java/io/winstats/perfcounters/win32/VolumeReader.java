package io.winstats.perfcounters.win32;

import io.winstats.perfcounters.LogicalDiskInfo;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.win32.VolumeManagement.VolumeInformation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The volume information of a Windows node's {@code \LogicalDisk(*)} instances, read once per sample as
 * windows_exporter v0.31.8's logical_disk collector reads it on every scrape for {@code windows_logical_disk_info}
 * ({@code internal/collector/logical_disk/logical_disk.go:364-399,580-727@v0.31.8}):
 *
 * <ol>
 *   <li>every volume's first mount path, without its trailing backslash, mapped to its GUID path without its own
 *       ({@code getAllMountedVolumes}, 669-727): a volume {@code GetVolumePathNamesForVolumeNameW} answers {@code
 *       ERROR_FILE_NOT_FOUND} or no path for is not mounted and left out;
 *   <li>for each instance, its GUID path ({@code Volume{GUID}}) if the instance is a mount path of the map ({@code
 *       C:}), else the instance itself ({@code HarddiskVolume3}), opened as {@code \\.\} + that path for its disk
 *       extents; the root {@code GetDriveTypeW} and {@code GetVolumeInformationW} are asked about is that path with a
 *       backslash, prefixed {@code \\?\} when it holds {@code Volume} (582-650).
 * </ol>
 *
 * <p>The instances are the caller's: upstream labels one series per {@code \LogicalDisk(*)} instance but {@code
 * _Total} (its PDH collector drops {@code _Total} unless asked for it, {@code internal/pdh/collector.go:380@v0.31.8})
 * that its volume filter keeps, by default all ({@code --collector.logical_disk.volume-include=.+}, {@code
 * volume-exclude} empty, logical_disk.go:57-63,140-148); the daemon serves its other {@code windows_logical_disk_*}
 * series for those same instances.
 *
 * <p><b>Failure</b>, as upstream: a volume that cannot be opened, whose extents cannot be read or number none, or whose
 * information cannot be read is still served, with every label but {@code volume} empty, and one WARN line per change
 * of its failure (upstream warns on every scrape); a CD-ROM or removable drive whose information cannot be read (no
 * media) is served so without a line (652-654). A failed enumeration fails the whole part ({@link NodePart#VOLUMES}
 * missing, one WARN line per change, one INFO line on recovery); upstream's collector then fails with its PDH series
 * too, the daemon's counters stay.
 *
 * <p>Not thread-safe: one sampling thread.
 */
public final class VolumeReader {
  private static final String LOCAL_DEVICE = "\\\\.\\";
  private static final String WIN32_FILE = "\\\\?\\";

  private final VolumeManagement volumes;
  private final Logger log;
  private final PartRead part;
  private final Map<String, String> volumeFailures = new HashMap<>();

  public VolumeReader(VolumeManagement volumes, Logger log) {
    this.volumes = Objects.requireNonNull(volumes, "volumes");
    this.log = Objects.requireNonNull(log, "log");
    this.part = new PartRead(NodePart.VOLUMES, "volumes", log);
  }

  /**
   * The information of each of {@code instances}, in their order; on a failed enumeration an empty list and {@link
   * NodePart#VOLUMES} put in {@code missing} with the reason. No instance, no call.
   */
  public List<LogicalDiskInfo> read(Collection<String> instances, Map<NodePart, String> missing) {
    if (instances.isEmpty()) {
      return List.of();
    }
    return part.read(
        () -> {
          Map<String, String> mounted = mountedVolumes();
          List<LogicalDiskInfo> infos = new ArrayList<>();
          for (String instance : instances) {
            infos.add(info(mounted, instance));
          }
          volumeFailures.keySet().retainAll(instances);
          return infos;
        },
        missing);
  }

  /** Mount path (no trailing backslash) to GUID path (likewise), as {@code getAllMountedVolumes} maps them. */
  Map<String, String> mountedVolumes() {
    Map<String, String> mounted = new HashMap<>();
    for (String volumeName : volumes.findVolumes()) {
      List<String> paths;
      try {
        paths = volumes.volumePathNames(volumeName);
      } catch (Win32Exception e) {
        if (e.errorCode() == Win32Exception.ERROR_FILE_NOT_FOUND) {
          continue; // the volume is not mounted (logical_disk.go:705-708@v0.31.8)
        }
        throw e;
      }
      // Only the first path: upstream decodes the multi-string up to its first NUL (logical_disk.go:719@v0.31.8).
      if (!paths.isEmpty() && !paths.get(0).isEmpty()) {
        mounted.put(withoutTrailingBackslash(paths.get(0)), withoutTrailingBackslash(volumeName));
      }
    }
    return mounted;
  }

  /** One instance's information, or {@link LogicalDiskInfo#unread} when its volume cannot be read. */
  private LogicalDiskInfo info(Map<String, String> mounted, String instance) {
    String volumePath = instance;
    String volumeName = mounted.get(instance);
    if (volumeName != null) {
      volumePath = volumeName.startsWith(WIN32_FILE) ? volumeName.substring(WIN32_FILE.length()) : volumeName;
    }
    try {
      List<Long> diskNumbers = volumes.diskNumbers(LOCAL_DEVICE + volumePath);
      if (diskNumbers.isEmpty()) {
        return unread(instance, "IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS returned no disk extent");
      }
      String rootPath = volumePath.contains("Volume") ? WIN32_FILE + volumePath + "\\" : volumePath + "\\";
      int driveType = volumes.driveType(rootPath);
      VolumeInformation information;
      try {
        information = volumes.volumeInformation(rootPath);
      } catch (Win32Exception e) {
        if (driveType == VolumeManagement.DRIVE_CDROM || driveType == VolumeManagement.DRIVE_REMOVABLE) {
          return read(LogicalDiskInfo.unread(instance)); // no media: no error upstream either
        }
        throw e;
      }
      return read(
          new LogicalDiskInfo(
              instance,
              disk(diskNumbers),
              driveType(driveType),
              information.volumeName(),
              information.fileSystemName(),
              Integer.toHexString(information.serialNumber()).toUpperCase(Locale.ROOT)));
    } catch (Win32Exception e) {
      return unread(instance, e.getMessage());
    }
  }

  /** The disk numbers in decimal, sorted as strings, each once, joined by {@code ;} (618-630,660@v0.31.8). */
  static String disk(List<Long> diskNumbers) {
    return diskNumbers.stream().map(String::valueOf).sorted().distinct().collect(Collectors.joining(";"));
  }

  /** Upstream's name of a {@code DRIVE_*} code, {@code unknown} for a code winbase.h does not define (556-575). */
  static String driveType(int code) {
    return switch (code) {
      case VolumeManagement.DRIVE_NO_ROOT_DIR -> "norootdir";
      case VolumeManagement.DRIVE_REMOVABLE -> "removable";
      case VolumeManagement.DRIVE_FIXED -> "fixed";
      case VolumeManagement.DRIVE_REMOTE -> "remote";
      case VolumeManagement.DRIVE_CDROM -> "cdrom";
      case VolumeManagement.DRIVE_RAMDISK -> "ramdisk";
      default -> "unknown";
    };
  }

  private LogicalDiskInfo read(LogicalDiskInfo info) {
    if (volumeFailures.remove(info.volume()) != null) {
      log.info("event=volume_recovered volume={}", info.volume());
    }
    return info;
  }

  private LogicalDiskInfo unread(String instance, @Nullable String failure) {
    String cause = String.valueOf(failure);
    if (!cause.equals(volumeFailures.put(instance, cause))) {
      log.warn("event=volume_unreadable volume={} error=\"{}\"", instance, cause);
    }
    return LogicalDiskInfo.unread(instance);
  }

  private static String withoutTrailingBackslash(String path) {
    return path.endsWith("\\") ? path.substring(0, path.length() - 1) : path;
  }
}
