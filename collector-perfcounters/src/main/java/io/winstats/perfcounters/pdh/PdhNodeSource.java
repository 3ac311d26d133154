package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.ValueOrigin;
import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.LogicalDiskCounter;
import io.winstats.perfcounters.counters.MemoryCounter;
import io.winstats.perfcounters.counters.NetworkInterfaceCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.ProcessCounter;
import io.winstats.perfcounters.counters.ProcessorInformationCounter;
import io.winstats.perfcounters.counters.SystemCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import io.winstats.perfcounters.pdh.PdhLibrary.FormattedValue;
import io.winstats.perfcounters.pdh.PdhLibrary.PdhCounter;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Node counters from PDH raw values: exact cumulative CPU, memory, network, volumes, disk I/O and system figures.
 *
 * <p><b>Queries.</b> One PDH query per perf object ({@link ProcessorInformationCounter}, {@link MemoryCounter},
 * {@link ProcessCounter}, {@link NetworkInterfaceCounter}, {@link LogicalDiskCounter}, {@link SystemCounter}, plus one
 * per object named only by a {@link CustomCounter}), opened once, counters added by English path with wildcard
 * instances, primed with one collect. Each sample collects every query and reads raw arrays; no formatted value is
 * integrated (kubernetes#124734).
 *
 * <p><b>Threading.</b> Every PDH call runs on one dedicated daemon thread ({@code winstats-pdh-sampler}).
 * {@link #sample()} hands the work to it and waits up to the deadline; a collect that hangs gives
 * {@link NodeSourceException.Reason#TIMEOUT}, no second task is queued behind it, and the next {@code sample()} first
 * waits (within its own deadline) for the hung call to return, then samples afresh. {@code sample()} and
 * {@link #close()} may be called from any one thread at a time; {@link #health()} and {@link #customValues()} are
 * thread-safe and return immutable snapshots of the last sample.
 *
 * <p><b>Failure.</b> A counter that cannot be added or read degrades only the part that needs it: the part is left
 * out and named in {@link NodeSample#missing()} as {@code "<path> <status>"}, the counter's {@link CounterHealth}
 * records the status, one log line marks the change, and the counter is added again later (see {@link ObjectQuery}).
 * Items with a bad {@code CStatus}, or a negative 64-bit value, are skipped one by one. When {@code Processor
 * Information} or {@code Memory} counters cannot be added because the object or counter is unknown, one ERROR line
 * ({@code event=pdh_counter_registry_corrupt}) tells the operator how to rebuild the counter registry.
 *
 * <p><b>Volumes.</b> Filesystems are the lettered volumes ({@code C:}); {@code _Total} and {@code HarddiskVolumeN}
 * (volumes without a letter) are left out. Disk I/O covers every volume but {@code _Total}. {@code ioTimeNanos} is
 * accumulated from {@code % Idle Time} since the source first saw the volume (see {@link BusyTime}).
 *
 * <p><b>Time.</b> The sample's timestamp is PDH's collect time of the first query that collected (normally
 * {@code Processor Information}), a <b>local</b> FILETIME converted with the JVM's default time zone, which on Windows
 * follows the system setting unless {@code -Duser.timezone} overrides it (see {@link FileTimes}).
 */
public final class PdhNodeSource implements NodeCounterSource {
  private static final Logger LOG = LoggerFactory.getLogger(PdhNodeSource.class);

  private static final String CPU_OBJECT = ProcessorInformationCounter.OBJECT;
  private static final long MASK_32 = 0xFFFF_FFFFL;
  private static final long BYTES_PER_MB = 1L << 20;
  private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

  /**
   * The declared counters this source adds, in order: every counter of each object but LogicalDisk's {@code % Disk Read
   * Time} and {@code % Disk Write Time}, which it does not need (read and write time come from the {@code Avg. Disk
   * sec} timers, busy time from {@code % Idle Time}).
   */
  static final List<PerfCounter> COUNTERS =
      Stream.<Set<? extends PerfCounter>>of(
              EnumSet.allOf(ProcessorInformationCounter.class),
              EnumSet.allOf(MemoryCounter.class),
              EnumSet.allOf(ProcessCounter.class),
              EnumSet.allOf(NetworkInterfaceCounter.class),
              EnumSet.complementOf(EnumSet.of(LogicalDiskCounter.DISK_READ_TIME, LogicalDiskCounter.DISK_WRITE_TIME)),
              EnumSet.allOf(SystemCounter.class))
          .<PerfCounter>flatMap(Set::stream)
          .toList();

  /**
   * Settings of the source; {@link #defaults()} are the production values.
   *
   * @param deadline how long {@link #sample()} and {@link #close()} wait for the sampling thread
   * @param openDeadline how long opening waits (the first {@code PdhAddCounter} of a process can take seconds)
   * @param retryInterval the least time between attempts to add a failed counter or rebuild a query
   * @param zone the zone of PDH's local FILETIMEs
   * @param nanoTime the monotonic clock for {@link NodeSample#monotonicNanos()}
   * @param fsTypeOf the filesystem type of a volume such as {@code C:}
   * @param log where operator lines go
   */
  record Options(
      Duration deadline,
      Duration openDeadline,
      Duration retryInterval,
      ZoneId zone,
      LongSupplier nanoTime,
      Function<String, String> fsTypeOf,
      Logger log) {
    static Options defaults() {
      return new Options(
          Duration.ofSeconds(5),
          Duration.ofSeconds(60),
          Duration.ofSeconds(60),
          ZoneId.systemDefault(),
          System::nanoTime,
          PdhNodeSource::fileStoreType,
          LOG);
    }
  }

  private final PdhLibrary lib;
  private final Clock clock;
  private final Options options;
  private final List<CustomCounter> custom;
  private final ExecutorService executor;

  // Confined to the sampling thread.
  private final Map<String, ObjectQuery> queries = new LinkedHashMap<>();
  private final CumulativeCounters<String> memoryCounts = new CumulativeCounters<>();
  private final CumulativeCounters<String> networkCounts = new CumulativeCounters<>();
  private final CumulativeCounters<String> diskCounts = new CumulativeCounters<>();
  private final CumulativeCounters<String> systemCounts = new CumulativeCounters<>();
  private final CumulativeCounters<String> customCounts = new CumulativeCounters<>();
  private final Map<String, Long> coreBusy100ns = new HashMap<>();
  private final Map<String, BusyTime> diskBusy = new HashMap<>();
  private final Map<String, RawCounter> customPrevious = new HashMap<>();
  private final Map<String, String> fsTypes = new HashMap<>();
  private int logicalCores;
  private @Nullable Instant bootTime;
  private boolean registryWarningLogged;

  // Published to any thread.
  private volatile List<CounterHealth> health = List.of();
  private volatile Map<CustomCounter, List<InstanceValue>> customValues = Map.of();

  // Guarded by this.
  private @Nullable Future<NodeSample> inFlight;
  private boolean closed;

  /**
   * Opens the real PDH source on this Windows host.
   *
   * @param clock the source clock: health timestamps and retry pacing (sample timestamps come from PDH)
   * @throws NodeSourceException {@code READ_FAILED} when PDH cannot be loaded, {@code TIMEOUT} when opening hangs
   */
  public static PdhNodeSource open(Clock clock) {
    return open(clock, List.of());
  }

  /**
   * Opens the real PDH source with custom counters. A custom counter whose path PDH refuses is reported in
   * {@link #health()} with its status and logged once; the other counters run normally.
   */
  public static PdhNodeSource open(Clock clock, List<CustomCounter> customCounters) {
    return new PdhNodeSource(new JnaPdhLibrary(), clock, customCounters, Options.defaults());
  }

  /** For tests: any {@link PdhLibrary} and settings. Opens every query on the sampling thread before returning. */
  PdhNodeSource(PdhLibrary lib, Clock clock, List<CustomCounter> customCounters, Options options) {
    this.lib = Objects.requireNonNull(lib, "lib");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.options = Objects.requireNonNull(options, "options");
    this.custom = List.copyOf(customCounters);
    this.executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "winstats-pdh-sampler");
              t.setDaemon(true);
              return t;
            });
    Future<?> opening = executor.submit(this::openAll);
    try {
      await(opening, options.openDeadline(), "open");
    } catch (RuntimeException e) {
      // The sampling thread may still be inside PDH: release handles and buffers on that thread, after it returns.
      executor.submit(this::closeAll);
      executor.shutdown();
      throw e;
    }
  }

  private void closeAll() {
    queries.values().forEach(ObjectQuery::closeQuery);
    lib.close();
  }

  @Override
  public String name() {
    return "pdh";
  }

  /**
   * Collects every query once and returns the sample. See the class comment for partial samples and timeouts.
   *
   * @throws NodeSourceException {@code TIMEOUT} when PDH does not answer within the deadline; {@code READ_FAILED} when
   *     no part at all could be read
   * @throws IllegalStateException after {@link #close()}
   */
  @Override
  public synchronized NodeSample sample() {
    if (closed) {
      throw new IllegalStateException("PdhNodeSource is closed");
    }
    Future<NodeSample> previous = inFlight;
    if (previous != null && !previous.isDone()) {
      try {
        previous.get(options.deadline().toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        throw new NodeSourceException(
            NodeSourceException.Reason.TIMEOUT, "an earlier PDH call is still running after the deadline");
      } catch (ExecutionException e) {
        // Its outcome no longer matters; sample afresh below.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NodeSourceException(NodeSourceException.Reason.TIMEOUT, "interrupted waiting for PDH", e);
      }
    }
    Future<NodeSample> task = executor.submit((Callable<NodeSample>) this::readSample);
    inFlight = task;
    NodeSample sample = await(task, options.deadline(), "sample");
    inFlight = null;
    return sample;
  }

  private static <T> T await(Future<T> task, Duration deadline, String what) {
    try {
      return task.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new NodeSourceException(
          NodeSourceException.Reason.TIMEOUT, "PDH " + what + " did not finish within " + deadline);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeSourceException(NodeSourceException.Reason.TIMEOUT, "interrupted waiting for PDH " + what, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof NodeSourceException nse) {
        throw nse;
      }
      throw new NodeSourceException(
          NodeSourceException.Reason.READ_FAILED, "PDH " + what + " failed: " + cause, cause);
    }
  }

  /** Health of every counter path as of the last sample (or open), in query order. Thread-safe. */
  public List<CounterHealth> health() {
    return health;
  }

  /**
   * Values of the custom counters as of the last sample, in declaration order. A counter that could not be read in
   * that sample is absent (its {@link #health()} entry says why); a gauge whose type needs two samples is empty on the
   * first. Thread-safe; the map and lists are immutable.
   */
  public Map<CustomCounter, List<InstanceValue>> customValues() {
    return customValues;
  }

  /**
   * Closes every query and frees native buffers on the sampling thread, then lets the thread end. Idempotent. Waits up
   * to the deadline; if the sampling thread is hung in PDH, the close stays queued behind the hung call (it runs if
   * the call ever returns, else the process exit frees everything) and one WARN line says so.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    Future<?> closing = executor.submit(this::closeAll);
    executor.shutdown();
    try {
      closing.get(options.deadline().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      options.log().warn("event=pdh_close_timeout deadline={}", options.deadline());
    } catch (ExecutionException e) {
      options.log().warn("event=pdh_close_failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---------------------------------------------------------------- on the sampling thread

  private ObjectQuery query(String object) {
    return queries.computeIfAbsent(
        object.toLowerCase(Locale.ROOT),
        k -> new ObjectQuery(lib, object, options.log(), options.retryInterval(), options.nanoTime()));
  }

  private void openAll() {
    Instant now = clock.instant();
    for (PerfCounter d : COUNTERS) {
      query(d.object()).declare(d.path().toString(), d.raw(), now);
    }
    for (CustomCounter c : custom) {
      query(c.counterPath().object()).declare(c.path(), null, now);
    }
    for (ObjectQuery q : queries.values()) {
      q.open(now);
    }
    logicalCores = lib.activeProcessorCount();
    checkCounterRegistry();
    publishHealth();
  }

  /** One ERROR line when core objects are unknown to PDH: the symptom of a corrupted counter registry. */
  private void checkCounterRegistry() {
    if (registryWarningLogged) {
      return;
    }
    StringJoiner objects = new StringJoiner(",");
    String status = null;
    for (String object : List.of(CPU_OBJECT, MemoryCounter.OBJECT)) {
      ObjectQuery q = queries.get(object.toLowerCase(Locale.ROOT));
      if (q == null) {
        continue;
      }
      for (String s : q.addFailures().values()) {
        if (s.equals(PdhStatus.PDH_CSTATUS_NO_OBJECT.name()) || s.equals(PdhStatus.PDH_CSTATUS_NO_COUNTER.name())) {
          objects.add(object);
          if (status == null) {
            status = s;
          }
          break;
        }
      }
    }
    if (status != null) {
      registryWarningLogged = true;
      options.log().error(
          "event=pdh_counter_registry_corrupt objects={} status={} action=\"the performance counter registry looks"
              + " corrupted: as administrator run 'lodctr /R' in %windir%\\System32 and again in %windir%\\SysWOW64,"
              + " then 'winmgmt /RESYNCPERF', then restart this service\"",
          objects,
          status);
    }
  }

  private void publishHealth() {
    List<CounterHealth> all = new ArrayList<>();
    for (ObjectQuery q : queries.values()) {
      all.addAll(q.health());
    }
    health = List.copyOf(all);
  }

  private NodeSample readSample() {
    Instant now = clock.instant();
    Map<String, Collected> collected = new LinkedHashMap<>();
    for (Map.Entry<String, ObjectQuery> e : queries.entrySet()) {
      collected.put(e.getKey(), e.getValue().collect(now));
    }
    Instant timestamp = now;
    long monotonic = -1;
    for (Collected c : collected.values()) {
      Long fileTime = c.localFileTime();
      if (fileTime != null) {
        timestamp = FileTimes.localToInstant(fileTime, options.zone(), now);
        monotonic = c.monotonicNanos();
        break;
      }
    }
    if (monotonic < 0) {
      monotonic = options.nanoTime().getAsLong();
    }
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);
    NodeCpu cpu = part(NodePart.CPU, missing, () -> cpu(collected(collected, CPU_OBJECT), missing));
    NodeMemory memory = part(NodePart.MEMORY, missing, () -> memory(collected, missing));
    List<NetworkInterfaceCounters> nics =
        listPart(NodePart.NETWORK, missing, () -> network(collected(collected, NetworkInterfaceCounter.OBJECT), missing));
    Collected disk = collected(collected, LogicalDiskCounter.OBJECT);
    List<FilesystemUsage> volumes = listPart(NodePart.FILESYSTEM, missing, () -> filesystems(disk, missing));
    List<DiskIoCounters> disks = listPart(NodePart.DISK_IO, missing, () -> disks(disk, missing));
    Collected sys = collected(collected, SystemCounter.OBJECT);
    Long sysTime = sys.localFileTime();
    Instant sysInstant = sysTime != null ? FileTimes.localToInstant(sysTime, options.zone(), now) : timestamp;
    NodeSystem system = part(NodePart.SYSTEM, missing, () -> system(sys, sysInstant, missing));
    try {
      customValues = custom(collected);
    } catch (RuntimeException e) {
      options.log().warn("event=pdh_custom_counters_failed", e);
      customValues = Map.of();
    }
    publishHealth();
    if (missing.size() == NodePart.values().length) {
      throw new NodeSourceException(
          NodeSourceException.Reason.READ_FAILED, "no PDH counter could be read: " + missing);
    }
    return new NodeSample(
        timestamp, monotonic, ValueOrigin.RAW, cpu, memory, nics, volumes, disks, system, missing);
  }

  private Collected collected(Map<String, Collected> all, String object) {
    Collected c = all.get(object.toLowerCase(Locale.ROOT));
    return c != null ? c : new Collected(null, 0, Map.of());
  }

  @FunctionalInterface
  private interface PartReader<T> {
    @Nullable T read();
  }

  /** Runs one part's builder; an unexpected failure in it marks only that part missing. */
  private @Nullable <T> T part(NodePart part, Map<NodePart, String> missing, PartReader<T> reader) {
    try {
      return reader.read();
    } catch (RuntimeException e) {
      options.log().debug("event=pdh_part_failed part={}", part, e);
      missing.putIfAbsent(part, e.getClass().getSimpleName() + ": " + e.getMessage());
      return null;
    }
  }

  private <T> List<T> listPart(NodePart part, Map<NodePart, String> missing, PartReader<List<T>> reader) {
    List<T> list = part(part, missing, reader);
    return list != null ? list : List.of();
  }

  private static Reading reading(Collected c, PerfCounter d) {
    return c.get(d.path().toString());
  }

  /** Whether every reading is ok; otherwise names the first failure as the part's reason. */
  private static boolean require(NodePart part, Map<NodePart, String> missing, Reading... readings) {
    for (Reading r : readings) {
      if (!r.ok()) {
        missing.putIfAbsent(part, r.path() + " " + r.failure());
        return false;
      }
    }
    return true;
  }

  private static long unsigned(Reading r, long raw) {
    return PerfCounterType.is64Bit(r.type()) ? raw : raw & MASK_32;
  }

  /** The value of a counter without instances (or of its single instance); {@code null} when not read. */
  private static @Nullable Long single(Reading r) {
    if (!r.ok() || r.items().isEmpty()) {
      return null;
    }
    return unsigned(r, r.items().values().iterator().next().firstValue());
  }

  static long ticksToNanos(long ticks, long ticksPerSecond) {
    if (ticksPerSecond <= 0) {
      throw new IllegalArgumentException("no time base");
    }
    return BigInteger.valueOf(ticks).multiply(NANOS_PER_SECOND).divide(BigInteger.valueOf(ticksPerSecond))
        .longValueExact();
  }

  // CPU: exact cumulative time from raw 100 ns timers (FirstValue x 100 ns), per "group,index" instance.
  private @Nullable NodeCpu cpu(Collected c, Map<NodePart, String> missing) {
    Reading user = reading(c, ProcessorInformationCounter.USER_TIME);
    Reading privileged = reading(c, ProcessorInformationCounter.PRIVILEGED_TIME);
    if (!require(NodePart.CPU, missing, user, privileged)) {
      return null;
    }
    for (Reading r : List.of(user, privileged)) {
      if (!PerfCounterType.is100Ns(r.type())) {
        missing.put(NodePart.CPU, r.path() + " UNEXPECTED_TYPE " + PerfCounterType.hex(r.type()));
        return null;
      }
    }
    Map<CpuMode, Reading> optional = new EnumMap<>(CpuMode.class);
    optional.put(CpuMode.IDLE, reading(c, ProcessorInformationCounter.IDLE_TIME));
    optional.put(CpuMode.INTERRUPT, reading(c, ProcessorInformationCounter.INTERRUPT_TIME));
    optional.put(CpuMode.DPC, reading(c, ProcessorInformationCounter.DPC_TIME));
    optional.values().removeIf(r -> !r.ok() || r.type() != PerfCounterType.PERF_100NSEC_TIMER);
    List<CoreCpuTime> cores = new ArrayList<>();
    for (Map.Entry<String, RawCounter> e : user.items().entrySet()) {
      String core = e.getKey();
      RawCounter p = privileged.items().get(core);
      if (InstanceNames.isTotal(core) || p == null) {
        continue;
      }
      long user100 = e.getValue().firstValue();
      long privileged100 = p.firstValue();
      Map<CpuMode, Long> modes = new EnumMap<>(CpuMode.class);
      modes.put(CpuMode.USER, Math.multiplyExact(user100, 100L));
      modes.put(CpuMode.PRIVILEGED, Math.multiplyExact(privileged100, 100L));
      optional.forEach(
          (mode, r) -> {
            RawCounter v = r.items().get(core);
            if (v != null) {
              modes.put(mode, Math.multiplyExact(v.firstValue(), 100L));
            }
          });
      cores.add(new CoreCpuTime(core, modes));
      coreBusy100ns.put(core, Math.addExact(user100, privileged100));
    }
    if (cores.isEmpty()) {
      missing.put(NodePart.CPU, user.path() + " NO_PROCESSOR_INSTANCES");
      return null;
    }
    // A core skipped in this sample (bad item status) keeps its last busy time in the node total, so the total never
    // drops because one item was unreadable.
    long busy100 = 0;
    for (long v : coreBusy100ns.values()) {
      busy100 = Math.addExact(busy100, v);
    }
    int logical = logicalCores > 0 ? logicalCores : cores.size();
    return new NodeCpu(logical, Math.multiplyExact(busy100, 100L), cores);
  }

  private @Nullable NodeMemory memory(Map<String, Collected> all, Map<NodePart, String> missing) {
    Collected m = collected(all, MemoryCounter.OBJECT);
    Reading workingSet = reading(collected(all, ProcessCounter.OBJECT), ProcessCounter.WORKING_SET_PRIVATE);
    if (!require(NodePart.MEMORY, missing, workingSet)) {
      return null;
    }
    Long ws = single(workingSet);
    if (ws == null) {
      missing.put(NodePart.MEMORY, workingSet.path() + " PDH_CSTATUS_NO_INSTANCE");
      return null;
    }
    long total;
    try {
      total = lib.totalPhysicalMemoryBytes();
    } catch (PdhException e) {
      missing.put(NodePart.MEMORY, e.call() + " " + e.statusName());
      return null;
    }
    Long committed = single(reading(m, MemoryCounter.COMMITTED_BYTES));
    Reading faults = reading(m, MemoryCounter.PAGE_FAULTS);
    Long pageFaults = null;
    Long rawFaults = single(faults);
    if (rawFaults != null) {
      pageFaults = memoryCounts.update(faults.path(), rawFaults, PerfCounterType.is64Bit(faults.type()));
    }
    return new NodeMemory(
        total,
        single(reading(m, MemoryCounter.AVAILABLE_BYTES)),
        ws,
        committed,
        single(reading(m, MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES)),
        single(reading(m, MemoryCounter.CACHE_BYTES)),
        committed,
        single(reading(m, MemoryCounter.COMMIT_LIMIT)),
        pageFaults,
        null,
        null,
        null);
  }

  private @Nullable List<NetworkInterfaceCounters> network(Collected c, Map<NodePart, String> missing) {
    NetworkInterfaceCounter[] defs = NetworkInterfaceCounter.values();
    Map<NetworkInterfaceCounter, Reading> r = new EnumMap<>(NetworkInterfaceCounter.class);
    for (NetworkInterfaceCounter d : defs) {
      r.put(d, reading(c, d));
    }
    if (!require(NodePart.NETWORK, missing, r.values().toArray(Reading[]::new))) {
      return null;
    }
    List<NetworkInterfaceCounters> out = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (String nic : r.get(NetworkInterfaceCounter.BYTES_RECEIVED).items().keySet()) {
      if (InstanceNames.isTotal(nic)) {
        continue;
      }
      long[] v = new long[defs.length];
      boolean complete = true;
      for (NetworkInterfaceCounter d : defs) {
        Reading reading = r.get(d);
        RawCounter raw = reading.items().get(nic);
        if (raw == null) {
          complete = false;
          break;
        }
        String key = d.name() + "|" + nic;
        keys.add(key);
        v[d.ordinal()] = networkCounts.update(key, raw.firstValue(), PerfCounterType.is64Bit(reading.type()));
      }
      if (!complete) {
        continue;
      }
      out.add(
          new NetworkInterfaceCounters(
              nic,
              v[NetworkInterfaceCounter.BYTES_RECEIVED.ordinal()],
              v[NetworkInterfaceCounter.BYTES_SENT.ordinal()],
              v[NetworkInterfaceCounter.PACKETS_RECEIVED.ordinal()],
              v[NetworkInterfaceCounter.PACKETS_SENT.ordinal()],
              v[NetworkInterfaceCounter.PACKETS_RECEIVED_ERRORS.ordinal()],
              v[NetworkInterfaceCounter.PACKETS_OUTBOUND_ERRORS.ordinal()],
              v[NetworkInterfaceCounter.PACKETS_RECEIVED_DISCARDED.ordinal()],
              v[NetworkInterfaceCounter.PACKETS_OUTBOUND_DISCARDED.ordinal()]));
    }
    networkCounts.retainOnly(keys);
    return out;
  }

  private @Nullable List<FilesystemUsage> filesystems(Collected c, Map<NodePart, String> missing) {
    Reading space = reading(c, LogicalDiskCounter.PERCENT_FREE_SPACE);
    if (!require(NodePart.FILESYSTEM, missing, space)) {
      return null;
    }
    List<FilesystemUsage> out = new ArrayList<>();
    for (Map.Entry<String, RawCounter> e : space.items().entrySet()) {
      String volume = e.getKey();
      if (InstanceNames.isTotal(volume) || volume.startsWith("HarddiskVolume")) {
        continue;
      }
      long freeMb = unsigned(space, e.getValue().firstValue());
      long totalMb = unsigned(space, e.getValue().secondValue());
      if (totalMb <= 0 || freeMb < 0 || freeMb > totalMb) {
        options.log().debug("event=pdh_volume_skipped volume={} freeMb={} totalMb={}", volume, freeMb, totalMb);
        continue;
      }
      long capacity = Math.multiplyExact(totalMb, BYTES_PER_MB);
      long available = Math.multiplyExact(freeMb, BYTES_PER_MB);
      String fsType = fsTypes.computeIfAbsent(volume, options.fsTypeOf());
      out.add(new FilesystemUsage(volume, volume + "\\", fsType, capacity, available, capacity - available, null, null));
    }
    return out;
  }

  private @Nullable List<DiskIoCounters> disks(Collected c, Map<NodePart, String> missing) {
    Reading readBytes = reading(c, LogicalDiskCounter.DISK_READ_BYTES);
    Reading writeBytes = reading(c, LogicalDiskCounter.DISK_WRITE_BYTES);
    Reading reads = reading(c, LogicalDiskCounter.DISK_READS);
    Reading writes = reading(c, LogicalDiskCounter.DISK_WRITES);
    Reading readTime = reading(c, LogicalDiskCounter.AVG_DISK_SEC_PER_READ);
    Reading writeTime = reading(c, LogicalDiskCounter.AVG_DISK_SEC_PER_WRITE);
    Reading idle = reading(c, LogicalDiskCounter.IDLE_TIME);
    Reading queue = reading(c, LogicalDiskCounter.CURRENT_DISK_QUEUE_LENGTH);
    if (!require(NodePart.DISK_IO, missing, readBytes, writeBytes, reads, writes, readTime, writeTime, idle, queue)) {
      return null;
    }
    for (Reading r : List.of(readTime, writeTime)) {
      if (r.timeBase() <= 0) {
        missing.put(NodePart.DISK_IO, r.path() + " NO_TIME_BASE");
        return null;
      }
    }
    List<DiskIoCounters> out = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (String volume : readBytes.items().keySet()) {
      if (InstanceNames.isTotal(volume)) {
        continue;
      }
      RawCounter[] raw = new RawCounter[8];
      Reading[] rs = {readBytes, writeBytes, reads, writes, readTime, writeTime, idle, queue};
      boolean complete = true;
      for (int i = 0; i < rs.length; i++) {
        raw[i] = rs[i].items().get(volume);
        complete &= raw[i] != null;
      }
      if (!complete) {
        continue;
      }
      long[] cumulative = new long[6];
      for (int i = 0; i < 6; i++) {
        String key = i + "|" + volume;
        keys.add(key);
        cumulative[i] = diskCounts.update(key, raw[i].firstValue(), PerfCounterType.is64Bit(rs[i].type()));
      }
      BusyTime busy = diskBusy.computeIfAbsent(volume, v -> new BusyTime());
      long ioNanos = busy.update(raw[6], idle.type(), idle.timeBase());
      out.add(
          new DiskIoCounters(
              volume,
              cumulative[0],
              cumulative[1],
              cumulative[2],
              cumulative[3],
              ticksToNanos(cumulative[4], readTime.timeBase()),
              ticksToNanos(cumulative[5], writeTime.timeBase()),
              ioNanos,
              unsigned(queue, raw[7].firstValue())));
    }
    diskCounts.retainOnly(keys);
    diskBusy.keySet().retainAll(out.stream().map(DiskIoCounters::device).toList());
    return out;
  }

  /**
   * Busy time of a volume accumulated from {@code % Idle Time} (FirstValue idle, SecondValue the elapsed base): each
   * sample adds elapsed minus idle. It starts at 0 when the source first sees the volume, so it is a counter since
   * then, not since boot; a decrease of either value restarts the baseline without adding.
   */
  static final class BusyTime {
    private @Nullable RawCounter last;
    private long busyNanos;

    long update(RawCounter now, int type, long timeBase) {
      RawCounter prev = last;
      last = now;
      if (prev == null) {
        return busyNanos;
      }
      long elapsed = now.secondValue() - prev.secondValue();
      long idle = now.firstValue() - prev.firstValue();
      if (elapsed < 0 || idle < 0) {
        return busyNanos;
      }
      long busy = Math.max(0, elapsed - idle);
      long nanos = PerfCounterType.is100Ns(type) ? Math.multiplyExact(busy, 100L) : ticksToNanos(busy, timeBase);
      busyNanos = Math.addExact(busyNanos, nanos);
      return busyNanos;
    }
  }

  private @Nullable NodeSystem system(Collected c, Instant collectedAt, Map<NodePart, String> missing) {
    Reading processes = reading(c, SystemCounter.PROCESSES);
    if (!require(NodePart.SYSTEM, missing, processes)) {
      return null;
    }
    Long processCount = single(processes);
    if (processCount == null) {
      missing.put(NodePart.SYSTEM, processes.path() + " PDH_CSTATUS_NO_INSTANCE");
      return null;
    }
    Reading switches = reading(c, SystemCounter.CONTEXT_SWITCHES);
    Long rawSwitches = single(switches);
    Long contextSwitches =
        rawSwitches == null
            ? null
            : systemCounts.update(switches.path(), rawSwitches, PerfCounterType.is64Bit(switches.type()));
    return new NodeSystem(
        bootTime(reading(c, SystemCounter.SYSTEM_UP_TIME), collectedAt),
        processCount,
        single(reading(c, SystemCounter.THREADS)),
        null,
        contextSwitches,
        single(reading(c, SystemCounter.PROCESSOR_QUEUE_LENGTH)),
        null,
        null,
        null);
  }

  /**
   * Boot time = collect time - uptime, uptime = (SecondValue - FirstValue) / time base (PERF_ELAPSED_TIME), truncated
   * to whole seconds. A result within a second of the previous one keeps the previous one, so the figure does not
   * flicker between samples.
   */
  private @Nullable Instant bootTime(Reading upTime, Instant collectedAt) {
    if (!upTime.ok() || upTime.items().isEmpty() || upTime.timeBase() <= 0) {
      return null;
    }
    RawCounter v = upTime.items().values().iterator().next();
    long elapsedTicks = v.secondValue() - v.firstValue();
    if (elapsedTicks < 0) {
      return null;
    }
    Instant boot = collectedAt.minusNanos(ticksToNanos(elapsedTicks, upTime.timeBase())).truncatedTo(ChronoUnit.SECONDS);
    Instant previous = bootTime;
    if (previous != null && Duration.between(previous, boot).abs().compareTo(Duration.ofSeconds(1)) <= 0) {
      return previous;
    }
    bootTime = boot;
    return boot;
  }

  private Map<CustomCounter, List<InstanceValue>> custom(Map<String, Collected> all) {
    if (custom.isEmpty()) {
      return Map.of();
    }
    Map<CustomCounter, List<InstanceValue>> out = new LinkedHashMap<>();
    Map<String, RawCounter> previous = new HashMap<>();
    Set<String> keys = new HashSet<>();
    for (CustomCounter cc : custom) {
      CounterPath path = cc.counterPath();
      Reading r = collected(all, path.object()).get(cc.path());
      if (!r.ok()) {
        continue;
      }
      List<InstanceValue> values = new ArrayList<>();
      for (Map.Entry<String, RawCounter> e : r.items().entrySet()) {
        String instance = path.instance() == null ? "" : e.getKey();
        if (path.wildcard() && InstanceNames.isTotal(instance)) {
          continue;
        }
        String key = cc.path() + "|" + instance;
        RawCounter raw = e.getValue();
        Double value =
            cc.type() == CustomCounter.Type.COUNTER
                ? counterValue(r, key, raw, keys)
                : gaugeValue(r, key, raw, previous);
        if (value != null) {
          values.add(new InstanceValue(instance, value));
        }
      }
      out.put(cc, List.copyOf(values));
    }
    customCounts.retainOnly(keys);
    customPrevious.clear();
    customPrevious.putAll(previous);
    return Collections.unmodifiableMap(out);
  }

  private @Nullable Double counterValue(Reading r, String key, RawCounter raw, Set<String> keys) {
    int type = r.type();
    if (type == PerfCounterType.PERF_100NSEC_TIMER || type == PerfCounterType.PERF_PRECISION_100NS_TIMER) {
      return raw.firstValue() * 1e-7;
    }
    if (type == PerfCounterType.PERF_ELAPSED_TIME) {
      return r.timeBase() > 0 ? (raw.secondValue() - raw.firstValue()) / (double) r.timeBase() : null;
    }
    keys.add(key);
    return (double) customCounts.update(key, raw.firstValue(), PerfCounterType.is64Bit(type));
  }

  private @Nullable Double gaugeValue(Reading r, String key, RawCounter raw, Map<String, RawCounter> previous) {
    previous.put(key, raw);
    PdhCounter handle = r.handle();
    if (handle == null) {
      return null;
    }
    RawCounter older = null;
    if (PerfCounterType.isDelta(r.type())) {
      older = customPrevious.get(key);
      if (older == null) {
        return null;
      }
    }
    try {
      FormattedValue v =
          lib.calculateFromRaw(handle, PdhLibrary.PDH_FMT_DOUBLE | PdhLibrary.PDH_FMT_NOCAP100, raw, older);
      return PdhStatus.isValidItemStatus(v.cStatus()) ? v.doubleValue() : null;
    } catch (PdhException e) {
      options.log().debug("event=pdh_calculate_failed path={} status={}", r.path(), e.statusName());
      return null;
    }
  }

  private static String fileStoreType(String volume) {
    try {
      return Files.getFileStore(Path.of(volume + "\\")).type();
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
