package io.winstats.cri.cgroups;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
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
 *   <li>Each file is parsed where it was read ({@link KernelFile}): only the keys the served figures need, numbers
 *       read from the bytes, no {@code String}, line list or map per file; a file's name is one string built from
 *       the controller's directory and the cgroup path, not a {@code Path} resolved level by level.
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

  private final Path cgroupRoot;
  /** {@code /proc/pressure}. */
  private final String nodePressureBase;
  /** Each controller's directory as a file name prefix ({@code /sys/fs/cgroup/memory}); v2's is the root. */
  private final String cpuBase;
  private final String cpuacctBase;
  private final String memoryBase;
  private final String blkioBase;
  private final String pidsBase;
  private final String unifiedBase;
  private final String hugetlbBase;
  private final Path procRoot;
  private final Path sysRoot;
  private final CgroupVersion version;
  private final Duration specRefresh;
  private final LongSupplier nanoTime;
  /** v1: whether the pids controller has its own hierarchy; checked once rather than per cgroup and round. */
  private final boolean pidsHierarchy;
  /** Device names by {@code major << 32 | minor}. */
  private final Map<Long, String> deviceNames = new ConcurrentHashMap<>();
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
    this.nodePressureBase = procRoot.resolve("pressure").toString();
    this.sysRoot = sysRoot;
    this.specRefresh = specRefresh;
    this.nanoTime = nanoTime;
    this.version = CgroupVersion.detect(cgroupRoot);
    String root = cgroupRoot.toString();
    boolean v2 = version == CgroupVersion.V2;
    this.cpuBase = v2 ? root : root + "/cpu";
    this.cpuacctBase = v2 ? root : root + "/cpuacct";
    this.memoryBase = v2 ? root : root + "/memory";
    this.blkioBase = v2 ? root : root + "/blkio";
    this.pidsBase = v2 ? root : root + "/pids";
    this.unifiedBase = v2 ? root : root + "/unified";
    this.hugetlbBase = v2 ? root : root + "/hugetlb";
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
    if (refresh) {
      // In a hybrid layout runc may or may not join the unified hierarchy, which it decides when it creates the
      // container: one directory check now and then spares three failed opens per cgroup and round where it did not.
      k.unified = Files.isDirectory(Path.of(file(unifiedBase, path, "")));
      k.spec = new CgroupSpec(single(file(memoryBase, path, "/memory.soft_limit_in_bytes")),
          single(file(memoryBase, path, "/memory.memsw.limit_in_bytes")));
    }
    HostFacts h = host;
    return new CgroupStats(
        path,
        cpuV1(path),
        memoryV1(path, k),
        blockIoV1(path, h),
        processes(pidsHierarchy ? pidsBase : cpuBase, pidsBase, path, k, refresh),
        k.unified ? pressure(file(unifiedBase, path, "/cpu.pressure")) : null,
        k.unified ? pressure(file(unifiedBase, path, "/memory.pressure")) : null,
        k.unified ? pressure(file(unifiedBase, path, "/io.pressure")) : null,
        k.spec,
        h.hugetlbV1 ? hugetlb(hugetlbBase, path, ".usage_in_bytes", ".max_usage_in_bytes", k, refresh, h) : List.of());
  }

  private CgroupStats readV2(String path, Kept k, boolean refresh) {
    if (refresh) {
      k.spec = new CgroupSpec(single(file(memoryBase, path, "/memory.min")),
          single(file(memoryBase, path, "/memory.swap.max")));
    }
    HostFacts h = host;
    return new CgroupStats(
        path,
        cpuV2(path),
        memoryV2(path, k.spec),
        blockIoV2(file(blkioBase, path, "/io.stat")),
        processes(cpuBase, pidsBase, path, k, refresh),
        pressure(file(cpuBase, path, "/cpu.pressure")),
        pressure(file(memoryBase, path, "/memory.pressure")),
        pressure(file(blkioBase, path, "/io.pressure")),
        k.spec,
        hugetlb(hugetlbBase, path, ".current", null, k, refresh, h));
  }

  /**
   * The file {@code name} ({@code /memory.stat}) of the cgroup at {@code path} in the hierarchy at {@code base}: one
   * string, as {@code FileInputStream} opens it, rather than a {@code Path} resolved per directory level.
   */
  private static String file(String base, String path, String name) {
    if (path.isEmpty() || path.equals("/")) {
      return base + name;
    }
    return path.charAt(0) == '/' ? base + path + name : base + "/" + path + name;
  }

  private static final KernelFile.Keys CPU_STAT_V1 = new KernelFile.Keys("nr_periods", "nr_throttled", "throttled_time");
  private static final KernelFile.Keys CPUACCT_STAT = new KernelFile.Keys("user", "system");

  private @Nullable CgroupCpu cpuV1(String path) {
    KernelFile stat = KernelFile.read(file(cpuBase, path, "/cpu.stat"));
    if (stat == null) {
      return null;
    }
    stat.keyed(CPU_STAT_V1);
    long periods = stat.get(0);
    long throttled = stat.get(1);
    long throttledNanos = stat.get(2);
    KernelFile modes = KernelFile.read(file(cpuacctBase, path, "/cpuacct.stat"));
    if (modes == null) {
      return null;
    }
    modes.keyed(CPUACCT_STAT);
    return new CgroupCpu(
        modes.get(0) * NANOS_PER_USER_HZ_TICK,
        modes.get(1) * NANOS_PER_USER_HZ_TICK,
        periods,
        throttled,
        throttledNanos);
  }

  private static final KernelFile.Keys CPU_STAT_V2 =
      new KernelFile.Keys("user_usec", "system_usec", "nr_periods", "nr_throttled", "throttled_usec");

  private @Nullable CgroupCpu cpuV2(String path) {
    KernelFile stat = KernelFile.read(file(cpuBase, path, "/cpu.stat"));
    if (stat == null) {
      return null;
    }
    stat.keyed(CPU_STAT_V2);
    return new CgroupCpu(stat.get(0) * 1000, stat.get(1) * 1000, stat.get(2), stat.get(3), stat.get(4) * 1000);
  }

  /**
   * v1 {@code memory.stat}: the hierarchical {@code total_*} keys (0-3), the cgroup's own (4-7), and the page faults,
   * which cAdvisor takes from the cgroup's own keys either way.
   */
  private static final KernelFile.Keys MEMORY_STAT_V1 =
      new KernelFile.Keys(
          "total_cache", "total_rss", "total_mapped_file", "total_swap",
          "cache", "rss", "mapped_file", "swap",
          "pgfault", "pgmajfault");

  private static final KernelFile.Keys OOM_CONTROL = new KernelFile.Keys("oom_kill");

  private @Nullable CgroupMemory memoryV1(String path, Kept k) {
    KernelFile stat = KernelFile.read(file(memoryBase, path, "/memory.stat"));
    if (stat == null) {
      return null;
    }
    stat.keyed(MEMORY_STAT_V1);
    // With use_hierarchy cAdvisor reads the total_* keys. It can only change while a cgroup has no children, nothing
    // changes it on a container's, and since Linux 5.11 it is always 1 ("mm: memcg: deprecate the non-hierarchical
    // mode"): read once per cgroup.
    Boolean hierarchical = k.hierarchicalMemory;
    if (hierarchical == null) {
      // A single value: memory.stat's keyed values stay.
      Long useHierarchy = single(file(memoryBase, path, "/memory.use_hierarchy"));
      hierarchical = useHierarchy == null || useHierarchy == 1;
      k.hierarchicalMemory = hierarchical;
    }
    int o = hierarchical ? 0 : 4;
    long cache = stat.get(o);
    long rss = stat.get(o + 1);
    long mappedFile = stat.get(o + 2);
    Long swap = stat.find(o + 3);
    long pgfault = stat.get(8);
    long pgmajfault = stat.get(9);
    Long kernel = single(file(memoryBase, path, "/memory.kmem.usage_in_bytes"));
    Long failcnt = single(file(memoryBase, path, "/memory.failcnt"));
    Long maxUsage = single(file(memoryBase, path, "/memory.max_usage_in_bytes"));
    KernelFile oomControl = KernelFile.read(file(memoryBase, path, "/memory.oom_control"));
    Long oomKills = null;
    if (oomControl != null) {
      oomControl.keyed(OOM_CONTROL);
      oomKills = oomControl.find(0);
    }
    return new CgroupMemory(
        cache, rss, mappedFile, swap, null, kernel, failcnt, maxUsage, pgfault, pgmajfault, oomKills);
  }

  private static final KernelFile.Keys MEMORY_STAT_V2 =
      new KernelFile.Keys("file", "anon", "file_mapped", "kernel", "pgfault", "pgmajfault");
  private static final KernelFile.Keys MEMORY_EVENTS = new KernelFile.Keys("max", "oom_kill");

  private @Nullable CgroupMemory memoryV2(String path, CgroupSpec spec) {
    KernelFile stat = KernelFile.read(file(memoryBase, path, "/memory.stat"));
    if (stat == null) {
      return null;
    }
    stat.keyed(MEMORY_STAT_V2);
    long cache = stat.get(0);
    long rss = stat.get(1);
    long mappedFile = stat.get(2);
    Long kernel = stat.find(3);
    long pgfault = stat.get(4);
    long pgmajfault = stat.get(5);
    KernelFile events = KernelFile.read(file(memoryBase, path, "/memory.events"));
    Long failcnt = null;
    Long oomKills = null;
    if (events != null) {
      events.keyed(MEMORY_EVENTS);
      failcnt = events.find(0);
      oomKills = events.find(1);
    }
    Long swap = single(file(memoryBase, path, "/memory.swap.current"));
    Long swapLimit = spec.memorySwapLimitBytes();
    return new CgroupMemory(
        cache,
        rss,
        mappedFile,
        swap,
        // Only where swap is accounted; "max" (unlimited) is null, as the kubelet omits swapAvailableBytes without a
        // limit.
        swap == null || swapLimit == null || swapLimit == Long.MAX_VALUE ? null : swapLimit,
        kernel,
        failcnt,
        single(file(memoryBase, path, "/memory.peak")),
        pgfault,
        pgmajfault,
        oomKills);
  }

  /**
   * v1 block IO: the first of runc's policies whose {@code io_serviced} file has a device line, then its {@code
   * io_service_bytes} file; the policies this host cannot fill are skipped ({@link HostFacts#blkioPolicies}).
   */
  private List<BlockDeviceIo> blockIoV1(String path, HostFacts h) {
    for (BlkioFiles policy : h.blkioPolicies()) {
      Devices ops = blkioV1(file(blkioBase, path, policy.serviced()));
      if (ops == null) {
        continue;
      }
      Devices bytes = blkioV1(file(blkioBase, path, policy.serviceBytes()));
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
   * {@code null} when absent or without a device line (a {@code Total} line alone). A line of three fields whose first
   * has a colon is a device's; its other lines ({@code Sync}, {@code Total}, ...) add it without figures.
   */
  private static @Nullable Devices blkioV1(String file) {
    KernelFile f = KernelFile.read(file);
    if (f == null) {
      return null;
    }
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
  private List<BlockDeviceIo> blockIoV2(String file) {
    KernelFile f = KernelFile.read(file);
    if (f == null) {
      return List.of();
    }
    byte[] b = f.bytes;
    List<BlockDeviceIo> out = new ArrayList<>();
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
        out.add(
            device(
                KernelFile.parseInt(b, from, colon),
                KernelFile.parseInt(b, colon + 1, end0),
                readBytes,
                writeBytes,
                reads,
                writes));
      }
      line = end + 1;
    }
    return out;
  }

  private BlockDeviceIo device(int major, int minor, long readBytes, long writeBytes, long reads, long writes) {
    String name =
        deviceNames.computeIfAbsent(((long) major << 32) | (minor & 0xFFFFFFFFL), key -> deviceName(major, minor));
    return new BlockDeviceIo(name, major, minor, readBytes, writeBytes, reads, writes);
  }

  /** {@code /dev/<DEVNAME>} from {@code /sys/dev/block/<maj:min>/uevent}, as cAdvisor's device labels read. */
  private String deviceName(int major, int minor) {
    String majMin = major + ":" + minor;
    KernelFile uevent = KernelFile.read(sysRoot.resolve("dev").resolve("block").resolve(majMin).resolve("uevent")
        .toString());
    if (uevent != null) {
      for (String line : uevent.text().split("\n")) {
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
      String base, String path, String usage, @Nullable String maxUsage, Kept k, boolean refresh, HostFacts h) {
    if (h.hugePageSizes().isEmpty() || !(refresh || h.hugePagesMove())) {
      return k.hugetlb;
    }
    List<HugePages> out = new ArrayList<>(h.hugePageSizes().size());
    for (String size : h.hugePageSizes()) {
      String prefix = "/hugetlb." + size + ".rsvd";
      Long used = single(file(base, path, prefix + usage));
      if (used == null) {
        prefix = "/hugetlb." + size;
        used = single(file(base, path, prefix + usage));
      }
      if (used != null) {
        out.add(new HugePages(size, used, maxUsage == null ? null : single(file(base, path, prefix + maxUsage))));
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
  private @Nullable CgroupProcesses processes(
      String procsBase, String pidsBase, String path, Kept k, boolean refresh) {
    KernelFile procs = KernelFile.read(file(procsBase, path, "/cgroup.procs"));
    if (procs == null) {
      return null;
    }
    // Held here: nothing below reads a kernel file until the list is done.
    byte[] b = procs.bytes;
    int length = procs.length;
    long processes = 0;
    long fds = 0;
    long sockets = 0;
    long lowestPid = Long.MAX_VALUE;
    for (int line = 0; line < length; ) {
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
      KernelFile max = KernelFile.read(file(pidsBase, path, "/pids.max"));
      if (max == null) {
        k.threadsMax = null;
      } else {
        int from = KernelFile.stripStart(max.bytes, 0, max.length);
        int to = KernelFile.stripEnd(max.bytes, from, max.length);
        k.threadsMax = KernelFile.equals(max.bytes, from, to, "max") ? 0L : KernelFile.parseLong(max.bytes, from, to);
      }
    }
    if (refresh || lowestPid != k.limitsPid) {
      k.limitsPid = lowestPid;
      k.maxOpenFilesSoft =
          lowestPid == Long.MAX_VALUE ? null : maxOpenFilesSoft(procRoot.resolve(lowestPid + "/limits").toString());
    }
    return new CgroupProcesses(
        processes, single(file(pidsBase, path, "/pids.current")), k.threadsMax, fds, sockets, k.maxOpenFilesSoft);
  }

  /** The soft limit of {@code Max open files} in a {@code /proc/<pid>/limits}; -1 for unlimited. */
  static @Nullable Long maxOpenFilesSoft(String limits) {
    KernelFile f = KernelFile.read(limits);
    if (f == null) {
      return null;
    }
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
  }

  /**
   * The interfaces of the network namespace of the cgroup at {@code path}: {@code /proc/<pid>/net/dev} of its first
   * process, as cAdvisor reads a container's network through one of its pids. The pid is kept until its {@code
   * net/dev} cannot be read (the pause process lives as long as the sandbox); {@code null} when the cgroup has no
   * process.
   */
  public @Nullable List<NetDevInterface> network(String path) {
    Kept k = kept.computeIfAbsent(path, p -> new Kept());
    KernelFile netDev = k.netDev == null ? null : KernelFile.read(k.netDev);
    if (netDev == null) {
      String pid = firstPid(path);
      k.netDev = pid == null ? null : procRoot.resolve(pid).resolve("net").resolve("dev").toString();
      netDev = k.netDev == null ? null : KernelFile.read(k.netDev);
    }
    return netDev == null ? null : NetDevInterface.parse(netDev.bytes, netDev.length);
  }

  private @Nullable String firstPid(String path) {
    KernelFile procs = KernelFile.read(file(cpuBase, path, "/cgroup.procs"));
    if (procs == null) {
      return null;
    }
    int from = KernelFile.stripStart(procs.bytes, 0, procs.lineEnd(0));
    int to = KernelFile.stripEnd(procs.bytes, from, procs.lineEnd(0));
    return from == to ? null : new String(procs.bytes, from, to - from, StandardCharsets.ISO_8859_1);
  }

  /** The node's {@code /proc/pressure} files. */
  public NodePressure nodePressure() {
    return new NodePressure(pressure(nodePressureBase + "/cpu"), pressure(nodePressureBase + "/memory"),
        pressure(nodePressureBase + "/io"));
  }

  private static @Nullable Pressure pressure(String file) {
    KernelFile f = KernelFile.read(file);
    if (f == null || KernelFile.stripStart(f.bytes, 0, f.length) == f.length) {
      return null;
    }
    return Pressure.parse(f.bytes, f.length);
  }

  /**
   * A single-value file, or {@code null} when absent or not a number; v2's {@code max} (no limit) is {@link
   * Long#MAX_VALUE}, as cAdvisor reads it as the largest value.
   */
  static @Nullable Long single(String file) {
    KernelFile f = KernelFile.read(file);
    return f == null ? null : f.single();
  }

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
    /** {@code /proc/<first pid>/net/dev}, kept while it can be read. */
    @Nullable String netDev;
  }

  /**
   * The two files of one v1 block IO policy, as names under a cgroup's directory.
   *
   * @param serviced {@code /<policy>io_serviced<suffix>}: operations
   * @param serviceBytes {@code /<policy>io_service_bytes<suffix>}: bytes
   */
  private record BlkioFiles(String serviced, String serviceBytes) {
    static BlkioFiles of(String policy, String suffix) {
      return new BlkioFiles("/" + policy + "io_serviced" + suffix, "/" + policy + "io_service_bytes" + suffix);
    }
  }

  /**
   * What the host offers, read at the start and after each {@code specRefresh}.
   *
   * @param blkioPolicies v1: the files of the block IO policies in runc's order that can hold figures here
   * @param hugePageSizes the sizes of {@code /sys/kernel/mm/hugepages}, in runc's names
   * @param hugePagesMove whether some pool has pages or may overcommit: usage can change between rounds
   * @param hugetlbV1 v1: whether the hugetlb controller is mounted
   */
  private record HostFacts(
      long readAtNanos,
      List<BlkioFiles> blkioPolicies,
      List<String> hugePageSizes,
      boolean hugePagesMove,
      boolean hugetlbV1) {
    static final String BFQ = "blkio.bfq.";
    static final String CFQ = "blkio.";
    static final String THROTTLE = "blkio.throttle.";

    static HostFacts of(CgroupReader r) {
      List<BlkioFiles> policies = new ArrayList<>();
      if (r.version == CgroupVersion.V1) {
        Path blkio = r.cgroupRoot.resolve("blkio");
        // A policy's files exist in every cgroup of the hierarchy, the root included, or in none.
        if (Files.exists(blkio.resolve("blkio.bfq.io_serviced_recursive")) && bfqSchedulesADevice(r.sysRoot)) {
          policies.add(BlkioFiles.of(BFQ, "_recursive"));
        }
        if (Files.exists(blkio.resolve("blkio.io_serviced_recursive"))) {
          policies.add(BlkioFiles.of(CFQ, "_recursive"));
        }
        // The throttle layer's plain files on kernels without its _recursive ones (before Linux 4.x).
        boolean throttleRecursive = Files.exists(blkio.resolve("blkio.throttle.io_serviced_recursive"));
        policies.add(BlkioFiles.of(THROTTLE, throttleRecursive ? "_recursive" : ""));
      }
      List<String> sizes = new ArrayList<>();
      boolean move = false;
      Path pools = r.sysRoot.resolve("kernel").resolve("mm").resolve("hugepages");
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(pools, "hugepages-*kB")) {
        for (Path pool : dirs) {
          String name = pool.getFileName().toString();
          sizes.add(pageSizeName(Long.parseLong(name.substring("hugepages-".length(), name.length() - 2))));
          Long pages = single(pool.resolve("nr_hugepages").toString());
          Long overcommit = single(pool.resolve("nr_overcommit_hugepages").toString());
          move |= (pages != null && pages > 0) || (overcommit != null && overcommit > 0);
        }
      } catch (IOException | NumberFormatException e) {
        // No huge page support: no hugetlb figures.
      }
      Collections.sort(sizes);
      return new HostFacts(
          r.nanoTime.getAsLong(),
          List.copyOf(policies),
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
          KernelFile scheduler = KernelFile.read(device.resolve("queue").resolve("scheduler").toString());
          if (scheduler != null && scheduler.text().contains("[bfq]")) {
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
