package io.winstats.cri.cgroups;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads one cgroup's accounting files, cgroup v1 or v2 as the host mounts them. Roots are injectable so that tests
 * read fixture trees. Never throws for a missing or unreadable file: that part is {@code null} (a cgroup removed
 * mid-read shows as absent parts, never as zeros). Thread-safe.
 *
 * <p><b>What a round costs.</b> Every file open costs about as much as the read itself (~13 µs each on the 2-core
 * test VM, where a pre-read open file answers again in ~3 µs: the kernel's path walk and open, not Java). Keeping the
 * files open was measured and not taken: each open cgroup file holds a seq_file buffer, ~5 KB of kernel memory charged
 * to the daemon's own memory cgroup, ~24 MB at 110 pods. So a round opens as few files as the served figures allow:
 *
 * <ul>
 *   <li>Limits ({@link CgroupSpec}, {@code pids.max}, the lowest pid's open-files limit), whether a v1 cgroup also
 *       has a unified directory for PSI, and {@code memory.use_hierarchy} change only when the runtime updates the
 *       container: they are read when the cgroup is first seen and again after {@code specRefresh} (the open-files
 *       limit also when the lowest pid changes). cAdvisor re-reads a container's spec at most every 5 s when asked.
 *   <li>v1 block IO follows runc's order (BFQ, then CFQ, then the throttle layer; opencontainers/cgroups
 *       fs/blkio.go) but asks only the policies whose files can hold figures on this host: BFQ's when a block device
 *       is scheduled by BFQ, CFQ's where they exist (gone since Linux 5.0), and of the throttle layer the non-recursive
 *       files only where the recursive ones are missing (an empty recursive file means an empty plain one). A cgroup
 *       without IO then costs one open.
 *   <li>Huge pages: read every round only when the host has a huge page pool or may overcommit one; without any,
 *       no cgroup's usage can move, and they are read with the limits.
 *   <li>A pod's first pid (the pause process, whose {@code net/dev} is the pod's network) is kept until its
 *       {@code net/dev} cannot be read.
 * </ul>
 */
public final class CgroupReader {
  /**
   * {@code cpuacct.stat} counts in USER_HZ, which Linux fixes at 100 for user space on every architecture
   * (include/asm-generic/param.h); runc's cgroups library converts the same way.
   */
  private static final long NANOS_PER_USER_HZ_TICK = 10_000_000L;

  /** How often limits and other slow-moving files are read again: the default of {@link #host()}. */
  public static final Duration SPEC_REFRESH = Duration.ofMinutes(1);

  /**
   * Blanks between the fields of a line. Compiled once: {@code String.split("\\s+")} compiles its pattern on every
   * call, and a round splits a few thousand lines.
   */
  static final Pattern FIELDS = Pattern.compile("\\s+");

  private final Path cgroupRoot;
  private final Path procRoot;
  private final Path sysRoot;
  private final CgroupVersion version;
  private final Duration specRefresh;
  private final LongSupplier nanoTime;
  /** v1: whether the pids controller has its own hierarchy; checked once rather than per cgroup and round. */
  private final boolean pidsHierarchy;
  private final Map<String, String> deviceNames = new ConcurrentHashMap<>();
  /** What is kept between rounds, by cgroup path; forgotten for a path no longer read ({@link #retainOnly}). */
  private final Map<String, Kept> kept = new ConcurrentHashMap<>();
  private volatile HostFacts host;

  /**
   * @param cgroupRoot where cgroups are mounted ({@code /sys/fs/cgroup})
   * @param procRoot {@code /proc}, for open files and limits of the cgroup's processes
   * @param sysRoot {@code /sys}, for block device names and schedulers and the huge page pools
   * @param specRefresh how long limits and other slow-moving files are kept before they are read again
   * @param nanoTime the clock {@code specRefresh} is measured on
   */
  public CgroupReader(Path cgroupRoot, Path procRoot, Path sysRoot, Duration specRefresh, LongSupplier nanoTime) {
    this.cgroupRoot = cgroupRoot;
    this.procRoot = procRoot;
    this.sysRoot = sysRoot;
    this.specRefresh = specRefresh;
    this.nanoTime = nanoTime;
    this.version = CgroupVersion.detect(cgroupRoot);
    this.pidsHierarchy = version == CgroupVersion.V1 && Files.isDirectory(cgroupRoot.resolve("pids"));
    this.host = HostFacts.of(this);
  }

  /** As {@link #CgroupReader(Path, Path, Path, Duration, LongSupplier)}, refreshing every minute. */
  public CgroupReader(Path cgroupRoot, Path procRoot, Path sysRoot) {
    this(cgroupRoot, procRoot, sysRoot, SPEC_REFRESH, System::nanoTime);
  }

  /** The host's own cgroups, {@code /proc} and {@code /sys}. */
  public static CgroupReader host() {
    return new CgroupReader(Path.of("/sys/fs/cgroup"), Path.of("/proc"), Path.of("/sys"));
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
   * Forgets what was kept for every path but {@code paths}, the ones still read (cgroups and sandboxes): called after
   * each round, so that what is kept follows the pods alive rather than every pod the node ever ran. Also the moment
   * the host's own slow-moving facts (schedulers, huge page pools) are read again when due.
   */
  public void retainOnly(Set<String> paths) {
    kept.keySet().retainAll(paths);
    if (nanoTime.getAsLong() - host.readAtNanos() >= specRefresh.toNanos()) {
      host = HostFacts.of(this);
    }
  }

  /** Reads the cgroup at {@code path}, relative to each hierarchy's root ({@code /kubepods/pod<uid>/<id>}). */
  public CgroupStats read(String path) {
    Kept k = kept.computeIfAbsent(path, p -> new Kept());
    long now = nanoTime.getAsLong();
    boolean refresh = !k.seen || k.dueAt - now <= 0;
    if (refresh) {
      k.seen = true;
      k.dueAt = now + specRefresh.toNanos();
    }
    return version == CgroupVersion.V2 ? readV2(path, k, refresh) : readV1(path, k, refresh);
  }

  private CgroupStats readV1(String path, Kept k, boolean refresh) {
    Path cpu = dir("cpu", path);
    Path memory = dir("memory", path);
    Path pids = dir("pids", path);
    Path unified = dir("unified", path);
    if (refresh) {
      // In a hybrid layout runc may or may not join the unified hierarchy, which it decides when it creates the
      // container: one directory check now and then spares three failed opens per cgroup and round where it did not.
      k.unified = Files.isDirectory(unified);
      k.spec = new CgroupSpec(single(memory.resolve("memory.soft_limit_in_bytes")),
          single(memory.resolve("memory.memsw.limit_in_bytes")));
    }
    HostFacts h = host;
    return new CgroupStats(
        path,
        cpuV1(cpu, dir("cpuacct", path)),
        memoryV1(memory, k),
        blockIoV1(dir("blkio", path), h),
        processes(pidsHierarchy ? pids : cpu, pids, k, refresh),
        k.unified ? pressure(unified.resolve("cpu.pressure")) : null,
        k.unified ? pressure(unified.resolve("memory.pressure")) : null,
        k.unified ? pressure(unified.resolve("io.pressure")) : null,
        k.spec,
        h.hugetlbV1 ? hugetlb(dir("hugetlb", path), ".usage_in_bytes", ".max_usage_in_bytes", k, refresh, h) : List.of());
  }

  private CgroupStats readV2(String path, Kept k, boolean refresh) {
    Path dir = dir(null, path);
    if (refresh) {
      k.spec = new CgroupSpec(single(dir.resolve("memory.min")), single(dir.resolve("memory.swap.max")));
    }
    HostFacts h = host;
    return new CgroupStats(
        path,
        cpuV2(dir),
        memoryV2(dir, k.spec),
        blockIoV2(dir.resolve("io.stat")),
        processes(dir, dir, k, refresh),
        pressure(dir.resolve("cpu.pressure")),
        pressure(dir.resolve("memory.pressure")),
        pressure(dir.resolve("io.pressure")),
        k.spec,
        hugetlb(dir, ".current", null, k, refresh, h));
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

  private @Nullable CgroupMemory memoryV1(Path memory, Kept k) {
    Map<String, Long> stat = keyed(memory.resolve("memory.stat"));
    if (stat == null) {
      return null;
    }
    // With use_hierarchy cAdvisor reads the total_* keys. It can only change while a cgroup has no children, nothing
    // changes it on a container's, and since Linux 5.11 it is always 1 ("mm: memcg: deprecate the non-hierarchical
    // mode"): read once per cgroup.
    Boolean hierarchical = k.hierarchicalMemory;
    if (hierarchical == null) {
      Long useHierarchy = single(memory.resolve("memory.use_hierarchy"));
      hierarchical = useHierarchy == null || useHierarchy == 1;
      k.hierarchicalMemory = hierarchical;
    }
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

  private @Nullable CgroupMemory memoryV2(Path dir, CgroupSpec spec) {
    Map<String, Long> stat = keyed(dir.resolve("memory.stat"));
    if (stat == null) {
      return null;
    }
    Map<String, Long> events = keyed(dir.resolve("memory.events"));
    Long swap = single(dir.resolve("memory.swap.current"));
    Long swapLimit = spec.memorySwapLimitBytes();
    return new CgroupMemory(
        stat.getOrDefault("file", 0L),
        stat.getOrDefault("anon", 0L),
        stat.getOrDefault("file_mapped", 0L),
        swap,
        // Only where swap is accounted; "max" (unlimited) is null, as the kubelet omits swapAvailableBytes without a
        // limit.
        swap == null || swapLimit == null || swapLimit == Long.MAX_VALUE ? null : swapLimit,
        stat.get("kernel"),
        events == null ? null : events.get("max"),
        single(dir.resolve("memory.peak")),
        stat.getOrDefault("pgfault", 0L),
        stat.getOrDefault("pgmajfault", 0L),
        events == null ? null : events.get("oom_kill"));
  }

  /**
   * v1 block IO: the first of runc's policies whose {@code io_serviced} file has a device line, then its {@code
   * io_service_bytes} file; the policies this host cannot fill are skipped ({@link HostFacts#blkioPolicies}).
   */
  private List<BlockDeviceIo> blockIoV1(Path blkio, HostFacts h) {
    for (String policy : h.blkioPolicies()) {
      Map<String, long[]> ops = blkioV1(blkio.resolve(policy + "io_serviced" + h.blkioSuffix(policy)));
      if (ops.isEmpty()) {
        continue;
      }
      Map<String, long[]> bytes = blkioV1(blkio.resolve(policy + "io_service_bytes" + h.blkioSuffix(policy)));
      List<BlockDeviceIo> out = new ArrayList<>();
      bytes.forEach(
          (majMin, rw) -> {
            long[] count = ops.getOrDefault(majMin, new long[2]);
            out.add(device(majMin, rw[0], rw[1], count[0], count[1]));
          });
      return out;
    }
    return List.of();
  }

  /** {@code 8:0 Read 4096} lines to {@code major:minor -> [read, write]}; empty when absent or without a device. */
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
      long[] rw = out.computeIfAbsent(f[0], key -> new long[2]);
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
    String uevent = read(sysRoot.resolve("dev").resolve("block").resolve(majMin).resolve("uevent"));
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
   * Huge page usage per size the host has, as runc reads it: the {@code .rsvd} files where the kernel has them, else
   * the plain ones; nothing where the cgroup has neither (the controller does not cover it). Read every round only
   * while the host has a pool to use ({@link HostFacts#hugePagesMove}).
   *
   * @param maxUsage the suffix of the peak file (v1), or {@code null} where the kernel keeps none (v2)
   */
  private List<HugePages> hugetlb(
      Path dir, String usage, @Nullable String maxUsage, Kept k, boolean refresh, HostFacts h) {
    if (h.hugePageSizes().isEmpty() || !(refresh || h.hugePagesMove())) {
      return k.hugetlb;
    }
    List<HugePages> out = new ArrayList<>(h.hugePageSizes().size());
    for (String size : h.hugePageSizes()) {
      String prefix = "hugetlb." + size + ".rsvd";
      Long used = single(dir.resolve(prefix + usage));
      if (used == null) {
        prefix = "hugetlb." + size;
        used = single(dir.resolve(prefix + usage));
      }
      if (used != null) {
        out.add(new HugePages(size, used, maxUsage == null ? null : single(dir.resolve(prefix + maxUsage))));
      }
    }
    k.hugetlb = List.copyOf(out);
    return k.hugetlb;
  }

  /**
   * Processes from {@code cgroup.procs}; open files and sockets from each one's {@code /proc/<pid>/fd}, and the
   * soft open-files limit of the lowest pid, as google/cadvisor lib/container/libcontainer/handler.go
   * {@code processStatsFromProcs} counts them. {@code pids.max} and the open-files limit are kept between rounds.
   */
  private @Nullable CgroupProcesses processes(Path procsDir, Path pidsDir, Kept k, boolean refresh) {
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
    if (refresh) {
      String max = read(pidsDir.resolve("pids.max"));
      k.threadsMax = max == null ? null : max.strip().equals("max") ? 0L : Long.parseLong(max.strip());
    }
    if (refresh || lowestPid != k.limitsPid) {
      k.limitsPid = lowestPid;
      k.maxOpenFilesSoft =
          lowestPid == Long.MAX_VALUE ? null : maxOpenFilesSoft(procRoot.resolve(lowestPid + "/limits"));
    }
    return new CgroupProcesses(
        processes, single(pidsDir.resolve("pids.current")), k.threadsMax, fds, sockets, k.maxOpenFilesSoft);
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
   * process, as cAdvisor reads a container's network through one of its pids. The pid is kept until its {@code
   * net/dev} cannot be read (the pause process lives as long as the sandbox); {@code null} when the cgroup has no
   * process.
   */
  public @Nullable List<NetDevInterface> network(String path) {
    Kept k = kept.computeIfAbsent(path, p -> new Kept());
    String pid = k.firstPid;
    String netDev = pid == null ? null : read(procRoot.resolve(pid).resolve("net").resolve("dev"));
    if (netDev == null) {
      pid = firstPid(path);
      k.firstPid = pid;
      netDev = pid == null ? null : read(procRoot.resolve(pid).resolve("net").resolve("dev"));
    }
    return netDev == null ? null : NetDevInterface.parse(netDev);
  }

  private @Nullable String firstPid(String path) {
    String procs = read(dir(version == CgroupVersion.V2 ? null : "cpu", path).resolve("cgroup.procs"));
    if (procs == null) {
      return null;
    }
    int end = procs.indexOf('\n');
    String pid = (end < 0 ? procs : procs.substring(0, end)).strip();
    return pid.isEmpty() ? null : pid;
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

  /**
   * A single-value file, or {@code null} when absent or not a number; v2's {@code max} (no limit) is {@link
   * Long#MAX_VALUE}, as cAdvisor reads it as the largest value.
   */
  static @Nullable Long single(Path file) {
    String text = read(file);
    if (text == null) {
      return null;
    }
    String value = text.strip();
    if (value.equals("max")) {
      return Long.MAX_VALUE;
    }
    try {
      return Long.parseLong(value);
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

  /**
   * What is kept of one cgroup (or sandbox) between rounds. Written by the one thread that reads the cgroup; the
   * reader's map only publishes it.
   */
  private static final class Kept {
    /** Whether the cgroup was read before: its first read reads everything. */
    boolean seen;
    /** When the limits are read again (on the {@code nanoTime} clock). */
    long dueAt;
    CgroupSpec spec = CgroupSpec.NONE;
    @Nullable Long threadsMax;
    long limitsPid = -1;
    @Nullable Long maxOpenFilesSoft;
    boolean unified;
    @Nullable Boolean hierarchicalMemory;
    List<HugePages> hugetlb = List.of();
    @Nullable String firstPid;
  }

  /**
   * What the host offers, read at the start and after each {@code specRefresh}.
   *
   * @param blkioPolicies v1: the file prefixes of the block IO policies in runc's order that can hold figures here
   * @param throttleRecursive v1: whether the throttle layer has its {@code _recursive} files (Linux 4.x and later)
   * @param hugePageSizes the sizes of {@code /sys/kernel/mm/hugepages}, in runc's names
   * @param hugePagesMove whether some pool has pages or may overcommit: usage can change between rounds
   * @param hugetlbV1 v1: whether the hugetlb controller is mounted
   */
  private record HostFacts(
      long readAtNanos,
      List<String> blkioPolicies,
      boolean throttleRecursive,
      List<String> hugePageSizes,
      boolean hugePagesMove,
      boolean hugetlbV1) {
    static final String BFQ = "blkio.bfq.";
    static final String CFQ = "blkio.";
    static final String THROTTLE = "blkio.throttle.";

    /** {@code _recursive} for the policies that have it; the throttle layer's plain files on kernels without. */
    String blkioSuffix(String policy) {
      return policy.equals(THROTTLE) && !throttleRecursive ? "" : "_recursive";
    }

    static HostFacts of(CgroupReader r) {
      List<String> policies = new ArrayList<>();
      boolean throttleRecursive = false;
      if (r.version == CgroupVersion.V1) {
        Path blkio = r.cgroupRoot.resolve("blkio");
        // A policy's files exist in every cgroup of the hierarchy, the root included, or in none.
        if (Files.exists(blkio.resolve("blkio.bfq.io_serviced_recursive")) && bfqSchedulesADevice(r.sysRoot)) {
          policies.add(BFQ);
        }
        if (Files.exists(blkio.resolve("blkio.io_serviced_recursive"))) {
          policies.add(CFQ);
        }
        throttleRecursive = Files.exists(blkio.resolve("blkio.throttle.io_serviced_recursive"));
        policies.add(THROTTLE);
      }
      List<String> sizes = new ArrayList<>();
      boolean move = false;
      Path pools = r.sysRoot.resolve("kernel").resolve("mm").resolve("hugepages");
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(pools, "hugepages-*kB")) {
        for (Path pool : dirs) {
          String name = pool.getFileName().toString();
          sizes.add(pageSizeName(Long.parseLong(name.substring("hugepages-".length(), name.length() - 2))));
          Long pages = single(pool.resolve("nr_hugepages"));
          Long overcommit = single(pool.resolve("nr_overcommit_hugepages"));
          move |= (pages != null && pages > 0) || (overcommit != null && overcommit > 0);
        }
      } catch (IOException | NumberFormatException e) {
        // No huge page support: no hugetlb figures.
      }
      Collections.sort(sizes);
      return new HostFacts(
          r.nanoTime.getAsLong(),
          List.copyOf(policies),
          throttleRecursive,
          List.copyOf(sizes),
          move,
          r.version == CgroupVersion.V1 && Files.isDirectory(r.cgroupRoot.resolve("hugetlb")));
    }

    /**
     * Whether a block device's active scheduler is BFQ ({@code [bfq]} in {@code /sys/block/<dev>/queue/scheduler}):
     * BFQ's files exist wherever BFQ is built, but count only the IO it schedules.
     */
    private static boolean bfqSchedulesADevice(Path sysRoot) {
      try (DirectoryStream<Path> devices = Files.newDirectoryStream(sysRoot.resolve("block"))) {
        for (Path device : devices) {
          String scheduler = read(device.resolve("queue").resolve("scheduler"));
          if (scheduler != null && scheduler.contains("[bfq]")) {
            return true;
          }
        }
      } catch (IOException e) {
        // No devices to look at: no BFQ.
      }
      return false;
    }

    /** runc's name for a page size in kB ({@code utils.go getHugePageSizeFromFilenames}): 2048 -> 2MB. */
    static String pageSizeName(long kb) {
      if (kb >= 1 << 20) {
        return (kb >> 20) + "GB";
      }
      if (kb >= 1 << 10) {
        return (kb >> 10) + "MB";
      }
      return kb + "KB";
    }
  }
}
