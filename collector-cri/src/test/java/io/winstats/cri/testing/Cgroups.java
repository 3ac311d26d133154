package io.winstats.cri.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the cgroup v1 files that runc's containers are accounted in, to check the runtime's numbers against.
 * Directories come from {@link PodHandle#containerCgroup} and {@link PodHandle#podCgroup}.
 */
public final class Cgroups {
  /** Where the cgroup v1 hierarchies are mounted, one directory per controller. */
  public static final Path ROOT = Path.of("/sys/fs/cgroup");

  private Cgroups() {}

  /** Cumulative CPU time in nanoseconds: {@code cpuacct.usage} in a {@code cpuacct} directory. */
  public static long cpuUsageNanos(Path cpuacctDir) {
    return Long.parseLong(read(cpuacctDir.resolve("cpuacct.usage")));
  }

  /** {@code memory.usage_in_bytes} in a {@code memory} directory. */
  public static long memoryUsageBytes(Path memoryDir) {
    return Long.parseLong(read(memoryDir.resolve("memory.usage_in_bytes")));
  }

  /**
   * The working set as cAdvisor, the kubelet and containerd compute it on cgroup v1: {@code memory.usage_in_bytes}
   * minus {@code total_inactive_file} from {@code memory.stat}, floored at 0.
   */
  public static long workingSetBytes(Path memoryDir) {
    long usage = memoryUsageBytes(memoryDir);
    long inactiveFile = memoryStat(memoryDir, "total_inactive_file");
    return Math.max(0, usage - inactiveFile);
  }

  /** One counter from {@code memory.stat}. */
  public static long memoryStat(Path memoryDir, String key) {
    for (String line : read(memoryDir.resolve("memory.stat")).split("\n")) {
      int space = line.indexOf(' ');
      if (space > 0 && line.substring(0, space).equals(key)) {
        return Long.parseLong(line.substring(space + 1).strip());
      }
    }
    throw new IllegalStateException("no " + key + " in " + memoryDir.resolve("memory.stat"));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
