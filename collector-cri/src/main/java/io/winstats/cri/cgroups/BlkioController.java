package io.winstats.cri.cgroups;

import static io.winstats.cri.cgroups.CgroupReader.file;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Block IO per device: v1's {@code blkio} policy files in runc's order, or v2's {@code io.stat}; devices named as
 * cAdvisor names them ({@code /dev/<DEVNAME>}).
 */
final class BlkioController {
  static final String BFQ = "blkio.bfq.";
  static final String CFQ = "blkio.";
  static final String THROTTLE = "blkio.throttle.";

  /**
   * The two files of one v1 block IO policy, as names under a cgroup's directory.
   *
   * @param serviced {@code /<policy>io_serviced<suffix>}: operations
   * @param serviceBytes {@code /<policy>io_service_bytes<suffix>}: bytes
   */
  record PolicyFiles(String serviced, String serviceBytes) {
    static PolicyFiles of(String policy, String suffix) {
      return new PolicyFiles("/" + policy + "io_serviced" + suffix, "/" + policy + "io_service_bytes" + suffix);
    }
  }

  private final String blkioBase;
  private final Path sysRoot;
  /** Device names by {@code major << 32 | minor}. */
  private final Map<Long, String> deviceNames = new ConcurrentHashMap<>();

  BlkioController(String blkioBase, Path sysRoot) {
    this.blkioBase = blkioBase;
    this.sysRoot = sysRoot;
  }

  /**
   * v1: the files of the block IO policies in runc's order (BFQ, then CFQ, then the throttle layer;
   * opencontainers/cgroups fs/blkio.go) that can hold figures on this host: BFQ's when a block device is scheduled
   * by BFQ, CFQ's where they exist (gone since Linux 5.0), and of the throttle layer the non-recursive files only
   * where the recursive ones are missing (an empty recursive file means an empty plain one).
   */
  static List<PolicyFiles> policiesV1(Path cgroupRoot, Path sysRoot) {
    List<PolicyFiles> policies = new ArrayList<>();
    Path blkio = cgroupRoot.resolve("blkio");
    // A policy's files exist in every cgroup of the hierarchy, the root included, or in none.
    if (Files.exists(blkio.resolve("blkio.bfq.io_serviced_recursive")) && bfqSchedulesADevice(sysRoot)) {
      policies.add(PolicyFiles.of(BFQ, "_recursive"));
    }
    if (Files.exists(blkio.resolve("blkio.io_serviced_recursive"))) {
      policies.add(PolicyFiles.of(CFQ, "_recursive"));
    }
    // The throttle layer's plain files on kernels without its _recursive ones (before Linux 4.x).
    boolean throttleRecursive = Files.exists(blkio.resolve("blkio.throttle.io_serviced_recursive"));
    policies.add(PolicyFiles.of(THROTTLE, throttleRecursive ? "_recursive" : ""));
    return List.copyOf(policies);
  }

  /**
   * Whether a block device's active scheduler is BFQ ({@code [bfq]} in {@code /sys/block/<dev>/queue/scheduler}):
   * BFQ's files exist wherever BFQ is built, but count only the IO it schedules.
   */
  private static boolean bfqSchedulesADevice(Path sysRoot) {
    try (DirectoryStream<Path> devices = Files.newDirectoryStream(sysRoot.resolve("block"))) {
      for (Path device : devices) {
        Boolean bfq =
            KernelFile.read(
                device.resolve("queue").resolve("scheduler").toString(), f -> f.text().contains("[bfq]"));
        if (Boolean.TRUE.equals(bfq)) {
          return true;
        }
      }
    } catch (IOException e) {
      // No devices to look at: no BFQ.
    }
    return false;
  }

  /**
   * v1 block IO: the first of {@code policies} whose {@code io_serviced} file has a device line, then its {@code
   * io_service_bytes} file.
   */
  List<BlockDeviceIo> readV1(String path, List<PolicyFiles> policies) {
    for (PolicyFiles policy : policies) {
      Devices ops = KernelFile.read(file(blkioBase, path, policy.serviced()), BlkioController::devicesV1);
      if (ops == null) {
        continue;
      }
      Devices bytes = KernelFile.read(file(blkioBase, path, policy.serviceBytes()), BlkioController::devicesV1);
      List<BlockDeviceIo> out = new ArrayList<>();
      for (int i = 0; bytes != null && i < bytes.count; i++) {
        int j = ops.indexOf(bytes.major[i], bytes.minor[i]);
        out.add(
            device(
                bytes.major[i],
                bytes.minor[i],
                bytes.read[i],
                bytes.write[i],
                j < 0 ? 0 : ops.read[j],
                j < 0 ? 0 : ops.write[j]));
      }
      return out;
    }
    return List.of();
  }

  /**
   * {@code 8:0 Read 4096} lines: per device in the order first seen, its {@code Read} and {@code Write} figures;
   * {@code null} without a device line (a {@code Total} line alone). A line of three fields whose first has a colon is
   * a device's; its other lines ({@code Sync}, {@code Total}, ...) add it without figures.
   */
  private static @Nullable Devices devicesV1(KernelFile f) {
    byte[] b = f.bytes;
    Devices out = null;
    for (int line = 0; line < f.length; ) {
      int end = f.lineEnd(line);
      int from = KernelFile.stripStart(b, line, end);
      int to = KernelFile.stripEnd(b, from, end);
      int end0 = KernelFile.fieldEnd(b, from, to);
      int from1 = KernelFile.skipSpaces(b, end0, to);
      int end1 = KernelFile.fieldEnd(b, from1, to);
      int from2 = KernelFile.skipSpaces(b, end1, to);
      int colon = KernelFile.indexOf(b, from, end0, (byte) ':');
      // Exactly three fields (after the strip, a line starts and ends in a field), the first with a colon.
      if (from < to && end1 < to && KernelFile.fieldEnd(b, from2, to) == to && colon >= 0) {
        if (out == null) {
          out = new Devices();
        }
        int i = out.indexOrAdd(KernelFile.parseInt(b, from, colon), KernelFile.parseInt(b, colon + 1, end0));
        if (KernelFile.equals(b, from1, end1, "Read")) {
          out.read[i] = KernelFile.parseLong(b, from2, to);
        } else if (KernelFile.equals(b, from1, end1, "Write")) {
          out.write[i] = KernelFile.parseLong(b, from2, to);
        }
      }
      line = end + 1;
    }
    return out;
  }

  /** Devices of a v1 blkio file by {@code major:minor}, in the order first seen. */
  private static final class Devices {
    int count;
    int[] major = new int[2];
    int[] minor = new int[2];
    long[] read = new long[2];
    long[] write = new long[2];

    int indexOf(int maj, int min) {
      for (int i = 0; i < count; i++) {
        if (major[i] == maj && minor[i] == min) {
          return i;
        }
      }
      return -1;
    }

    int indexOrAdd(int maj, int min) {
      int i = indexOf(maj, min);
      if (i >= 0) {
        return i;
      }
      if (count == major.length) {
        major = Arrays.copyOf(major, count * 2);
        minor = Arrays.copyOf(minor, count * 2);
        read = Arrays.copyOf(read, count * 2);
        write = Arrays.copyOf(write, count * 2);
      }
      major[count] = maj;
      minor[count] = min;
      return count++;
    }
  }

  /** v2 {@code io.stat}: {@code 8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0}. */
  List<BlockDeviceIo> readV2(String path) {
    List<DeviceFigures> lines = KernelFile.read(file(blkioBase, path, "/io.stat"), BlkioController::ioStat);
    if (lines == null) {
      return List.of();
    }
    // Named once the file is parsed: a device seen for the first time reads its uevent, another kernel file.
    List<BlockDeviceIo> out = new ArrayList<>(lines.size());
    for (DeviceFigures d : lines) {
      out.add(device(d.major(), d.minor(), d.readBytes(), d.writeBytes(), d.reads(), d.writes()));
    }
    return out;
  }

  /** One device line of {@code io.stat}. */
  private record DeviceFigures(int major, int minor, long readBytes, long writeBytes, long reads, long writes) {}

  private static List<DeviceFigures> ioStat(KernelFile f) {
    byte[] b = f.bytes;
    List<DeviceFigures> out = new ArrayList<>();
    for (int line = 0; line < f.length; ) {
      int end = f.lineEnd(line);
      int from = KernelFile.stripStart(b, line, end);
      int to = KernelFile.stripEnd(b, from, end);
      int end0 = KernelFile.fieldEnd(b, from, to);
      int colon = KernelFile.indexOf(b, from, end0, (byte) ':');
      if (end0 < to && colon >= 0) {
        long readBytes = 0;
        long writeBytes = 0;
        long reads = 0;
        long writes = 0;
        for (int field = KernelFile.skipSpaces(b, end0, to); field < to; ) {
          int fieldEnd = KernelFile.fieldEnd(b, field, to);
          int eq = KernelFile.indexOf(b, field, fieldEnd, (byte) '=');
          if (eq > field) {
            long value = KernelFile.parseLong(b, eq + 1, fieldEnd);
            if (KernelFile.equals(b, field, eq, "rbytes")) {
              readBytes = value;
            } else if (KernelFile.equals(b, field, eq, "wbytes")) {
              writeBytes = value;
            } else if (KernelFile.equals(b, field, eq, "rios")) {
              reads = value;
            } else if (KernelFile.equals(b, field, eq, "wios")) {
              writes = value;
            }
          }
          field = KernelFile.skipSpaces(b, fieldEnd, to);
        }
        int major = KernelFile.parseInt(b, from, colon);
        int minor = KernelFile.parseInt(b, colon + 1, end0);
        out.add(new DeviceFigures(major, minor, readBytes, writeBytes, reads, writes));
      }
      line = end + 1;
    }
    return out;
  }

  private BlockDeviceIo device(int major, int minor, long readBytes, long writeBytes, long reads, long writes) {
    return BlockDeviceIo.builder(deviceName(major, minor))
        .major(major)
        .minor(minor)
        .readBytes(readBytes)
        .writeBytes(writeBytes)
        .reads(reads)
        .writes(writes)
        .build();
  }

  /**
   * {@code /dev/<DEVNAME>} from {@code /sys/dev/block/<maj:min>/uevent}, as cAdvisor's device labels read; kept per
   * device.
   */
  private String deviceName(int major, int minor) {
    long key = ((long) major << 32) | (minor & 0xFFFFFFFFL);
    return deviceNames.computeIfAbsent(key, k -> readDeviceName(major, minor));
  }

  private String readDeviceName(int major, int minor) {
    String majMin = major + ":" + minor;
    String devName =
        KernelFile.read(
            sysRoot.resolve("dev").resolve("block").resolve(majMin).resolve("uevent").toString(),
            f -> {
              for (String line : f.text().split("\n")) {
                if (line.startsWith("DEVNAME=")) {
                  return "/dev/" + line.substring("DEVNAME=".length()).strip();
                }
              }
              return null;
            });
    return devName == null ? majMin : devName;
  }
}
