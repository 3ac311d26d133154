package io.winstats.cri.cgroups;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 *   <li>Limits ({@link CgroupSpec}, {@code pids.max}, the lowest pid's open-files limit) and {@code
 *       memory.use_hierarchy} change only when the runtime updates the
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
 *
 * <p>One class per controller reads its files ({@link CpuController}, {@link MemoryController}, {@link
 * BlkioController}, {@link PidsController}, {@link HugetlbController}); a flat-keyed file's keys are the constants of
 * an enum beside its reader, and a file is had only inside its parser ({@link KernelFile#read}), so a value cannot be
 * read from the next file's buffer. This class assembles a cgroup's {@link CgroupStats} and keeps what is kept between
 * rounds.
 */
public final class CgroupReader {
  /** How often limits and other slow-moving files are read again: the default of {@link #host()}. */
  public static final Duration SPEC_REFRESH = Duration.ofMinutes(1);

  private final Path cgroupRoot;
  private final Path sysRoot;
  /** {@code /proc/pressure}. */
  private final String nodePressureBase;
  private final String cpuBase;
  private final String memoryBase;
  private final String blkioBase;
  private final CgroupVersion version;
  private final Duration specRefresh;
  private final LongSupplier nanoTime;
  private final CpuController cpu;
  private final MemoryController memory;
  private final BlkioController blkio;
  private final PidsController pids;
  private final HugetlbController hugetlb;
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
    this.sysRoot = sysRoot;
    this.nodePressureBase = procRoot.resolve("pressure").toString();
    this.specRefresh = specRefresh;
    this.nanoTime = nanoTime;
    this.version = CgroupVersion.detect(cgroupRoot);
    String root = cgroupRoot.toString();
    boolean v2 = version == CgroupVersion.V2;
    // Each controller's directory as a file name prefix (/sys/fs/cgroup/memory); v2's is the root.
    this.cpuBase = v2 ? root : root + "/cpu";
    this.memoryBase = v2 ? root : root + "/memory";
    this.blkioBase = v2 ? root : root + "/blkio";
    String pidsBase = v2 ? root : root + "/pids";
    // v1: whether the pids controller has its own hierarchy; checked once rather than per cgroup and round.
    boolean pidsHierarchy = version == CgroupVersion.V1 && Files.isDirectory(cgroupRoot.resolve("pids"));
    this.cpu = new CpuController(cpuBase, v2 ? root : root + "/cpuacct", version);
    this.memory = new MemoryController(memoryBase, version);
    this.blkio = new BlkioController(blkioBase, sysRoot);
    this.pids = new PidsController(v2 || !pidsHierarchy ? cpuBase : pidsBase, pidsBase, cpuBase, procRoot);
    this.hugetlb = new HugetlbController(v2 ? root : root + "/hugetlb", version);
    this.host = HostFacts.read(cgroupRoot, sysRoot, version, nanoTime.getAsLong());
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
    long now = nanoTime.getAsLong();
    if (now - host.readAtNanos() >= specRefresh.toNanos()) {
      host = HostFacts.read(cgroupRoot, sysRoot, version, now);
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
      k.spec = memory.spec(path);
    }
    HostFacts h = host;
    boolean v2 = version == CgroupVersion.V2;
    // PSI where the kubelet and cAdvisor report it: cgroup v2 only. runc's v2 manager reads the pressure files, its v1
    // manager none (opencontainers/cgroups fs2/fs2.go:131-137, fs/fs.go:183 @v0.0.6, cAdvisor v0.60.5's), and the
    // kubelet asks cAdvisor for PSI only where /sys/fs/cgroup/cpu.pressure opens (kubernetes#137326). So a v1 hybrid
    // host's unified mount is not read: three files of ~14 per cgroup (CgroupRoundFilesTest counts them).
    boolean psi = v2;
    // In the order the files are read (CgroupRoundFilesTest pins it).
    return CgroupStats.builder(path)
        .cpu(cpu.read(path))
        .memory(memory.read(path, k))
        .io(v2 ? blkio.readV2(path) : blkio.readV1(path, h.blkioPolicies()))
        .processes(pids.read(path, k, refresh))
        .cpuPressure(psi ? pressure(file(cpuBase, path, "/cpu.pressure")) : null)
        .memoryPressure(psi ? pressure(file(memoryBase, path, "/memory.pressure")) : null)
        .ioPressure(psi ? pressure(file(blkioBase, path, "/io.pressure")) : null)
        .spec(k.spec)
        .hugetlb(v2 || h.hugetlbV1() ? hugetlb.read(path, k, refresh, h) : List.of())
        .build();
  }

  /** Usage, working set and limit of the cgroup at {@code path}, which CRI gives for containers only. */
  public @Nullable CgroupMemoryUsage memoryUsage(String path) {
    return memory.usage(path);
  }

  /**
   * The file {@code name} ({@code /memory.stat}) of the cgroup at {@code path} in the hierarchy at {@code base}: one
   * string, as {@code FileInputStream} opens it, rather than a {@code Path} resolved per directory level.
   */
  static String file(String base, String path, String name) {
    if (path.isEmpty() || path.equals("/")) {
      return base + name;
    }
    return path.charAt(0) == '/' ? base + path + name : base + "/" + path + name;
  }

  /**
   * The interfaces of the network namespace of the cgroup at {@code path}: {@code /proc/<pid>/net/dev} of its first
   * process, as cAdvisor reads a container's network through one of its pids. The pid is kept until its {@code
   * net/dev} cannot be read (the pause process lives as long as the sandbox); {@code null} when the cgroup has no
   * process.
   */
  public @Nullable List<NetDevInterface> network(String path) {
    return pids.network(path, kept.computeIfAbsent(path, p -> new Kept()));
  }

  /**
   * The node's {@code /proc/pressure} files on a cgroup v2 host; none on v1, where the kubelet reports no PSI (its
   * node figures are cAdvisor's root cgroup's, which has PSI on v2 only).
   */
  public NodePressure nodePressure() {
    if (version != CgroupVersion.V2) {
      return NodePressure.NONE;
    }
    return new NodePressure(
        pressure(nodePressureBase + "/cpu"),
        pressure(nodePressureBase + "/memory"),
        pressure(nodePressureBase + "/io"));
  }

  private static @Nullable Pressure pressure(String file) {
    return KernelFile.read(
        file, f -> KernelFile.stripStart(f.bytes, 0, f.length) == f.length ? null : Pressure.parse(f.bytes, f.length));
  }
}
