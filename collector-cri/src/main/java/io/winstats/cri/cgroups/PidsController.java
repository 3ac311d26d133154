package io.winstats.cri.cgroups;

import static io.winstats.cri.cgroups.CgroupReader.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A cgroup's processes and what they hold: {@code cgroup.procs}, each process's open files and sockets, the pids
 * controller's count and limit, the lowest pid's open-files limit, and the network of the first process.
 */
final class PidsController {
  private final String procsBase;
  private final String pidsBase;
  private final String cpuBase;
  private final Path procRoot;

  /**
   * @param procsBase the hierarchy whose {@code cgroup.procs} lists the processes (v1: pids' own, else cpu's)
   * @param pidsBase the pids controller's directory
   * @param cpuBase the cpu controller's directory, whose {@code cgroup.procs} gives a sandbox's first process
   * @param procRoot {@code /proc}
   */
  PidsController(String procsBase, String pidsBase, String cpuBase, Path procRoot) {
    this.procsBase = procsBase;
    this.pidsBase = pidsBase;
    this.cpuBase = cpuBase;
    this.procRoot = procRoot;
  }

  /** What {@code cgroup.procs} and the processes' {@code fd} directories give. */
  private record Listed(long processes, long fileDescriptors, long sockets, long lowestPid) {}

  /**
   * Processes from {@code cgroup.procs}; open files and sockets from each one's {@code /proc/<pid>/fd}, and the
   * soft open-files limit of the lowest pid, as google/cadvisor lib/container/libcontainer/handler.go
   * {@code processStatsFromProcs} counts them. {@code pids.max} and the open-files limit are kept between rounds.
   */
  @Nullable CgroupProcesses read(String path, Kept k, boolean refresh) {
    Listed listed = KernelFile.read(file(procsBase, path, "/cgroup.procs"), this::list);
    if (listed == null) {
      return null;
    }
    if (refresh) {
      k.threadsMax = KernelFile.read(file(pidsBase, path, "/pids.max"), PidsController::pidsMax);
    }
    long lowestPid = listed.lowestPid();
    if (refresh || lowestPid != k.limitsPid) {
      k.limitsPid = lowestPid;
      k.maxOpenFilesSoft =
          lowestPid == Long.MAX_VALUE ? null : maxOpenFilesSoft(procRoot.resolve(lowestPid + "/limits").toString());
    }
    return CgroupProcesses.builder()
        .processes(listed.processes())
        .threads(KernelFile.readSingle(file(pidsBase, path, "/pids.current")))
        .threadsMax(k.threadsMax)
        .fileDescriptors(listed.fileDescriptors())
        .sockets(listed.sockets())
        .maxOpenFilesSoft(k.maxOpenFilesSoft)
        .build();
  }

  private Listed list(KernelFile procs) {
    byte[] b = procs.bytes;
    long processes = 0;
    long fds = 0;
    long sockets = 0;
    long lowestPid = Long.MAX_VALUE;
    for (int line = 0; line < procs.length; ) {
      int end = procs.lineEnd(line);
      int from = KernelFile.stripStart(b, line, end);
      int to = KernelFile.stripEnd(b, from, end);
      line = end + 1;
      if (from == to) {
        continue;
      }
      processes++;
      lowestPid = Math.min(lowestPid, KernelFile.parseLong(b, from, to));
      String pid = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
      Path fdDirectory = procRoot.resolve(pid).resolve("fd");
      KernelFile.listing(fdDirectory);
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(fdDirectory)) {
        for (Path fd : entries) {
          fds++;
          try {
            if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
              sockets++;
            }
          } catch (IOException | UnsupportedOperationException e) {
            // The descriptor closed between listing and reading; it still counted as open.
          }
        }
      } catch (IOException e) {
        // The process exited after cgroup.procs was read; cAdvisor skips it the same way.
      }
    }
    return new Listed(processes, fds, sockets, lowestPid);
  }

  /** {@code pids.max}: {@code max} (no limit) is 0, as cAdvisor's {@code container_threads_max} has it. */
  private static Long pidsMax(KernelFile max) {
    int from = KernelFile.stripStart(max.bytes, 0, max.length);
    int to = KernelFile.stripEnd(max.bytes, from, max.length);
    return KernelFile.equals(max.bytes, from, to, "max") ? 0L : KernelFile.parseLong(max.bytes, from, to);
  }

  /** The soft limit of {@code Max open files} in a {@code /proc/<pid>/limits}; -1 for unlimited. */
  static @Nullable Long maxOpenFilesSoft(String limits) {
    return KernelFile.read(
        limits,
        f -> {
          byte[] b = f.bytes;
          for (int line = 0; line < f.length; ) {
            int end = f.lineEnd(line);
            if (KernelFile.startsWith(b, line, end, "Max open files")) {
              int from = KernelFile.stripStart(b, line + "Max open files".length(), end);
              int to = KernelFile.fieldEnd(b, from, KernelFile.stripEnd(b, from, end));
              return KernelFile.equals(b, from, to, "unlimited") ? -1L : KernelFile.parseLong(b, from, to);
            }
            line = end + 1;
          }
          return null;
        });
  }

  /**
   * The interfaces of the network namespace of the cgroup at {@code path}: {@code /proc/<pid>/net/dev} of its first
   * process, as cAdvisor reads a container's network through one of its pids. The pid is kept until its {@code
   * net/dev} cannot be read (the pause process lives as long as the sandbox); {@code null} when the cgroup has no
   * process.
   */
  @Nullable List<NetDevInterface> network(String path, Kept k) {
    List<NetDevInterface> interfaces = k.netDev == null ? null : netDev(k.netDev);
    if (interfaces == null) {
      String pid = KernelFile.read(file(cpuBase, path, "/cgroup.procs"), PidsController::firstPid);
      k.netDev = pid == null ? null : procRoot.resolve(pid).resolve("net").resolve("dev").toString();
      interfaces = k.netDev == null ? null : netDev(k.netDev);
    }
    return interfaces;
  }

  private static @Nullable List<NetDevInterface> netDev(String file) {
    return KernelFile.read(file, f -> NetDevInterface.parse(f.bytes, f.length));
  }

  private static @Nullable String firstPid(KernelFile procs) {
    int from = KernelFile.stripStart(procs.bytes, 0, procs.lineEnd(0));
    int to = KernelFile.stripEnd(procs.bytes, from, procs.lineEnd(0));
    for (int i = from; i < to; i++) {
      if (procs.bytes[i] < '0' || procs.bytes[i] > '9') {
        return null; // a pid is digits: anything else would name another /proc path
      }
    }
    return from == to ? null : new String(procs.bytes, from, to - from, StandardCharsets.ISO_8859_1);
  }
}
