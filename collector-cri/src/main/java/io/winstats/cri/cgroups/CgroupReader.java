package io.winstats.cri.cgroups;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads one cgroup's accounting files, cgroup v1 or v2 as the host mounts them. Roots are injectable so that tests
 * read fixture trees. Never throws for a missing or unreadable file: that part is {@code null} (a cgroup removed
 * mid-read shows as absent parts, never as zeros). Thread-safe.
 */
public final class CgroupReader {
  /**
   * {@code cpuacct.stat} counts in USER_HZ, which Linux fixes at 100 for user space on every architecture
   * (include/asm-generic/param.h); runc's cgroups library converts the same way.
   */
  private static final long NANOS_PER_USER_HZ_TICK = 10_000_000L;

  /**
   * Blanks between the fields of a line. Compiled once: {@code String.split("\\s+")} compiles its pattern on every
   * call, and a round splits a few thousand lines.
   */
  static final Pattern FIELDS = Pattern.compile("\\s+");

  private final Path cgroupRoot;
  private final Path procRoot;
  private final Path sysDevBlock;
  private final CgroupVersion version;
  /** v1: whether the pids controller has its own hierarchy; checked once rather than per cgroup and round. */
  private final boolean pidsHierarchy;
  private final Map<String, String> deviceNames = new ConcurrentHashMap<>();
  /**
   * v1 {@code memory.use_hierarchy} by cgroup path, read once per cgroup: it can only change while a cgroup has no
   * children, nothing changes it on a container's, and since Linux 5.11 it is always 1 ("mm: memcg: deprecate the
   * non-hierarchical mode").
   */
  private final Map<String, Boolean> hierarchicalMemory = new ConcurrentHashMap<>();

  /**
   * @param cgroupRoot where cgroups are mounted ({@code /sys/fs/cgroup})
   * @param procRoot {@code /proc}, for open files and limits of the cgroup's processes
   * @param sysDevBlock {@code /sys/dev/block}, for device names
   */
  public CgroupReader(Path cgroupRoot, Path procRoot, Path sysDevBlock) {
    this.cgroupRoot = cgroupRoot;
    this.procRoot = procRoot;
    this.sysDevBlock = sysDevBlock;
    this.version = CgroupVersion.detect(cgroupRoot);
    this.pidsHierarchy = version == CgroupVersion.V1 && Files.isDirectory(cgroupRoot.resolve("pids"));
  }

  /** The host's own cgroups, {@code /proc} and {@code /sys/dev/block}. */
  public static CgroupReader host() {
    return new CgroupReader(Path.of("/sys/fs/cgroup"), Path.of("/proc"), Path.of("/sys/dev/block"));
  }

  /** Which cgroup layout this host has. */
  public CgroupVersion version() {
    return version;
  }

  /** The directory to scan for container cgroups: v1's memory hierarchy, or the v2 root. */
  Path scanRoot() {
    return version == CgroupVersion.V2 ? cgroupRoot : cgroupRoot.resolve("memory");
  }

  /**
   * Forgets what was read once per cgroup for every path but {@code paths}, the ones still read: called after each
   * round, so that what is kept follows the pods alive rather than every pod the node ever ran.
   */
  public void retainOnly(Set<String> paths) {
    hierarchicalMemory.keySet().retainAll(paths);
  }

  /** Reads the cgroup at {@code path}, relative to each hierarchy's root ({@code /kubepods/pod<uid>/<id>}). */
  public CgroupStats read(String path) {
    return version == CgroupVersion.V2 ? readV2(path) : readV1(path);
  }

  private CgroupStats readV1(String path) {
    Path cpu = dir("cpu", path);
    Path cpuacct = dir("cpuacct", path);
    Path memory = dir("memory", path);
    Path blkio = dir("blkio", path);
    Path pids = dir("pids", path);
    Path unified = dir("unified", path);
    // In a hybrid layout runc may or may not join the unified hierarchy; one directory check spares three failed
    // opens per cgroup and round where it did not (each costs about as much as a read).
    boolean pressure = Files.isDirectory(unified);
    return new CgroupStats(
        path,
        cpuV1(cpu, cpuacct),
        memoryV1(path, memory),
        blockIoV1(blkio),
        processes(pidsHierarchy ? pids : cpu, pids),
        pressure ? pressure(unified.resolve("cpu.pressure")) : null,
        pressure ? pressure(unified.resolve("memory.pressure")) : null,
        pressure ? pressure(unified.resolve("io.pressure")) : null);
  }

  private CgroupStats readV2(String path) {
    Path dir = dir(null, path);
    return new CgroupStats(
        path,
        cpuV2(dir),
        memoryV2(dir),
        blockIoV2(dir.resolve("io.stat")),
        processes(dir, dir),
        pressure(dir.resolve("cpu.pressure")),
        pressure(dir.resolve("memory.pressure")),
        pressure(dir.resolve("io.pressure")));
  }

  private @Nullable CgroupCpu cpuV1(Path cpu, Path cpuacct) {
    Map<String, Long> stat = keyed(cpu.resolve("cpu.stat"));
    Map<String, Long> modes = keyed(cpuacct.resolve("cpuacct.stat"));
    if (stat == null || modes == null) {
      return null;
    }
    return new CgroupCpu(
        modes.getOrDefault("user", 0L) * NANOS_PER_USER_HZ_TICK,
        modes.getOrDefault("system", 0L) * NANOS_PER_USER_HZ_TICK,
        stat.getOrDefault("nr_periods", 0L),
        stat.getOrDefault("nr_throttled", 0L),
        stat.getOrDefault("throttled_time", 0L));
  }

  private @Nullable CgroupCpu cpuV2(Path dir) {
    Map<String, Long> stat = keyed(dir.resolve("cpu.stat"));
    if (stat == null) {
      return null;
    }
    return new CgroupCpu(
        stat.getOrDefault("user_usec", 0L) * 1000,
        stat.getOrDefault("system_usec", 0L) * 1000,
        stat.getOrDefault("nr_periods", 0L),
        stat.getOrDefault("nr_throttled", 0L),
        stat.getOrDefault("throttled_usec", 0L) * 1000);
  }

  private @Nullable CgroupMemory memoryV1(String path, Path memory) {
    Map<String, Long> stat = keyed(memory.resolve("memory.stat"));
    if (stat == null) {
      return null;
    }
    // With use_hierarchy (always, since Linux 5.11) cAdvisor reads the total_* keys.
    boolean hierarchical =
        hierarchicalMemory.computeIfAbsent(
            path,
            p -> {
              Long useHierarchy = single(memory.resolve("memory.use_hierarchy"));
              return useHierarchy == null || useHierarchy == 1;
            });
    String prefix = hierarchical ? "total_" : "";
    Map<String, Long> oomControl = keyed(memory.resolve("memory.oom_control"));
    return new CgroupMemory(
        stat.getOrDefault(prefix + "cache", 0L),
        stat.getOrDefault(prefix + "rss", 0L),
        stat.getOrDefault(prefix + "mapped_file", 0L),
        stat.get(prefix + "swap"),
        null,
        single(memory.resolve("memory.kmem.usage_in_bytes")),
        single(memory.resolve("memory.failcnt")),
        single(memory.resolve("memory.max_usage_in_bytes")),
        stat.getOrDefault("pgfault", 0L),
        stat.getOrDefault("pgmajfault", 0L),
        oomControl == null ? null : oomControl.get("oom_kill"));
  }

  private @Nullable CgroupMemory memoryV2(Path dir) {
    Map<String, Long> stat = keyed(dir.resolve("memory.stat"));
    if (stat == null) {
      return null;
    }
    Map<String, Long> events = keyed(dir.resolve("memory.events"));
    Long swap = single(dir.resolve("memory.swap.current"));
    return new CgroupMemory(
        stat.getOrDefault("file", 0L),
        stat.getOrDefault("anon", 0L),
        stat.getOrDefault("file_mapped", 0L),
        swap,
        // Only where swap is accounted: one more small read per cgroup then, none on hosts without swap accounting.
        // "max" (unlimited) does not parse and is null, as the kubelet omits swapAvailableBytes without a limit.
        swap == null ? null : single(dir.resolve("memory.swap.max")),
        stat.get("kernel"),
        events == null ? null : events.get("max"),
        single(dir.resolve("memory.peak")),
        stat.getOrDefault("pgfault", 0L),
        stat.getOrDefault("pgmajfault", 0L),
        events == null ? null : events.get("oom_kill"));
  }

  /**
   * v1 {@code blkio.throttle.io_service*_recursive}: the throttle layer accounts every bio the cgroup submits,
   * whatever the IO scheduler (the CFQ files runc prefers are gone since Linux 5.0).
   */
  private List<BlockDeviceIo> blockIoV1(Path blkio) {
    Map<String, long[]> bytes = blkioV1(blkio.resolve("blkio.throttle.io_service_bytes_recursive"));
    Map<String, long[]> ops = blkioV1(blkio.resolve("blkio.throttle.io_serviced_recursive"));
    List<BlockDeviceIo> out = new ArrayList<>();
    bytes.forEach(
        (majMin, rw) -> {
          long[] count = ops.getOrDefault(majMin, new long[2]);
          out.add(device(majMin, rw[0], rw[1], count[0], count[1]));
        });
    return out;
  }

  /** {@code 8:0 Read 4096} lines to {@code major:minor -> [read, write]}. */
  private static Map<String, long[]> blkioV1(Path file) {
    String text = read(file);
    Map<String, long[]> out = new LinkedHashMap<>();
    if (text == null) {
      return out;
    }
    for (String line : text.split("\n")) {
      String[] f = FIELDS.split(line.strip());
      if (f.length != 3 || !f[0].contains(":")) {
        continue;
      }
      long[] rw = out.computeIfAbsent(f[0], k -> new long[2]);
      switch (f[1]) {
        case "Read" -> rw[0] = Long.parseLong(f[2]);
        case "Write" -> rw[1] = Long.parseLong(f[2]);
        default -> {}
      }
    }
    return out;
  }

  /** v2 {@code io.stat}: {@code 8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0}. */
  private List<BlockDeviceIo> blockIoV2(Path file) {
    String text = read(file);
    List<BlockDeviceIo> out = new ArrayList<>();
    if (text == null) {
      return out;
    }
    for (String line : text.split("\n")) {
      String[] f = FIELDS.split(line.strip());
      if (f.length < 2 || !f[0].contains(":")) {
        continue;
      }
      Map<String, Long> kv = new HashMap<>();
      for (int i = 1; i < f.length; i++) {
        int eq = f[i].indexOf('=');
        if (eq > 0) {
          kv.put(f[i].substring(0, eq), Long.parseLong(f[i].substring(eq + 1)));
        }
      }
      out.add(
          device(
              f[0],
              kv.getOrDefault("rbytes", 0L),
              kv.getOrDefault("wbytes", 0L),
              kv.getOrDefault("rios", 0L),
              kv.getOrDefault("wios", 0L)));
    }
    return out;
  }

  private BlockDeviceIo device(String majMin, long readBytes, long writeBytes, long reads, long writes) {
    int colon = majMin.indexOf(':');
    return new BlockDeviceIo(
        deviceNames.computeIfAbsent(majMin, this::deviceName),
        Integer.parseInt(majMin.substring(0, colon)),
        Integer.parseInt(majMin.substring(colon + 1)),
        readBytes,
        writeBytes,
        reads,
        writes);
  }

  /** {@code /dev/<DEVNAME>} from {@code /sys/dev/block/<maj:min>/uevent}, as cAdvisor's device labels read. */
  private String deviceName(String majMin) {
    String uevent = read(sysDevBlock.resolve(majMin).resolve("uevent"));
    if (uevent != null) {
      for (String line : uevent.split("\n")) {
        if (line.startsWith("DEVNAME=")) {
          return "/dev/" + line.substring("DEVNAME=".length()).strip();
        }
      }
    }
    return majMin;
  }

  /**
   * Processes from {@code cgroup.procs}; open files and sockets from each one's {@code /proc/<pid>/fd}, and the
   * soft open-files limit of the lowest pid, as google/cadvisor lib/container/libcontainer/handler.go
   * {@code processStatsFromProcs} counts them.
   */
  private @Nullable CgroupProcesses processes(Path procsDir, Path pidsDir) {
    String procs = read(procsDir.resolve("cgroup.procs"));
    if (procs == null) {
      return null;
    }
    long processes = 0;
    long fds = 0;
    long sockets = 0;
    long lowestPid = Long.MAX_VALUE;
    for (String line : procs.split("\n")) {
      String pid = line.strip();
      if (pid.isEmpty()) {
        continue;
      }
      processes++;
      lowestPid = Math.min(lowestPid, Long.parseLong(pid));
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(procRoot.resolve(pid).resolve("fd"))) {
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
    Long threadsMax = null;
    String max = read(pidsDir.resolve("pids.max"));
    if (max != null) {
      threadsMax = max.strip().equals("max") ? 0L : Long.parseLong(max.strip());
    }
    Long softLimit = lowestPid == Long.MAX_VALUE ? null : maxOpenFilesSoft(procRoot.resolve(lowestPid + "/limits"));
    return new CgroupProcesses(
        processes, single(pidsDir.resolve("pids.current")), threadsMax, fds, sockets, softLimit);
  }

  /** The soft limit of {@code Max open files} in a {@code /proc/<pid>/limits}; -1 for unlimited. */
  static @Nullable Long maxOpenFilesSoft(Path limits) {
    String text = read(limits);
    if (text == null) {
      return null;
    }
    for (String line : text.split("\n")) {
      if (line.startsWith("Max open files")) {
        String[] f = FIELDS.split(line.substring("Max open files".length()).strip());
        return f[0].equals("unlimited") ? -1L : Long.parseLong(f[0]);
      }
    }
    return null;
  }

  /**
   * The interfaces of the network namespace of the cgroup at {@code path}: {@code /proc/<pid>/net/dev} of its first
   * process, as cAdvisor reads a container's network through one of its pids. Two small reads; {@code null} when the
   * cgroup has no process or it exited between the two.
   */
  public @Nullable List<NetDevInterface> network(String path) {
    String procs = read(dir(version == CgroupVersion.V2 ? null : "cpu", path).resolve("cgroup.procs"));
    if (procs == null) {
      return null;
    }
    int end = procs.indexOf('\n');
    String pid = (end < 0 ? procs : procs.substring(0, end)).strip();
    if (pid.isEmpty()) {
      return null;
    }
    String netDev = read(procRoot.resolve(pid).resolve("net").resolve("dev"));
    return netDev == null ? null : NetDevInterface.parse(netDev);
  }

  /** The node's {@code /proc/pressure} files. */
  public NodePressure nodePressure() {
    Path dir = procRoot.resolve("pressure");
    return new NodePressure(pressure(dir.resolve("cpu")), pressure(dir.resolve("memory")), pressure(dir.resolve("io")));
  }

  private static @Nullable Pressure pressure(Path file) {
    String text = read(file);
    if (text == null || text.isBlank()) {
      return null;
    }
    return Pressure.parse(text);
  }

  private Path dir(@Nullable String controller, String path) {
    Path base = controller == null ? cgroupRoot : cgroupRoot.resolve(controller);
    String relative = path.startsWith("/") ? path.substring(1) : path;
    return relative.isEmpty() ? base : base.resolve(relative);
  }

  /** A flat-keyed file ({@code key value} per line) as a map, or {@code null} when absent. */
  static @Nullable Map<String, Long> keyed(Path file) {
    String text = read(file);
    if (text == null) {
      return null;
    }
    Map<String, Long> out = new HashMap<>();
    for (String line : text.split("\n")) {
      int space = line.indexOf(' ');
      if (space > 0) {
        try {
          out.put(line.substring(0, space), Long.parseLong(line.substring(space + 1).strip()));
        } catch (NumberFormatException e) {
          // Not a counter (memory.stat has none today; a future key must not lose the rest).
        }
      }
    }
    return out;
  }

  /** A single-value file, or {@code null} when absent or not a number ({@code max}). */
  static @Nullable Long single(Path file) {
    String text = read(file);
    if (text == null) {
      return null;
    }
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * The file as ASCII text. A round reads thousands of small kernel files: one reused buffer per thread and a plain
   * read, rather than {@code Files.readString}'s size probe and fresh arrays, cut the CPU per file by about a third.
   */
  private static @Nullable String read(Path file) {
    byte[] buffer = READ_BUFFER.get();
    try (FileInputStream in = new FileInputStream(file.toString())) {
      int length = 0;
      while (true) {
        if (length == buffer.length) {
          buffer = Arrays.copyOf(buffer, buffer.length * 2);
          READ_BUFFER.set(buffer);
        }
        int n = in.read(buffer, length, buffer.length - length);
        if (n < 0) {
          return new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
        }
        length += n;
      }
    } catch (IOException e) {
      return null;
    }
  }

  private static final ThreadLocal<byte[]> READ_BUFFER = ThreadLocal.withInitial(() -> new byte[8192]);
}
