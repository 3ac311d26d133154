package io.winstats.perfcounters.pdh;

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
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.PerfCounterReadings;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.ValueOrigin;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.binding.LogicalDiskBinding.LogicalDiskCounter;
import io.winstats.perfcounters.binding.MemoryBinding.MemoryCounter;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding.NetworkInterfaceCounter;
import io.winstats.perfcounters.binding.PhysicalDiskBinding.PhysicalDiskCounter;
import io.winstats.perfcounters.binding.ProcessorBinding.ProcessorInformationCounter;
import io.winstats.perfcounters.binding.SystemBinding.SystemCounter;
import io.winstats.perfcounters.counters.CounterHealth;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.counters.InstanceValue;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.ProcessCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Node counters from PDH raw values: exact cumulative CPU, memory, network, volumes, disk I/O and system figures.
 *
 * <p><b>Queries.</b> One PDH query per perf object ({@link ProcessorInformationCounter}, {@link MemoryCounter},
 * {@link ProcessCounter} (for the kubelet's working set only), {@link NetworkInterfaceCounter}, {@link
 * LogicalDiskCounter}, {@link PhysicalDiskCounter}, {@link SystemCounter}, plus one
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
 * <p><b>Time.</b> The sample's timestamp is the source clock read right after the first query that collected (normally
 * {@code Processor Information}). PDH's own stamps are local-time FILETIMEs (Microsoft Learn, {@code PDH_RAW_COUNTER}):
 * converting them needs the zone of the moment, and a time-zone or daylight-saving change would shift every
 * timestamp by hours, so they are not used.
 */
public final class PdhNodeSource implements NodeCounterSource, PerfCounterReadings {
  static final Logger LOG = LoggerFactory.getLogger(PdhNodeSource.class);

  private static final String CPU_OBJECT = ProcessorInformationCounter.OBJECT;

  /** The kubelet's default {@code --root-dir} on Windows. */
  public static final Path DEFAULT_KUBELET_ROOT_DIRECTORY = Path.of("C:\\var\\lib\\kubelet");

  /**
   * The declared counters this source adds with the node working set as {@code workingSet} defines it, in order: each
   * per-object mapping declares the ones it reads.
   */
  static List<PerfCounter> counters(WorkingSetDefinition workingSet) {
    return Stream.<Collection<? extends PerfCounter>>of(
            PdhProcessorInformation.COUNTERS,
            PdhMemory.counters(workingSet),
            PdhNetworkInterface.COUNTERS,
            PdhLogicalDisk.COUNTERS,
            PdhPhysicalDisk.COUNTERS,
            PdhSystem.COUNTERS)
        .<PerfCounter>flatMap(Collection::stream)
        .toList();
  }

  private final PdhLibrary lib;
  private final Clock clock;
  private final PdhSourceOptions options;
  private final ExecutorService executor;

  // Confined to the sampling thread.
  private final Map<String, ObjectQuery> queries = new LinkedHashMap<>();
  private final PdhProcessorInformation processors = new PdhProcessorInformation();
  private final PdhMemory memory;
  private final PdhNetworkInterface networkInterfaces = new PdhNetworkInterface();
  private final PdhLogicalDisk logicalDisks;
  private final PdhPhysicalDisk physicalDisks = new PdhPhysicalDisk();
  private final PdhSystem system = new PdhSystem();
  private final KubeletRootFilesystem kubeletRootFs; // guarded by this
  private final PdhCustomCounters custom;
  private boolean registryWarningLogged;

  // Published to any thread.
  private volatile List<CounterHealth> health = List.of();
  private volatile Map<CustomCounter, List<InstanceValue>> customValues = Map.of();

  // Guarded by this.
  private @Nullable Future<NodeSample> inFlight;
  private boolean closed;

  /**
   * Opens the PDH source over {@code lib} (on a Windows host, {@code pdh.jna.JnaPdhLibrary}) with custom counters, the
   * node working set as {@code workingSet} defines it, and the kubelet's root directory whose volume the Summary's node
   * filesystem describes. A custom counter whose path PDH refuses is reported in {@link #health()} with its status and
   * logged once; the other counters run normally.
   *
   * @param clock the source clock: health timestamps and retry pacing and sample timestamps
   * @throws NodeSourceException {@code READ_FAILED} when PDH cannot be loaded, {@code TIMEOUT} when opening hangs
   */
  public static PdhNodeSource open(
      PdhLibrary lib,
      Clock clock,
      List<CustomCounter> customCounters,
      WorkingSetDefinition workingSet,
      Path kubeletRootDirectory) {
    return new PdhNodeSource(
        lib,
        clock,
        customCounters,
        PdhSourceOptions.defaults().withWorkingSet(workingSet).withKubeletRootDirectory(kubeletRootDirectory));
  }

  /** For tests: any {@link PdhLibrary} and settings. Opens every query on the sampling thread before returning. */
  PdhNodeSource(PdhLibrary lib, Clock clock, List<CustomCounter> customCounters, PdhSourceOptions options) {
    this.lib = Objects.requireNonNull(lib, "lib");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.options = Objects.requireNonNull(options, "options");
    this.memory = new PdhMemory(lib, options.workingSet());
    this.logicalDisks = new PdhLogicalDisk(options.fsTypeOf(), options.log());
    this.kubeletRootFs = new KubeletRootFilesystem(options.kubeletRootDirectory(), options.log());
    this.custom = new PdhCustomCounters(lib, customCounters, options.log());
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
      closeAfterFailedOpen();
      throw e;
    }
  }

  // The sampling thread may still be inside PDH: release handles and buffers on that thread, after it returns. The
  // close is not awaited (the thread may stay stuck past the open deadline), so its Future is dropped on purpose.
  @SuppressWarnings("FutureReturnValueIgnored")
  private void closeAfterFailedOpen() {
    executor.submit(this::closeAll);
    executor.shutdown();
  }

  private void closeAll() {
    queries.values().forEach(ObjectQuery::closeQuery);
    lib.close();
  }

  @Override
  public String name() {
    return "pdh";
  }

  @Override
  public NodePlatform platform() {
    return NodePlatform.WINDOWS;
  }

  /** The settings this source runs with. */
  PdhSourceOptions options() {
    return options;
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
    // Not a PDH call: read on the caller's thread, outside the PDH deadline.
    FilesystemUsage rootFs = kubeletRootFs.read();
    return sample.toBuilder().kubeletRootFs(rootFs).build();
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
      // A FutureTask always sets the task's exception as the cause; the ExecutionException stands in should it not.
      Throwable cause = Objects.requireNonNullElse(e.getCause(), e);
      if (cause instanceof NodeSourceException nse) {
        throw nse;
      }
      throw new NodeSourceException(
          NodeSourceException.Reason.READ_FAILED, "PDH " + what + " failed: " + cause, cause);
    }
  }

  @Override
  public Optional<PerfCounterReadings> perfCounterReadings() {
    return Optional.of(this);
  }

  /** Health of every counter path as of the last sample (or open), in query order. Thread-safe. */
  @Override
  public List<CounterHealth> health() {
    return health;
  }

  /**
   * Values of the custom counters as of the last sample, in declaration order. A counter that could not be read in
   * that sample is absent (its {@link #health()} entry says why); a gauge whose type needs two samples is empty on the
   * first. Thread-safe; the map and lists are immutable.
   */
  @Override
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
        k -> new ObjectQuery(
                lib,
                object,
                options.log(),
                options.retryInterval(),
                options.maxRetryInterval(),
                options.nanoTime(),
                clock));
  }

  private void openAll() {
    Instant now = clock.instant();
    for (PerfCounter d : counters(options.workingSet())) {
      query(d.object()).declare(d.path().toString(), d.raw(), now);
    }
    for (CustomCounter c : custom.counters()) {
      query(c.counterPath().object()).declare(c.path(), null, now);
    }
    for (ObjectQuery q : queries.values()) {
      q.open(now);
    }
    processors.logicalCores(lib.activeProcessorCount());
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
      Instant collectedAt = c.collectedAt();
      if (collectedAt != null) {
        timestamp = collectedAt;
        monotonic = c.monotonicNanos();
        break;
      }
    }
    if (monotonic < 0) {
      monotonic = options.nanoTime().getAsLong();
    }
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);
    NodeCpu cpu = part(NodePart.CPU, missing, () -> processors.read(collected(collected, CPU_OBJECT), missing));
    NodeMemory mem =
        part(
            NodePart.MEMORY,
            missing,
            () ->
                memory.read(
                    collected(collected, MemoryCounter.OBJECT), collected(collected, ProcessCounter.OBJECT), missing));
    List<NetworkInterfaceCounters> nics =
        listPart(
            NodePart.NETWORK,
            missing,
            () -> networkInterfaces.read(collected(collected, NetworkInterfaceCounter.OBJECT), missing));
    Collected disk = collected(collected, LogicalDiskCounter.OBJECT);
    List<FilesystemUsage> volumes =
        listPart(NodePart.FILESYSTEM, missing, () -> logicalDisks.filesystems(disk, missing));
    List<DiskIoCounters> disks = listPart(NodePart.DISK_IO, missing, () -> logicalDisks.disks(disk, missing));
    Collected physical = collected(collected, PhysicalDiskCounter.OBJECT);
    List<PhysicalDiskCounters> physicalDiskList =
        listPart(NodePart.PHYSICAL_DISK, missing, () -> physicalDisks.read(physical, missing));
    Collected sys = collected(collected, SystemCounter.OBJECT);
    Instant sysInstant = sys.collectedAt() != null ? sys.collectedAt() : timestamp;
    NodeSystem systemPart = part(NodePart.SYSTEM, missing, () -> system.read(sys, sysInstant, missing));
    try {
      customValues = custom.read(object -> collected(collected, object));
    } catch (RuntimeException e) {
      options.log().warn("event=pdh_custom_counters_failed", e);
      customValues = Map.of();
    }
    publishHealth();
    if (missing.keySet().containsAll(NodePart.counterParts())) {
      throw new NodeSourceException(
          NodeSourceException.Reason.READ_FAILED, "no PDH counter could be read: " + missing);
    }
    return NodeSample.builder(timestamp, monotonic)
        .cpu(cpu)
        .memory(mem)
        .interfaces(nics)
        .filesystems(volumes)
        .disks(disks)
        .physicalDisks(physicalDiskList)
        .system(systemPart)
        .missing(missing)
        .build();
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

  static String fileStoreType(String volume) {
    try {
      return Files.getFileStore(Path.of(volume + "\\")).type();
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
