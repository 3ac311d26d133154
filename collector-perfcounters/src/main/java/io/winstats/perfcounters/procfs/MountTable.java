package io.winstats.perfcounters.procfs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The mounts of {@code /proc/self/mounts}.
 *
 * @param mounts every mount, in file order
 */
record MountTable(List<Mount> mounts) {
  static final String FILE = "/proc/self/mounts";

  /**
   * node_exporter's default {@code --collector.filesystem.fs-types-exclude} ({@code collector/filesystem_linux.go}),
   * plus {@code tmpfs} and {@code ramfs}, which node_exporter keeps but which are memory, not block devices.
   */
  static final Set<String> IGNORED_FS_TYPES =
      Set.of(
          "autofs", "binfmt_misc", "bpf", "cgroup", "cgroup2", "configfs", "debugfs", "devpts", "devtmpfs",
          "fusectl", "hugetlbfs", "iso9660", "mqueue", "nsfs", "overlay", "proc", "procfs", "pstore", "rpc_pipefs",
          "securityfs", "selinuxfs", "squashfs", "sysfs", "tracefs", "tmpfs", "ramfs");

  /** node_exporter's default {@code --collector.filesystem.mount-points-exclude}. */
  static final Pattern IGNORED_MOUNT_POINTS =
      Pattern.compile("^/(dev|proc|run/credentials/.+|sys|var/lib/docker/.+|var/lib/containers/storage/.+)($|/)");

  MountTable {
    mounts = List.copyOf(mounts);
  }

  /**
   * One mount line.
   *
   * @param device the source ({@code /dev/vda1}), octal escapes decoded
   * @param mountPoint where it is mounted, octal escapes ({@code \040} for a space) decoded
   * @param fsType the filesystem type ({@code ext4})
   * @param readOnly whether the options hold {@code ro}, as node_exporter's {@code node_filesystem_readonly} reads them
   */
  record Mount(String device, String mountPoint, String fsType, boolean readOnly) {
    Mount {
      Objects.requireNonNull(device, "device");
      Objects.requireNonNull(mountPoint, "mountPoint");
      Objects.requireNonNull(fsType, "fsType");
    }
  }

  /**
   * Parses the text of {@code /proc/self/mounts} (fstab format: device, mount point, type, options, dump, pass).
   *
   * @throws io.winstats.perfcounters.NodeSourceException MALFORMED when a line has fewer than three fields
   */
  static MountTable parse(String text) {
    List<Mount> result = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] f = ProcfsText.fields(line);
      if (f.length == 0) {
        continue;
      }
      if (f.length < 3) {
        throw ProcfsText.malformed(FILE, "line has " + f.length + " fields: " + line.strip());
      }
      boolean readOnly = f.length > 3 && Arrays.asList(f[3].split(",")).contains("ro");
      result.add(new Mount(unescape(f[0]), unescape(f[1]), f[2], readOnly));
    }
    return new MountTable(result);
  }

  /**
   * The mounts of real filesystems, one per mount point: types and mount points on the exclude lists are dropped, and
   * when a mount point was mounted over, the last (visible) mount wins.
   */
  List<Mount> realFilesystems() {
    Map<String, Mount> byMountPoint = new LinkedHashMap<>();
    for (Mount mount : mounts) {
      byMountPoint.remove(mount.mountPoint());
      byMountPoint.put(mount.mountPoint(), mount);
    }
    return byMountPoint.values().stream()
        .filter(m -> !IGNORED_FS_TYPES.contains(m.fsType()))
        .filter(m -> !IGNORED_MOUNT_POINTS.matcher(m.mountPoint()).find())
        .toList();
  }

  private static String unescape(String field) {
    if (field.indexOf('\\') < 0) {
      return field;
    }
    StringBuilder out = new StringBuilder(field.length());
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && isOctal(field, i + 1)) {
        out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static boolean isOctal(String s, int from) {
    if (from + 3 > s.length()) {
      return false;
    }
    for (int i = from; i < from + 3; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '7') {
        return false;
      }
    }
    return true;
  }
}
