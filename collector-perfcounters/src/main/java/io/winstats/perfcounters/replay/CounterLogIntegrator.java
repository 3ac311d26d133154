package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.ValueOrigin;
import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.LoggedCounter;
import io.winstats.perfcounters.counters.LogicalDiskCounter;
import io.winstats.perfcounters.counters.MemoryCounter;
import io.winstats.perfcounters.counters.NetworkInterfaceCounter;
import io.winstats.perfcounters.counters.ProcessCounter;
import io.winstats.perfcounters.counters.ProcessorInformationCounter;
import io.winstats.perfcounters.counters.SystemCounter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Turns the rows of a {@link CounterLog} into node samples, a pure function of the log and the UTC offset of its
 * timestamps.
 *
 * <p>Cumulative figures start at 0 at the first row and grow by each row's per-second value (or percentage / 100)
 * times that row's actual interval, the time since the previous row. A formatted value describes the interval before
 * its row, so the first row's rate cells, blank in typeperf logs and filled in some data-collector logs, are not
 * used: the interval they cover is unknown. This is the kubelet's {@code convertCPUValue} integration with the real
 * interval in place of its fixed 1 s (kubernetes#124734). Per core, CPU nanoseconds = Σ pct/100 × interval; for the
 * node, usageCoreNanos = Σ {@code _Total % Processor Time}/100 × interval × cores, where cores is the number of
 * per-processor instances in the header. A core whose log has {@code % Processor Time} but no {@code % Idle Time}
 * (typeperf's usual choice) gets an idle time <em>derived</em> as the interval minus the busy time, Σ (100 − {@code %
 * Processor Time})/100 × interval; it is never logged, and like every figure here it is integrated from formatted
 * values.
 *
 * <p>A part the log cannot give at all is named in {@link #unavailable()}. A part whose needed cell is blank in a row
 * is missing from that row's sample with the reason, and the blank column's cumulative figure does not grow over that
 * interval (a gap, which makes a rate across it read low); the part's other columns keep growing.
 * An interval of zero or less (the clock stepped back) adds nothing. Every figure comes from the log; none is
 * invented. Only the first host of a multi-host (relog-merged) log is read.
 */
final class CounterLogIntegrator {
  private static final double NANOS_PER_SECOND = 1e9;
  private static final double BYTES_PER_MEGABYTE = 1024d * 1024d;

  /** The file system type a Windows counter log does not record. */
  static final String UNKNOWN_FS_TYPE = "unknown";

  /**
   * The objects that hold {@link ProcessorInformationCounter}'s counters, in order of preference: {@code Processor
   * Information(*)} (all processor groups, instances {@code group,index}), then the legacy {@code Processor(*)} (the
   * first 64 processors, instances {@code index}).
   */
  static final List<String> PROCESSOR_OBJECTS = List.of(ProcessorInformationCounter.OBJECT, "Processor");

  /**
   * The objects that hold {@link NetworkInterfaceCounter}'s counters, in order of preference: {@code Network
   * Adapter(*)}, what the kubelet reads, then {@code Network Interface(*)}.
   */
  static final List<String> NETWORK_OBJECTS = List.of("Network Adapter", NetworkInterfaceCounter.OBJECT);

  /** The LogicalDisk counters a volume's space needs. */
  static final Set<LogicalDiskCounter> VOLUME_SPACE =
      EnumSet.of(LogicalDiskCounter.FREE_MEGABYTES, LogicalDiskCounter.PERCENT_FREE_SPACE);

  /** The LogicalDisk counters a disk's I/O needs, in declaration (and recording) order. */
  static final Set<LogicalDiskCounter> DISK_IO =
      EnumSet.of(
          LogicalDiskCounter.DISK_READ_BYTES,
          LogicalDiskCounter.DISK_WRITE_BYTES,
          LogicalDiskCounter.DISK_READS,
          LogicalDiskCounter.DISK_WRITES,
          LogicalDiskCounter.DISK_READ_TIME,
          LogicalDiskCounter.DISK_WRITE_TIME,
          LogicalDiskCounter.IDLE_TIME,
          LogicalDiskCounter.CURRENT_DISK_QUEUE_LENGTH);

  private final CounterLog log;
  private final ZoneOffset offset;
  private final @Nullable String host;
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, Set<String>> instancesByObject = new HashMap<>();
  private final Map<NodePart, String> unavailable = new EnumMap<>(NodePart.class);

  private final @Nullable CpuPlan cpuPlan;
  private final @Nullable MemoryPlan memoryPlan;
  private final List<InstancePlan<NetworkInterfaceCounter>> nics;
  private final List<InstancePlan<LogicalDiskCounter>> volumes;
  private final List<InstancePlan<LogicalDiskCounter>> disks;
  private final @Nullable SystemPlan systemPlan;

  private final List<NodeSample> samples;

  private record CpuPlan(
      String object,
      List<String> cores,
      Map<String, Map<ProcessorInformationCounter, Integer>> columns,
      @Nullable Integer total) {}

  private record MemoryPlan(
      @Nullable Integer total, @Nullable Integer workingSet, Map<LoggedCounter, Integer> optional) {}

  /** The counters {@link #memory} reads into {@link NodeMemory}, besides the total and the working set. */
  private static final Set<LoggedCounter> MEMORY_FIGURES =
      Set.of(
          MemoryCounter.AVAILABLE_BYTES,
          MemoryCounter.COMMITTED_BYTES,
          MemoryCounter.COMMIT_LIMIT,
          MemoryCounter.CACHE_BYTES,
          MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES,
          MemoryCounter.PAGE_FAULTS,
          NodeExtraCounter.MEMORY_USAGE_BYTES,
          NodeExtraCounter.MAJOR_PAGE_FAULTS,
          NodeExtraCounter.SWAP_TOTAL_BYTES,
          NodeExtraCounter.SWAP_FREE_BYTES);

  private record InstancePlan<C extends Enum<C> & LoggedCounter>(String instance, Map<C, Integer> columns) {}

  private record SystemPlan(int processes, Map<LoggedCounter, Integer> optional) {}

  private CounterLogIntegrator(CounterLog log, ZoneOffset offset) {
    this.log = log;
    this.offset = offset;
    this.host = log.columns().stream().filter(c -> c != null).map(CounterPath::host).findFirst().orElse(null);
    for (int i = 0; i < log.columns().size(); i++) {
      CounterPath path = log.columns().get(i);
      if (path != null && path.host().equalsIgnoreCase(host == null ? "" : host)) {
        index.putIfAbsent(key(path.object(), path.instance(), path.counter()), i);
        if (path.instance() != null) {
          instancesByObject
              .computeIfAbsent(path.object().toLowerCase(Locale.ROOT), o -> new LinkedHashSet<>())
              .add(path.instance());
        }
      }
    }
    this.cpuPlan = planCpu();
    this.memoryPlan = planMemory();
    this.nics = planNetwork();
    this.volumes = planLogicalDisks(VOLUME_SPACE, NodePart.FILESYSTEM);
    this.disks = planLogicalDisks(DISK_IO, NodePart.DISK_IO);
    this.systemPlan = planSystem();
    this.samples = integrate();
  }

  /** Integrates {@code log}, whose timestamps are local times at {@code offset} from UTC. */
  static CounterLogIntegrator integrate(CounterLog log, ZoneOffset offset) {
    return new CounterLogIntegrator(log, offset);
  }

  /** One sample per row of the log, in order; a sample may have every part missing (a row of blank cells). */
  List<NodeSample> samples() {
    return samples;
  }

  /** The parts this log cannot give in any row, with the reason. */
  Map<NodePart, String> unavailable() {
    return Collections.unmodifiableMap(unavailable);
  }

  /** The host whose counters are read, or null when the log has no counter column. */
  @Nullable String host() {
    return host;
  }

  // ---------------------------------------------------------------- plans: what the header offers

  private @Nullable CpuPlan planCpu() {
    boolean anyObject = false;
    for (String object : PROCESSOR_OBJECTS) {
      Set<String> instances = instances(object);
      if (instances.isEmpty()) {
        continue;
      }
      anyObject = true;
      Integer total = column(object, "_Total", ProcessorInformationCounter.PROCESSOR_TIME);
      List<String> cores = new ArrayList<>();
      Map<String, Map<ProcessorInformationCounter, Integer>> columns = new LinkedHashMap<>();
      for (String instance : instances) {
        if (instance.equals("_Total") || instance.endsWith(",_Total")) {
          continue;
        }
        Map<ProcessorInformationCounter, Integer> byCounter =
            columns(object, instance, ProcessorInformationCounter.class);
        if (!byCounter.isEmpty()) {
          cores.add(instance);
          columns.put(instance, byCounter);
        }
      }
      boolean perCoreTotal =
          !cores.isEmpty()
              && columns.values().stream().allMatch(m -> m.containsKey(ProcessorInformationCounter.PROCESSOR_TIME));
      if (cores.isEmpty()) {
        unavailable.put(
            NodePart.CPU,
            "the log has only " + object + "(_Total), so the number of logical processors, which the integration"
                + " multiplies by, is unknown");
        return null;
      }
      if (total == null && !perCoreTotal) {
        unavailable.put(NodePart.CPU, "the log lacks " + object + "(*)\\% Processor Time");
        return null;
      }
      return new CpuPlan(object, cores, columns, total);
    }
    if (!anyObject) {
      unavailable.put(NodePart.CPU, "the log has no Processor Information(*) or Processor(*) counters");
    }
    return null;
  }

  /**
   * Memory needs any one memory figure. The physical memory size is only in logs this daemon recorded (no PDH counter
   * holds it) and the working set needs {@code Process(_Total)\Working Set - Private}; a typeperf log of {@code
   * \Memory\*} has neither, and its available, committed, commit limit, cache and free figures are still served.
   */
  private @Nullable MemoryPlan planMemory() {
    Integer total = column(NodeExtraCounter.OBJECT, null, NodeExtraCounter.PHYSICAL_MEMORY_BYTES);
    Integer workingSet = column(NodeExtraCounter.OBJECT, null, NodeExtraCounter.MEMORY_WORKING_SET_BYTES);
    if (workingSet == null) {
      workingSet = column(ProcessCounter.OBJECT, InstanceFilter.TOTAL.pathPart(), ProcessCounter.WORKING_SET_PRIVATE);
    }
    Map<LoggedCounter, Integer> optional = new HashMap<>();
    optional.putAll(columns(MemoryCounter.OBJECT, null, MemoryCounter.class));
    optional.putAll(columns(NodeExtraCounter.OBJECT, null, NodeExtraCounter.class));
    optional.keySet().retainAll(MEMORY_FIGURES);
    if (total == null && workingSet == null && optional.isEmpty()) {
      unavailable.put(
          NodePart.MEMORY,
          "the log has no memory counter (\\Memory\\*, \\Process(_Total)\\Working Set - Private or"
              + " \\Winstats Node\\Physical Memory Bytes)");
      return null;
    }
    return new MemoryPlan(total, workingSet, optional);
  }

  private List<InstancePlan<NetworkInterfaceCounter>> planNetwork() {
    for (String object : NETWORK_OBJECTS) {
      Set<String> instances = instances(object);
      if (instances.isEmpty()) {
        continue;
      }
      List<InstancePlan<NetworkInterfaceCounter>> plans =
          complete(object, instances, NetworkInterfaceCounter.class, null);
      if (plans.isEmpty()) {
        unavailable.put(NodePart.NETWORK, incomplete(object, instances, NetworkInterfaceCounter.class, null));
      }
      return plans;
    }
    unavailable.put(NodePart.NETWORK, "the log has no Network Adapter(*) or Network Interface(*) counters");
    return List.of();
  }

  private List<InstancePlan<LogicalDiskCounter>> planLogicalDisks(Set<LogicalDiskCounter> needed, NodePart part) {
    String object = LogicalDiskCounter.OBJECT;
    Set<String> instances = new LinkedHashSet<>(instances(object));
    instances.remove("_Total");
    if (instances.isEmpty()) {
      unavailable.put(part, "the log has no LogicalDisk(*) counters");
      return List.of();
    }
    List<InstancePlan<LogicalDiskCounter>> plans = complete(object, instances, LogicalDiskCounter.class, needed);
    if (plans.isEmpty()) {
      unavailable.put(part, incomplete(object, instances, LogicalDiskCounter.class, needed));
    }
    return plans;
  }

  private @Nullable SystemPlan planSystem() {
    Integer processes = column(SystemCounter.OBJECT, null, SystemCounter.PROCESSES);
    if (processes == null) {
      unavailable.put(NodePart.SYSTEM, "the log lacks \\System\\Processes");
      return null;
    }
    Map<LoggedCounter, Integer> optional = new HashMap<>();
    optional.putAll(columns(SystemCounter.OBJECT, null, SystemCounter.class));
    optional.putAll(columns(NodeExtraCounter.OBJECT, null, NodeExtraCounter.class));
    return new SystemPlan(processes, optional);
  }

  private <C extends Enum<C> & LoggedCounter> List<InstancePlan<C>> complete(
      String object, Set<String> instances, Class<C> type, @Nullable Set<C> needed) {
    Set<C> required = needed == null ? Set.of(type.getEnumConstants()) : needed;
    List<InstancePlan<C>> plans = new ArrayList<>();
    for (String instance : instances) {
      Map<C, Integer> columns = columns(object, instance, type);
      columns.keySet().retainAll(required);
      if (columns.keySet().containsAll(required)) {
        plans.add(new InstancePlan<>(instance, columns));
      }
    }
    return plans;
  }

  private <C extends Enum<C> & LoggedCounter> String incomplete(
      String object, Set<String> instances, Class<C> type, @Nullable Set<C> needed) {
    Set<C> required = needed == null ? Set.of(type.getEnumConstants()) : needed;
    String instance = instances.iterator().next();
    Set<C> present = columns(object, instance, type).keySet();
    String lacking =
        required.stream()
            .filter(c -> !present.contains(c))
            .sorted()
            .map(LoggedCounter::counter)
            .collect(Collectors.joining(", "));
    return "no instance of " + object + "(*) has every counter the node model needs; " + object + "(" + instance
        + ") lacks " + lacking;
  }

  // ---------------------------------------------------------------- integration over the rows

  private List<NodeSample> integrate() {
    int width = log.columns().size();
    double[] integral = new double[width];
    double[] complementIntegral = new double[width];
    List<NodeSample> result = new ArrayList<>(log.rows().size());
    CounterLog.Row first = log.rows().isEmpty() ? null : log.rows().get(0);
    CounterLog.Row previous = null;
    for (int r = 0; r < log.rows().size(); r++) {
      CounterLog.Row row = log.rows().get(r);
      if (previous != null) {
        double seconds = Duration.between(previous.localTime(), row.localTime()).toNanos() / NANOS_PER_SECOND;
        if (seconds > 0) {
          for (int c = 0; c < width; c++) {
            double v = row.raw(c);
            if (!Double.isNaN(v) && v >= 0) {
              integral[c] += v * seconds;
              complementIntegral[c] += Math.max(0, 100 - v) * seconds;
            }
          }
        }
      }
      result.add(sample(r, row, first, integral, complementIntegral));
      previous = row;
    }
    return List.copyOf(result);
  }

  private NodeSample sample(
      int r, CounterLog.Row row, CounterLog.@Nullable Row first, double[] integral, double[] complement) {
    RowView view = new RowView(r, row, integral, complement);
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);
    missing.putAll(unavailable);
    NodeCpu cpu = cpuPlan == null ? null : view.part(NodePart.CPU, missing, () -> cpu(view));
    NodeMemory memory = memoryPlan == null ? null : view.part(NodePart.MEMORY, missing, () -> memory(view));
    List<NetworkInterfaceCounters> interfaces =
        nics.isEmpty() ? null : view.part(NodePart.NETWORK, missing, () -> network(view));
    List<FilesystemUsage> filesystems =
        volumes.isEmpty() ? null : view.part(NodePart.FILESYSTEM, missing, () -> filesystems(view));
    List<DiskIoCounters> diskIo = disks.isEmpty() ? null : view.part(NodePart.DISK_IO, missing, () -> diskIo(view));
    NodeSystem system = systemPlan == null ? null : view.part(NodePart.SYSTEM, missing, () -> system(view));
    Instant timestamp = row.localTime().toInstant(offset);
    long monotonicNanos = first == null ? 0 : Duration.between(first.localTime(), row.localTime()).toNanos();
    return new NodeSample(
        timestamp,
        monotonicNanos,
        ValueOrigin.FORMATTED,
        cpu,
        memory,
        interfaces == null ? List.of() : interfaces,
        filesystems == null ? List.of() : filesystems,
        diskIo == null ? List.of() : diskIo,
        system,
        missing);
  }

  private NodeCpu cpu(RowView view) {
    CpuPlan plan = cpuPlan;
    List<CoreCpuTime> cores = new ArrayList<>();
    double coreSeconds = 0;
    for (String core : plan.cores()) {
      Map<CpuMode, Long> nanosByMode = new EnumMap<>(CpuMode.class);
      for (Map.Entry<ProcessorInformationCounter, Integer> e : plan.columns().get(core).entrySet()) {
        double seconds = view.rate(e.getValue()) / 100;
        CpuMode mode = modeOf(e.getKey());
        if (mode != null) {
          nanosByMode.put(mode, Math.round(seconds * NANOS_PER_SECOND));
        } else if (plan.total() == null) {
          coreSeconds += seconds;
        }
      }
      Integer busy = plan.columns().get(core).get(ProcessorInformationCounter.PROCESSOR_TIME);
      if (!nanosByMode.containsKey(CpuMode.IDLE) && busy != null) {
        // Derived, not logged: idle = interval - busy, Σ (100 - % Processor Time)/100 × interval, so that
        // windows_cpu_time_total{mode="idle"} exists for the kubernetes-mixin Windows CPU rules.
        nanosByMode.put(CpuMode.IDLE, Math.round(view.complement(busy) / 100 * NANOS_PER_SECOND));
      }
      cores.add(new CoreCpuTime(core, nanosByMode));
    }
    if (plan.total() != null) {
      coreSeconds = view.rate(plan.total()) / 100 * plan.cores().size();
    }
    return new NodeCpu(plan.cores().size(), Math.round(coreSeconds * NANOS_PER_SECOND), cores);
  }

  /**
   * The CPU mode a {@code \Processor Information} timer measures, or {@code null} for {@code % Processor Time}, which
   * is busy time and not a mode of its own. Kept here, the only reader, so that the counter catalogue does not depend
   * on the node records.
   */
  private static @Nullable CpuMode modeOf(ProcessorInformationCounter counter) {
    return switch (counter) {
      case PROCESSOR_TIME -> null;
      case USER_TIME -> CpuMode.USER;
      case PRIVILEGED_TIME -> CpuMode.PRIVILEGED;
      case IDLE_TIME -> CpuMode.IDLE;
      case INTERRUPT_TIME -> CpuMode.INTERRUPT;
      case DPC_TIME -> CpuMode.DPC;
    };
  }

  private NodeMemory memory(RowView view) {
    MemoryPlan plan = memoryPlan;
    Map<LoggedCounter, Integer> opt = plan.optional();
    Long usage = view.optionalGauge(opt, NodeExtraCounter.MEMORY_USAGE_BYTES);
    Long committed = view.optionalGauge(opt, MemoryCounter.COMMITTED_BYTES);
    NodeMemory memory =
        NodeMemory.builder()
            .totalBytes(plan.total() == null ? null : view.gauge(plan.total()))
            .availableBytes(view.optionalGauge(opt, MemoryCounter.AVAILABLE_BYTES))
            .workingSetBytes(plan.workingSet() == null ? null : view.gauge(plan.workingSet()))
            .usageBytes(opt.containsKey(NodeExtraCounter.MEMORY_USAGE_BYTES) ? usage : committed)
            .freeBytes(view.optionalGauge(opt, MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES))
            .cacheBytes(view.optionalGauge(opt, MemoryCounter.CACHE_BYTES))
            .committedBytes(committed)
            .commitLimitBytes(view.optionalGauge(opt, MemoryCounter.COMMIT_LIMIT))
            .pageFaults(view.optionalCount(opt, MemoryCounter.PAGE_FAULTS))
            .majorPageFaults(view.optionalCount(opt, NodeExtraCounter.MAJOR_PAGE_FAULTS))
            .swapTotalBytes(view.optionalGauge(opt, NodeExtraCounter.SWAP_TOTAL_BYTES))
            .swapFreeBytes(view.optionalGauge(opt, NodeExtraCounter.SWAP_FREE_BYTES))
            .build();
    if (memory.equals(NOTHING)) {
      throw new BlankCell("row " + view.row + " has no value for any memory counter");
    }
    return memory;
  }

  private static final NodeMemory NOTHING = NodeMemory.builder().build();

  private List<NetworkInterfaceCounters> network(RowView view) {
    List<NetworkInterfaceCounters> result = new ArrayList<>();
    for (InstancePlan<NetworkInterfaceCounter> nic : nics) {
      Map<NetworkInterfaceCounter, Integer> c = nic.columns();
      result.add(
          new NetworkInterfaceCounters(
              nic.instance(),
              view.count(c.get(NetworkInterfaceCounter.BYTES_RECEIVED)),
              view.count(c.get(NetworkInterfaceCounter.BYTES_SENT)),
              view.count(c.get(NetworkInterfaceCounter.PACKETS_RECEIVED)),
              view.count(c.get(NetworkInterfaceCounter.PACKETS_SENT)),
              view.gauge(c.get(NetworkInterfaceCounter.PACKETS_RECEIVED_ERRORS)),
              view.gauge(c.get(NetworkInterfaceCounter.PACKETS_OUTBOUND_ERRORS)),
              view.gauge(c.get(NetworkInterfaceCounter.PACKETS_RECEIVED_DISCARDED)),
              view.gauge(c.get(NetworkInterfaceCounter.PACKETS_OUTBOUND_DISCARDED))));
    }
    return result;
  }

  private List<FilesystemUsage> filesystems(RowView view) {
    List<FilesystemUsage> result = new ArrayList<>();
    for (InstancePlan<LogicalDiskCounter> volume : volumes) {
      double freeBytes = view.gaugeValue(volume.columns().get(LogicalDiskCounter.FREE_MEGABYTES)) * BYTES_PER_MEGABYTE;
      double percentFree = view.gaugeValue(volume.columns().get(LogicalDiskCounter.PERCENT_FREE_SPACE));
      if (percentFree <= 0 || percentFree > 100) {
        throw new BlankCell(
            "LogicalDisk(" + volume.instance() + ")\\% Free Space is " + percentFree + " in row " + view.row
                + ", so the volume size cannot be derived");
      }
      long capacity = Math.round(freeBytes / (percentFree / 100));
      long available = Math.round(freeBytes);
      result.add(
          new FilesystemUsage(
              volume.instance(),
              volume.instance(),
              UNKNOWN_FS_TYPE,
              capacity,
              Math.min(available, capacity),
              Math.max(0, capacity - available),
              null,
              null));
    }
    return result;
  }

  private List<DiskIoCounters> diskIo(RowView view) {
    List<DiskIoCounters> result = new ArrayList<>();
    for (InstancePlan<LogicalDiskCounter> disk : disks) {
      Map<LogicalDiskCounter, Integer> c = disk.columns();
      result.add(
          new DiskIoCounters(
              disk.instance(),
              view.count(c.get(LogicalDiskCounter.DISK_READ_BYTES)),
              view.count(c.get(LogicalDiskCounter.DISK_WRITE_BYTES)),
              view.count(c.get(LogicalDiskCounter.DISK_READS)),
              view.count(c.get(LogicalDiskCounter.DISK_WRITES)),
              Math.round(view.rate(c.get(LogicalDiskCounter.DISK_READ_TIME)) / 100 * NANOS_PER_SECOND),
              Math.round(view.rate(c.get(LogicalDiskCounter.DISK_WRITE_TIME)) / 100 * NANOS_PER_SECOND),
              Math.round(view.complement(c.get(LogicalDiskCounter.IDLE_TIME)) / 100 * NANOS_PER_SECOND),
              view.gauge(c.get(LogicalDiskCounter.CURRENT_DISK_QUEUE_LENGTH))));
    }
    return result;
  }

  private NodeSystem system(RowView view) {
    SystemPlan plan = systemPlan;
    Map<LoggedCounter, Integer> opt = plan.optional();
    Integer upTime = opt.get(SystemCounter.SYSTEM_UP_TIME);
    Instant bootTime = null;
    if (upTime != null && !Double.isNaN(view.values.raw(upTime))) {
      long upMillis = Math.round(view.gaugeValue(upTime) * 1000);
      bootTime = view.values.localTime().toInstant(offset).minusMillis(upMillis);
    }
    return NodeSystem.builder(view.gauge(plan.processes()))
        .bootTime(bootTime)
        .threads(view.optionalGauge(opt, SystemCounter.THREADS))
        .maxProcesses(view.optionalGauge(opt, NodeExtraCounter.MAX_PROCESSES))
        .contextSwitches(view.optionalCount(opt, SystemCounter.CONTEXT_SWITCHES))
        .processorQueueLength(view.optionalGauge(opt, SystemCounter.PROCESSOR_QUEUE_LENGTH))
        .loadAverages(
            view.optionalDecimal(opt, NodeExtraCounter.LOAD_1),
            view.optionalDecimal(opt, NodeExtraCounter.LOAD_5),
            view.optionalDecimal(opt, NodeExtraCounter.LOAD_15))
        .build();
  }

  /** A needed cell of a row is blank: the part is missing from that row's sample. */
  private static final class BlankCell extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BlankCell(String message) {
      super(message, null, false, false);
    }
  }

  /** One row's cells and the integrals up to it, read with the blank-cell rules. */
  private final class RowView {
    final int row;
    final CounterLog.Row values;
    final double[] integral;
    final double[] complement;

    RowView(int row, CounterLog.Row values, double[] integral, double[] complement) {
      this.row = row;
      this.values = values;
      this.integral = integral;
      this.complement = complement;
    }

    <T> @Nullable T part(NodePart part, Map<NodePart, String> missing, java.util.function.Supplier<T> build) {
      try {
        return build.get();
      } catch (BlankCell | IllegalArgumentException e) {
        missing.put(part, e.getMessage());
        return null;
      }
    }

    /** The integral of a rate column up to this row; a blank cell in this row (after the first) is a gap. */
    double rate(int column) {
      requireRate(column);
      return integral[column];
    }

    double complement(int column) {
      requireRate(column);
      return complement[column];
    }

    long count(int column) {
      return Math.round(rate(column));
    }

    double gaugeValue(int column) {
      double v = values.raw(column);
      if (Double.isNaN(v) || v < 0) {
        throw blank(column);
      }
      return v;
    }

    long gauge(int column) {
      return Math.round(gaugeValue(column));
    }

    @Nullable Long optionalGauge(Map<LoggedCounter, Integer> columns, LoggedCounter counter) {
      Integer column = columns.get(counter);
      return column == null || Double.isNaN(values.raw(column)) ? null : gauge(column);
    }

    @Nullable Double optionalDecimal(Map<LoggedCounter, Integer> columns, LoggedCounter counter) {
      Integer column = columns.get(counter);
      return column == null || Double.isNaN(values.raw(column)) ? null : gaugeValue(column);
    }

    @Nullable Long optionalCount(Map<LoggedCounter, Integer> columns, LoggedCounter counter) {
      Integer column = columns.get(counter);
      return column == null || (row > 0 && Double.isNaN(values.raw(column))) ? null : count(column);
    }

    private void requireRate(int column) {
      if (row > 0 && (Double.isNaN(values.raw(column)) || values.raw(column) < 0)) {
        throw blank(column);
      }
    }

    private BlankCell blank(int column) {
      return new BlankCell("row " + row + " has no value for " + log.columns().get(column));
    }
  }

  // ---------------------------------------------------------------- header look-ups

  private Set<String> instances(String object) {
    return instancesByObject.getOrDefault(object.toLowerCase(Locale.ROOT), Set.of());
  }

  private @Nullable Integer column(String object, @Nullable String instance, LoggedCounter counter) {
    return index.get(key(object, instance, counter.counter()));
  }

  private <C extends Enum<C> & LoggedCounter> Map<C, Integer> columns(
      String object, @Nullable String instance, Class<C> type) {
    Map<C, Integer> result = new EnumMap<>(type);
    for (C counter : type.getEnumConstants()) {
      Integer column = column(object, instance, counter);
      if (column != null) {
        result.put(counter, column);
      }
    }
    return result;
  }

  private static String key(String object, @Nullable String instance, String counter) {
    return object.toLowerCase(Locale.ROOT) + '\u0000' + (instance == null ? "" : instance) + '\u0000'
        + counter.toLowerCase(Locale.ROOT);
  }
}
