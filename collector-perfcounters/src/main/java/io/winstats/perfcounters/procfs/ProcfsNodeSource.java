package io.winstats.perfcounters.procfs;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.NodeSourceException.Reason;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.ValueOrigin;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Node counters from Linux {@code /proc} and, for filesystem capacity, {@code statvfs}.
 *
 * <p>What each part reads:
 *
 * <ul>
 *   <li>CPU: {@code stat}. Clock ticks are converted to nanoseconds exactly with CLK_TCK (USER_HZ), taken once at
 *       {@link #open} from {@code getconf CLK_TCK}, or 100 when that fails: USER_HZ is 100 on every x86 and arm Linux
 *       build that matters. {@link NodeCpu#usageCoreNanos()} is the aggregate {@code cpu} line's user + nice + system +
 *       irq + softirq + steal (guest time is already inside user and nice); the aggregate keeps growing when a CPU goes
 *       offline, where a sum of the per-CPU lines would drop. Cores are the online {@code cpuN} lines.
 *   <li>MEMORY: {@code meminfo}, page faults from {@code vmstat} (null when vmstat cannot be read).
 *   <li>NETWORK: {@code net/dev}, every interface of the proc root's network namespace.
 *   <li>DISK_IO: {@code diskstats}, whole disks only (node_exporter's default device exclude).
 *   <li>FILESYSTEM: {@code self/mounts} (or, opened with {@link #openHost}, the host's {@code 1/mounts}) filtered to
 *       real filesystems, then one {@link Statvfs} call on the mount point under the root filesystem path for bytes
 *       and inodes ({@link FileStore}, bytes only, where libc's statvfs cannot be called).
 *   <li>SYSTEM: {@code stat} (btime, ctxt, procs_running), {@code loadavg} (load and task count), {@code
 *       sys/kernel/pid_max}, {@code sys/kernel/threads-max} where readable, and the number of numeric directories in
 *       the proc root (processes).
 * </ul>
 *
 * <p>A part whose file cannot be read or parsed is named in {@link NodeSample#missing()} with the reason and the rest
 * is returned; a change of a part between present and missing is logged once. When no part can be read, {@link
 * #sample()} throws {@link NodeSourceException}. Not thread-safe: one sampling thread calls it.
 */
public final class ProcfsNodeSource implements NodeCounterSource {
  private static final Logger LOG = LoggerFactory.getLogger(ProcfsNodeSource.class);

  /** USER_HZ on every mainstream Linux architecture, used when {@code getconf CLK_TCK} is not available. */
  static final long DEFAULT_CLOCK_TICKS_PER_SECOND = 100;

  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final Set<CpuMode> BUSY_MODES =
      EnumSet.of(CpuMode.USER, CpuMode.NICE, CpuMode.SYSTEM, CpuMode.IRQ, CpuMode.SOFTIRQ, CpuMode.STEAL);

  /**
   * The parts this source reads: every one but Windows' physical disks, services, network adapters, volumes and
   * release.
   */
  private static final Set<NodePart> PARTS =
      EnumSet.complementOf(
          EnumSet.of(
              NodePart.PHYSICAL_DISK, NodePart.SERVICES, NodePart.NETWORK_ADAPTERS, NodePart.VOLUMES, NodePart.OS));

  private final Path procRoot;
  private final Path rootFs;
  private final String mountTable;
  private final long clockTicksPerSecond;
  private final Clock clock;
  private final LongSupplier monotonicNanos;
  private final Map<NodePart, Long> failingSinceNanos = new EnumMap<>(NodePart.class);

  ProcfsNodeSource(Path procRoot, Path rootFs, long clockTicksPerSecond, Clock clock, LongSupplier monotonicNanos) {
    this(procRoot, rootFs, SELF_MOUNTS, clockTicksPerSecond, clock, monotonicNanos);
  }

  /**
   * A source reading {@code mountTable}.
   *
   * @param mountTable the mount table to read, relative to {@code procRoot}: {@value #SELF_MOUNTS} or {@value
   *     #HOST_MOUNTS}
   */
  ProcfsNodeSource(
      Path procRoot,
      Path rootFs,
      String mountTable,
      long clockTicksPerSecond,
      Clock clock,
      LongSupplier monotonicNanos) {
    this.mountTable = Objects.requireNonNull(mountTable, "mountTable");
    if (clockTicksPerSecond <= 0) {
      throw new IllegalArgumentException("clock ticks per second must be positive: " + clockTicksPerSecond);
    }
    this.procRoot = Objects.requireNonNull(procRoot, "procRoot");
    this.rootFs = Objects.requireNonNull(rootFs, "rootFs");
    this.clockTicksPerSecond = clockTicksPerSecond;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.monotonicNanos = Objects.requireNonNull(monotonicNanos, "monotonicNanos");
  }

  /** The mount table of the daemon's own mount namespace. */
  static final String SELF_MOUNTS = "self/mounts";

  /**
   * The mount table of PID 1 of the proc root's PID namespace: the host's when the host's {@code /proc} is mounted
   * into a container (node_exporter reads the same file).
   */
  static final String HOST_MOUNTS = "1/mounts";

  /** Opens the host's {@code /proc} with {@code /} as the root filesystem and {@link System#nanoTime()}. */
  public static ProcfsNodeSource open(Clock clock) {
    return open(Path.of("/proc"), Path.of("/"), clock, System::nanoTime);
  }

  /**
   * Opens a source over {@code procRoot}.
   *
   * @param procRoot where procfs is mounted ({@code /proc}; {@code /host/proc} in a container; a fixture tree in tests)
   * @param rootFs the host's root filesystem, under which the mount points of {@code self/mounts} are resolved for
   *     statvfs ({@code /}; {@code /host} in a container, as node_exporter's {@code --path.rootfs})
   * @param clock stamps each sample
   * @param monotonicNanos a monotonic nanosecond clock read with each sample
   * @throws NodeSourceException NOT_FOUND when {@code procRoot/stat} is not readable (no procfs on this host)
   */
  public static ProcfsNodeSource open(Path procRoot, Path rootFs, Clock clock, LongSupplier monotonicNanos) {
    if (!Files.isReadable(procRoot.resolve("stat"))) {
      throw new NodeSourceException(Reason.NOT_FOUND, "no readable " + procRoot.resolve("stat") + ": not a procfs");
    }
    long ticks = clockTicksFromGetconf();
    LOG.info("event=source_opened source=procfs proc_root={} root_fs={} clk_tck={}", procRoot, rootFs, ticks);
    return new ProcfsNodeSource(procRoot, rootFs, ticks, clock, monotonicNanos);
  }

  /**
   * Opens a source for a daemon in a container that sees the host's proc tree at {@code procRoot} and the host's root
   * filesystem at {@code hostRootFs} (node_exporter's {@code --path.procfs} and {@code --path.rootfs}). Filesystems
   * come from the host's mount table, {@code procRoot/1/mounts}, not the container's {@code self/mounts}, and each
   * mount point is resolved under {@code hostRootFs}; they are reported under their host paths.
   *
   * @throws NodeSourceException NOT_FOUND when {@code procRoot/stat} is not readable (no procfs there)
   */
  public static ProcfsNodeSource openHost(
      Path procRoot, Path hostRootFs, Clock clock, LongSupplier monotonicNanos) {
    if (!Files.isReadable(procRoot.resolve("stat"))) {
      throw new NodeSourceException(Reason.NOT_FOUND, "no readable " + procRoot.resolve("stat") + ": not a procfs");
    }
    long ticks = clockTicksFromGetconf();
    LOG.info(
        "event=source_opened source=procfs proc_root={} root_fs={} mounts={} clk_tck={}",
        procRoot,
        hostRootFs,
        HOST_MOUNTS,
        ticks);
    return new ProcfsNodeSource(procRoot, hostRootFs, HOST_MOUNTS, ticks, clock, monotonicNanos);
  }

  @Override
  public String name() {
    return "procfs";
  }

  @Override
  public NodePlatform platform() {
    return NodePlatform.LINUX;
  }

  /** The CLK_TCK this source converts clock ticks with. */
  long clockTicksPerSecond() {
    return clockTicksPerSecond;
  }

  @Override
  public NodeSample sample() {
    Instant timestamp = clock.instant();
    long nanos = monotonicNanos.getAsLong();
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);

    ProcStat stat = read("stat", ProcStat::parse, missing, NodePart.CPU, NodePart.SYSTEM);
    NodeCpu cpu = stat == null ? null : build(() -> toNodeCpu(stat, clockTicksPerSecond), missing, NodePart.CPU);

    MemInfo memInfo = read("meminfo", MemInfo::parse, missing, NodePart.MEMORY);
    NodeMemory memory = null;
    if (memInfo != null) {
      VmStat vmStat = readOptional("vmstat", VmStat::parse);
      memory = memInfo.toNodeMemory(vmStat);
    }

    NetDev netDev = read("net/dev", NetDev::parse, missing, NodePart.NETWORK);
    List<NetworkInterfaceCounters> interfaces = netDev == null ? List.of() : netDev.interfaces();

    DiskStats diskStats = read("diskstats", DiskStats::parse, missing, NodePart.DISK_IO);
    List<DiskIoCounters> disks = diskStats == null ? List.of() : diskStats.disks();

    MountTable mounts = read(mountTable, MountTable::parse, missing, NodePart.FILESYSTEM);
    List<FilesystemUsage> filesystems = mounts == null ? List.of() : filesystems(mounts);

    NodeSystem system = null;
    if (stat != null) {
      LoadAvg loadAvg = read("loadavg", LoadAvg::parse, missing, NodePart.SYSTEM);
      Long pidMax = read("sys/kernel/pid_max", ProcfsNodeSource::parsePidMax, missing, NodePart.SYSTEM);
      Long threadsMax = readOptional("sys/kernel/threads-max", ProcfsNodeSource::parseThreadsMax);
      Long processes = build(this::countProcesses, missing, NodePart.SYSTEM);
      if (loadAvg != null && pidMax != null && processes != null) {
        system = toNodeSystem(stat, loadAvg, pidMax, threadsMax, processes);
      }
    }

    logTransitions(missing, nanos);
    if (missing.keySet().containsAll(PARTS)) {
      throw new NodeSourceException(Reason.READ_FAILED, "procfs: no part could be read: " + missing);
    }
    return NodeSample.builder(timestamp, nanos)
        .origin(ValueOrigin.RAW)
        .cpu(cpu)
        .memory(memory)
        .interfaces(interfaces)
        .filesystems(filesystems)
        .disks(disks)
        .system(system)
        .missing(missing)
        .build();
  }

  /** Holds no OS handles: every file is opened and closed within {@link #sample()}. */
  @Override
  public void close() {}

  /**
   * The node CPU of one {@code /proc/stat} reading.
   *
   * @throws NodeSourceException MALFORMED when there is no {@code cpuN} line
   */
  static NodeCpu toNodeCpu(ProcStat stat, long clockTicksPerSecond) {
    if (stat.cpus().isEmpty()) {
      throw ProcfsText.malformed(ProcStat.FILE, "no cpuN lines");
    }
    List<CoreCpuTime> cores = new ArrayList<>();
    for (ProcStat.CpuLine line : stat.cpus()) {
      Map<CpuMode, Long> nanosByMode = new EnumMap<>(CpuMode.class);
      line.ticksByMode().forEach((mode, ticks) -> nanosByMode.put(mode, ticksToNanos(ticks, clockTicksPerSecond)));
      cores.add(new CoreCpuTime(line.name(), nanosByMode));
    }
    long busyTicks = 0;
    for (CpuMode mode : BUSY_MODES) {
      busyTicks = Math.addExact(busyTicks, stat.total().ticks(mode));
    }
    return new NodeCpu(stat.cpus().size(), ticksToNanos(busyTicks, clockTicksPerSecond), cores);
  }

  /** Converts clock ticks to nanoseconds exactly (without overflow for any realistic uptime). */
  static long ticksToNanos(long ticks, long clockTicksPerSecond) {
    long whole = Math.multiplyExact(ticks / clockTicksPerSecond, NANOS_PER_SECOND);
    return Math.addExact(whole, (ticks % clockTicksPerSecond) * NANOS_PER_SECOND / clockTicksPerSecond);
  }

  static NodeSystem toNodeSystem(
      ProcStat stat, LoadAvg loadAvg, long pidMax, @Nullable Long threadsMax, long processes) {
    Long btime = stat.bootTimeEpochSeconds();
    return NodeSystem.builder(processes)
        .bootTime(btime == null ? null : Instant.ofEpochSecond(btime))
        .threads(loadAvg.tasks())
        .maxProcesses(pidMax)
        .contextSwitches(stat.contextSwitches())
        .processorQueueLength(stat.procsRunning())
        .load1(loadAvg.load1())
        .load5(loadAvg.load5())
        .load15(loadAvg.load15())
        .maxThreads(threadsMax)
        .build();
  }

  static long parsePidMax(String text) {
    return ProcfsText.parseCounter("/proc/sys/kernel/pid_max", text.strip());
  }

  static long parseThreadsMax(String text) {
    return ProcfsText.parseCounter("/proc/sys/kernel/threads-max", text.strip());
  }

  private long countProcesses() {
    try (Stream<Path> entries = Files.list(procRoot)) {
      return entries
          .filter(p -> isNumeric(p.getFileName().toString()))
          .filter(Files::isDirectory)
          .count();
    } catch (IOException e) {
      throw new NodeSourceException(Reason.READ_FAILED, procRoot + ": cannot list processes: " + e, e);
    }
  }

  private static boolean isNumeric(String name) {
    return !name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private List<FilesystemUsage> filesystems(MountTable mounts) {
    List<FilesystemUsage> result = new ArrayList<>();
    for (MountTable.Mount mount : mounts.realFilesystems()) {
      Path path = rootFs.resolve(mount.mountPoint().replaceFirst("^/+", ""));
      FilesystemUsage usage = Statvfs.available() ? statvfs(mount, path) : fileStore(mount, path);
      if (usage != null) {
        result.add(usage);
      }
    }
    return result;
  }

  /** One {@code statvfs(3)} per filesystem: bytes and inodes as node_exporter reads them. */
  private static @Nullable FilesystemUsage statvfs(MountTable.Mount mount, Path path) {
    Statvfs.Usage usage = Statvfs.usage(path);
    if (usage == null) {
      LOG.debug("event=filesystem_skipped source=procfs mountpoint={} reason=statvfs_failed", mount.mountPoint());
      return null;
    }
    Statvfs.Inodes inodes = usage.inodes();
    return FilesystemUsage.builder(mount.device(), mount.mountPoint(), mount.fsType())
        .capacityBytes(usage.totalBytes())
        .availableBytes(usage.availableBytes())
        .usedBytes(Math.max(0, usage.totalBytes() - usage.freeBytes()))
        .inodes(inodes == null ? null : inodes.total())
        .inodesFree(inodes == null ? null : inodes.free())
        .readOnly(mount.readOnly())
        .build();
  }

  /** Where libc's statvfs cannot be called (32-bit): the JDK's file store, bytes only. */
  private static @Nullable FilesystemUsage fileStore(MountTable.Mount mount, Path path) {
    try {
      FileStore store = Files.getFileStore(path);
      long total = store.getTotalSpace();
      return FilesystemUsage.builder(mount.device(), mount.mountPoint(), mount.fsType())
          .capacityBytes(total)
          .availableBytes(store.getUsableSpace())
          .usedBytes(Math.max(0, total - store.getUnallocatedSpace()))
          .readOnly(mount.readOnly())
          .build();
    } catch (IOException | SecurityException e) {
      LOG.debug("event=filesystem_skipped source=procfs mountpoint={} reason={}", mount.mountPoint(), e.toString());
      return null;
    }
  }

  private <T> @Nullable T read(
      String relative, Function<String, T> parser, Map<NodePart, String> missing, NodePart... parts) {
    return build(() -> parser.apply(readText(relative)), missing, parts);
  }

  private <T> @Nullable T readOptional(String relative, Function<String, T> parser) {
    try {
      return parser.apply(readText(relative));
    } catch (NodeSourceException e) {
      LOG.debug("event=optional_file_unreadable source=procfs file={} reason={}", relative, e.getMessage());
      return null;
    }
  }

  private static <T> @Nullable T build(
      java.util.function.Supplier<T> step, Map<NodePart, String> missing, NodePart... parts) {
    try {
      return step.get();
    } catch (NodeSourceException | IllegalArgumentException | ArithmeticException e) {
      String reason =
          e instanceof NodeSourceException nse ? nse.reason().label() + ": " + e.getMessage() : e.toString();
      for (NodePart part : parts) {
        missing.putIfAbsent(part, reason);
      }
      return null;
    }
  }

  private String readText(String relative) {
    Path file = procRoot.resolve(relative);
    // procfs files report size 0. Files.readString then reads one byte and continues at offset 1, where sysctl
    // integer files (kernel/pid_max) answer end-of-file: pid_max 32768 read as "3". One buffered read from offset 0
    // gets the whole value.
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    } catch (NoSuchFileException e) {
      throw new NodeSourceException(Reason.NOT_FOUND, file + ": no such file", e);
    } catch (IOException e) {
      throw new NodeSourceException(Reason.READ_FAILED, file + ": " + e, e);
    }
  }

  private void logTransitions(Map<NodePart, String> missing, long nowNanos) {
    for (NodePart part : PARTS) {
      String reason = missing.get(part);
      Long since = failingSinceNanos.get(part);
      if (reason != null && since == null) {
        failingSinceNanos.put(part, nowNanos);
        LOG.warn("event=node_part_missing source=procfs part={} reason={}", part, reason);
      } else if (reason == null && since != null) {
        failingSinceNanos.remove(part);
        LOG.info(
            "event=node_part_recovered source=procfs part={} outage_seconds={}",
            part,
            (nowNanos - since) / NANOS_PER_SECOND);
      }
    }
  }

  /** CLK_TCK from {@code getconf CLK_TCK}, or {@value #DEFAULT_CLOCK_TICKS_PER_SECOND} when that fails. */
  static long clockTicksFromGetconf() {
    String failure;
    try {
      Process process = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        failure = "getconf did not exit";
      } else if (process.exitValue() != 0) {
        failure = "getconf exit " + process.exitValue() + ": " + out;
      } else {
        long ticks = Long.parseLong(out);
        if (ticks > 0) {
          return ticks;
        }
        failure = "getconf printed " + out;
      }
    } catch (IOException | NumberFormatException e) {
      failure = e.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = "interrupted";
    }
    LOG.info(
        "event=clk_tck_default source=procfs clk_tck={} reason={}", DEFAULT_CLOCK_TICKS_PER_SECOND, failure);
    return DEFAULT_CLOCK_TICKS_PER_SECOND;
  }
}
