package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.ProcessorCounters;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.binding.Binding;
import io.winstats.perfcounters.binding.BoundFigures;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.binding.FigureKind;
import io.winstats.perfcounters.binding.LogicalDiskBinding;
import io.winstats.perfcounters.binding.LogicalDiskBinding.LogicalDiskCounter;
import io.winstats.perfcounters.binding.MemoryBinding;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding;
import io.winstats.perfcounters.binding.PhysicalDiskBinding;
import io.winstats.perfcounters.binding.PhysicalDiskBinding.PhysicalDiskCounter;
import io.winstats.perfcounters.binding.ProcessorBinding;
import io.winstats.perfcounters.binding.ProcessorBinding.ProcessorInformationCounter;
import io.winstats.perfcounters.binding.SystemBinding;
import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.ProcessCounter;
import io.winstats.perfcounters.replay.CounterLogRecorder;
import io.winstats.perfcounters.replay.CounterLogRoundTrip;
import io.winstats.perfcounters.replay.ReplayNodeSource;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live, record, replay: Windows-shaped samples from the PDH source over {@link FakePdhLibrary} (the synthetic-4cpu
 * fixture, every raw value moved on between samples, at uneven intervals) are
 * written by {@link CounterLogRecorder} and read back by {@link ReplayNodeSource}, and the replayed samples must equal
 * the originals in every figure a log carries.
 *
 * <p>Two checks make a counter read live but forgotten in the log fail here. Every counter the PDH source adds has a
 * column in the recorded log, or is listed in {@link #NOT_LOGGED} with the reason. Every component of every node-model
 * record is classified in {@link #CARRIED} (the same after the round trip; a cumulative figure that replays as its
 * increase since the first row; or not carried, with the reason), and compared accordingly: a component a binding
 * table fills by its row, any other by {@link #CARRIED_BY_HAND}, so a new special-case field needs a classification,
 * and one the log drops fails its comparison.
 *
 * <p>Not counters, and so not in the first check: the physical memory size ({@code GlobalMemoryStatusEx}, carried as
 * {@code \Winstats Node\Physical Memory Bytes}), the logical processor count ({@code GetActiveProcessorCount}, carried
 * as the number of per-core instances) and the kubelet's root volume ({@code GetDiskFreeSpaceExW}, read live, never
 * logged).
 */
class RecordReplayParityTest {
  @TempDir Path dir;

  private static final String FIXTURE = "fixtures/pdh/synthetic-4cpu/sample-1.tsv";
  private static final Instant START = Instant.parse("2025-01-15T10:00:05.123Z");
  /** Seconds between the samples, uneven on purpose. */
  private static final int[] INTERVALS = {1, 3, 2, 10};

  private static final String LATENCY_TOTAL =
      "a log holds an average timer's mean per interval, not its total (the FirstValue windows_exporter serves)";

  private static final String AVERAGE_BULK =
      "a log holds a PERF_AVERAGE_BULK's ratio per interval, not its numerator and 32-bit base (the FirstValue and"
          + " SecondValue windows_exporter serves)";

  /** The counters the PDH source adds that a recorded log has no column for, with the reason. */
  static final Map<String, String> NOT_LOGGED =
      Map.of(
          ProcessorInformationCounter.PROCESSOR_PERFORMANCE.path().toString(),
          AVERAGE_BULK,
          ProcessorInformationCounter.PROCESSOR_UTILITY.path().toString(),
          AVERAGE_BULK,
          ProcessorInformationCounter.PRIVILEGED_UTILITY.path().toString(),
          AVERAGE_BULK,
          ProcessCounter.WORKING_SET_PRIVATE.path().toString(),
          "the log carries the working set as the daemon defined it (\\Winstats Node\\Memory Working Set Bytes),"
              + " whichever --node.memory.working-set chose",
          PhysicalDiskCounter.AVG_DISK_SEC_PER_READ.path().toString(),
          LATENCY_TOTAL,
          PhysicalDiskCounter.AVG_DISK_SEC_PER_WRITE.path().toString(),
          LATENCY_TOTAL,
          PhysicalDiskCounter.AVG_DISK_SEC_PER_TRANSFER.path().toString(),
          LATENCY_TOTAL,
          LogicalDiskCounter.AVG_DISK_SEC_PER_READ.path().toString(),
          LATENCY_TOTAL,
          LogicalDiskCounter.AVG_DISK_SEC_PER_WRITE.path().toString(),
          LATENCY_TOTAL,
          LogicalDiskCounter.AVG_DISK_SEC_PER_TRANSFER.path().toString(),
          LATENCY_TOTAL);

  /** How a record component fares in a log. */
  private record Carried(Kind kind, String reason) {
    enum Kind {
      SAME,
      INCREASE,
      NOT_CARRIED
    }
  }

  private static final Carried SAME = new Carried(Carried.Kind.SAME, "");
  private static final Carried INCREASE = new Carried(Carried.Kind.INCREASE, "");

  private static Carried notCarried(String reason) {
    return new Carried(Carried.Kind.NOT_CARRIED, reason);
  }

  /**
   * Every component of every node-model record: {@code SAME} (records and lists are compared component by component),
   * {@code INCREASE} (replayed cumulative figures start at 0 at the first row), or not carried with the reason. A
   * component a binding table fills is classified by its row ({@link #byRow}) and needs no entry here; these are the
   * rest, the special cases of the {@code Pdh*} and {@code Replay*} classes.
   */
  static final Map<Class<? extends Record>, Map<String, Carried>> CARRIED_BY_HAND =
      Map.of(
          NodeSample.class,
          Map.ofEntries(
              Map.entry("timestamp", SAME),
              Map.entry("monotonicNanos", notCarried("a log holds times; replay's clock is the offset since row 0")),
              Map.entry("origin", notCarried("replay integrates formatted values: FORMATTED by definition")),
              Map.entry("cpu", SAME),
              Map.entry("memory", SAME),
              Map.entry("interfaces", SAME),
              Map.entry("filesystems", SAME),
              Map.entry("disks", SAME),
              Map.entry("physicalDisks", SAME),
              Map.entry("system", SAME),
              Map.entry("missing", SAME),
              Map.entry("kubeletRootFs", notCarried("read live from the volume (GetDiskFreeSpaceExW), not a counter")),
              Map.entry("services", notCarried("read live from the Service Control Manager, not a counter")),
              Map.entry(
                  "adapters", notCarried("read live from the IP Helper API (GetAdaptersAddresses), not a counter")),
              Map.entry(
                  "volumes",
                  notCarried("read live from the volume management functions and IOCTL, not a counter")),
              Map.entry(
                  "windowsOs",
                  notCarried("read live from the registry, RtlGetVersion and GetComputerNameExW, not a counter"))),
          NodeCpu.class,
          Map.of("logicalCores", SAME, "usageCoreNanos", INCREASE, "cores", SAME, "processors", SAME),
          ProcessorCounters.class,
          Map.of(
              "core", SAME,
              "performance", notCarried(AVERAGE_BULK),
              "mperfTicks", notCarried(AVERAGE_BULK),
              "utility", notCarried(AVERAGE_BULK),
              "rtcTicks", notCarried(AVERAGE_BULK),
              "privilegedUtility", notCarried(AVERAGE_BULK)),
          CoreCpuTime.class,
          Map.of("core", SAME, "nanosByMode", INCREASE),
          NodeMemory.class,
          Map.of(
              "totalBytes", SAME,
              "workingSetBytes", SAME,
              "usageBytes", SAME,
              "rssBytes", notCarried("Linux only (/proc/meminfo AnonPages); no column is written for it"),
              "physicalFreeBytes",
              notCarried("GlobalMemoryStatusEx.ullAvailPhys, read live, not a counter; no column is written for it"),
              "processMemoryLimitBytes",
              notCarried(
                  "GlobalMemoryStatusEx.ullTotalVirtual, read live, not a counter; no column is written for it")),
          NetworkInterfaceCounters.class,
          Map.of("name", SAME),
          FilesystemUsage.class,
          Map.of(
              "device", SAME,
              "mountpoint", SAME,
              "fsType", notCarried("a counter log has no file system type"),
              "capacityBytes", SAME,
              "availableBytes", SAME,
              "usedBytes", SAME,
              "inodes", SAME,
              "inodesFree", SAME,
              "readOnly", SAME),
          DiskIoCounters.class,
          Map.of(
              "device", SAME,
              "weightedIoTimeNanos", notCarried("Linux only (/proc/diskstats field 11); no column is written for it"),
              "readLatencyNanos", notCarried(LATENCY_TOTAL),
              "writeLatencyNanos", notCarried(LATENCY_TOTAL),
              "transferLatencyNanos", notCarried(LATENCY_TOTAL)),
          PhysicalDiskCounters.class,
          Map.of(
              "instance", SAME,
              "readLatencyNanos", notCarried(LATENCY_TOTAL),
              "writeLatencyNanos", notCarried(LATENCY_TOTAL),
              "transferLatencyNanos", notCarried(LATENCY_TOTAL)),
          NodeSystem.class,
          Map.of(
              "bootTime", SAME,
              "load1", SAME,
              "load5", SAME,
              "load15", SAME,
              "maxThreads", notCarried("Linux only (kernel.threads-max); no column is written for it")));

  /** {@link #CARRIED_BY_HAND} and every component a binding table fills, classified by its row. */
  static final Map<Class<? extends Record>, Map<String, Carried>> CARRIED = carried();

  private static Map<Class<? extends Record>, Map<String, Carried>> carried() {
    Map<Class<? extends Record>, Map<String, Carried>> all = new HashMap<>();
    CARRIED_BY_HAND.forEach((type, byName) -> all.put(type, new HashMap<>(byName)));
    for (BoundFigures.Table table : BoundFigures.TABLES) {
      Map<String, Carried> byName = all.computeIfAbsent(table.record(), t -> new HashMap<>());
      BoundFigures.of(table)
          .forEach(
              (name, row) -> {
                String component = name.substring(name.indexOf('.') + 1);
                if (byName.put(component, byRow(row)) != null) {
                  throw new AssertionError(name + " is both a binding table's and in CARRIED_BY_HAND");
                }
              });
    }
    return all;
  }

  /**
   * How a table's figure fares in a log: a count the log writes as a rate, and a timer, replay as their increase since
   * the first row; a gauge, and a count the log writes as it is (the interface error and drop counts), the same.
   */
  private static Carried byRow(Figure<?, ?, ?> row) {
    boolean asRate =
        row.kind() == FigureKind.TIMER
            || row.kind() == FigureKind.INVERSE_TIMER
            || row.kind() == FigureKind.CUMULATIVE && row.counter().formatted().isRate();
    return asRate ? INCREASE : SAME;
  }

  /** The key a list element is matched by between samples. */
  private static final Map<Class<?>, Function<Object, String>> KEYS =
      Map.of(
          CoreCpuTime.class, o -> ((CoreCpuTime) o).core(),
          NetworkInterfaceCounters.class, o -> ((NetworkInterfaceCounters) o).name(),
          FilesystemUsage.class, o -> ((FilesystemUsage) o).mountpoint(),
          DiskIoCounters.class, o -> ((DiskIoCounters) o).device(),
          PhysicalDiskCounters.class, o -> ((PhysicalDiskCounters) o).instance(),
          ProcessorCounters.class, o -> ((ProcessorCounters) o).core());

  /** The tables whose object names a log may hold a counter under. */
  private static final List<Binding<?, ?, ?>> TABLES =
      List.of(
          MemoryBinding.MEMORY,
          SystemBinding.SYSTEM,
          NetworkInterfaceBinding.NETWORK_INTERFACE,
          LogicalDiskBinding.DISK_IO,
          PhysicalDiskBinding.DISK,
          ProcessorBinding.MODES,
          ProcessorBinding.CORE);

  private final FakePdhLibrary fake = new FakePdhLibrary().load(FIXTURE);
  private final AtomicLong nanos = new AtomicLong(1_000);
  private final List<PdhNodeSource> opened = new ArrayList<>();

  @AfterEach
  void closeSources() {
    opened.forEach(PdhNodeSource::close);
  }

  @Test
  void everyCounterThePdhSourceReadsHasAColumnInTheRecordedLogOrAReason() throws IOException {
    Path log = record(liveSamples());
    Set<String> columns = new TreeSet<>();
    for (String cell : headerCells(log)) {
      CounterPath.parseQualified(cell).ifPresent(p -> columns.add(key(p.object(), p.counter())));
    }

    Map<String, String> unlogged = new TreeMap<>();
    for (PerfCounter d : PdhNodeSource.counters(WorkingSetDefinition.KUBELET)) {
      boolean logged = objectsInALog(d.object()).stream().anyMatch(o -> columns.contains(key(o, d.counter())));
      if (!logged) {
        unlogged.put(d.path().toString(), NOT_LOGGED.getOrDefault(d.path().toString(), "NO COLUMN AND NO REASON"));
      }
    }

    assertThat(unlogged).as("counters PDH reads without a column in the recorded log").isEqualTo(NOT_LOGGED);
  }

  @Test
  void aRecordedLogReplaysEveryFigureItCarries() throws IOException {
    List<NodeSample> live = liveSamples();
    assertThat(live).allSatisfy(s -> assertThat(s.missing()).isEmpty());
    assertThat(live.get(live.size() - 1).interfaces())
        .as("the 32-bit Bytes Received/sec wrapped and was carried")
        .anySatisfy(n -> assertThat(n.rxBytes()).isGreaterThan(1L << 32));

    List<NodeSample> replayed = replay(record(live));

    assertThat(replayed).hasSize(live.size());
    for (int i = 0; i < live.size(); i++) {
      compare("sample " + i, live.get(i), live.get(0), replayed.get(i));
    }
  }

  @Test
  void everyComponentOfEveryNodeRecordIsClassified() {
    CARRIED.forEach(
        (type, byName) -> {
          List<String> components =
              List.of(type.getRecordComponents()).stream().map(RecordComponent::getName).toList();
          assertThat(components.stream().filter(c -> !byName.containsKey(c)).toList())
              .as(
                  "components of %s in no binding table and not in CARRIED_BY_HAND (SAME, INCREASE, or not carried"
                      + " and why)",
                  type.getSimpleName())
              .isEmpty();
          assertThat(byName.keySet().stream().filter(c -> !components.contains(c)).toList())
              .as("names in CARRIED_BY_HAND that are no component of %s", type.getSimpleName())
              .isEmpty();
        });
  }

  // ------------------------------------------------------------ the live side

  /**
   * Five samples, the fake host moved on between them as the fixture holds per second ({@link
   * FakePdhLibrary#advance}: counts, timers and average timers by their fixture value, the 32-bit {@code Bytes
   * Received/sec} by nearly 2^32 a second), and every gauge by a step of its own.
   */
  private List<NodeSample> liveSamples() {
    PdhSourceOptions options =
        FakeSourceOptions.of(
            Duration.ofSeconds(30), WorkingSetDefinition.KUBELET, dir, nanos::incrementAndGet, new CapturingLogger());
    SteppingClock clock = new SteppingClock(START);
    PdhNodeSource source = new PdhNodeSource(fake, clock, List.of(), options);
    opened.add(source);
    List<NodeSample> samples = new ArrayList<>();
    samples.add(source.sample());
    for (int step = 0; step < INTERVALS.length; step++) {
      clock.advance(Duration.ofSeconds(INTERVALS[step]));
      fake.advance(INTERVALS[step]);
      moveGauges(step);
      samples.add(source.sample());
    }
    return samples;
  }

  /**
   * Moves every instantaneous value by a step of its own: {@link FakePdhLibrary#advance} keeps them, and a gauge that
   * never changed would replay right from any row.
   */
  private void moveGauges(int step) {
    for (PerfCounter d : PdhNodeSource.counters(WorkingSetDefinition.KUBELET)) {
      switch (d.raw()) {
        case RAW, RAW_LARGE -> fake.update(d.path().toString(), (i, v) -> v + (step + 1) * (i + 1) * 4_096L);
        case RAW_FRACTION -> fake.update(d.path().toString(), (i, v) -> v - 1 - i);
        default -> {}
      }
    }
  }

  // ------------------------------------------------------------ the log

  private Path record(List<NodeSample> samples) throws IOException {
    return CounterLogRoundTrip.record(dir.resolve("recorded.csv"), "winnode", samples);
  }

  private static List<NodeSample> replay(Path file) {
    return CounterLogRoundTrip.replay(file);
  }

  private static List<String> headerCells(Path log) throws IOException {
    String header = Files.readString(log, StandardCharsets.UTF_8).split("\r\n", 2)[0];
    List<String> cells = new ArrayList<>();
    for (String quoted : header.substring(1, header.length() - 1).split("\",\"")) {
      cells.add(quoted.replace("\"\"", "\""));
    }
    return cells;
  }

  /** The object names a log may hold an object's counters under: its table's, else its own. */
  private static List<String> objectsInALog(String object) {
    return TABLES.stream()
        .map(Binding::objects)
        .filter(names -> names.contains(object))
        .findFirst()
        .orElse(List.of(object));
  }

  private static String key(String object, String counter) {
    return (object + "\\" + counter).toLowerCase(Locale.ROOT);
  }

  // ------------------------------------------------------------ the comparison

  private static void compare(String where, Object live, Object first, Object replayed) {
    if (live instanceof Record record) {
      Map<String, Carried> byName = CARRIED.get(record.getClass());
      assertThat(byName)
          .as("%s: %s is not classified in CARRIED", where, record.getClass().getSimpleName())
          .isNotNull();
      for (RecordComponent c : record.getClass().getRecordComponents()) {
        Carried carried = byName.get(c.getName());
        assertThat(carried).as("%s.%s is not classified in CARRIED", where, c.getName()).isNotNull();
        String at = where + "." + c.getName();
        Object l = value(c, live);
        Object f = value(c, first);
        Object r = value(c, replayed);
        switch (carried.kind()) {
          case SAME -> same(at, l, f, r);
          case INCREASE -> increase(at, l, f, r);
          case NOT_CARRIED -> {}
        }
      }
    } else {
      assertThat(replayed).as(where).isEqualTo(live);
    }
  }

  private static void same(String where, Object live, Object first, Object replayed) {
    if (live instanceof Record) {
      assertThat(replayed).as("%s replayed", where).isNotNull();
      compare(where, live, first, replayed);
    } else if (live instanceof List<?> list && !list.isEmpty() && KEYS.containsKey(list.get(0).getClass())) {
      Function<Object, String> key = KEYS.get(list.get(0).getClass());
      Map<String, Object> firstByKey = byKey((List<?>) first, key);
      Map<String, Object> replayedByKey = byKey((List<?>) replayed, key);
      assertThat(replayedByKey.keySet()).as(where).isEqualTo(byKey(list, key).keySet());
      for (Object element : list) {
        String k = key.apply(element);
        compare(where + "[" + k + "]", element, firstByKey.get(k), replayedByKey.get(k));
      }
    } else {
      assertThat(replayed).as(where).isEqualTo(live);
    }
  }

  /** A cumulative figure replays as its increase since the first sample; within 1 of its unit, a rate's rounding. */
  private static void increase(String where, Object live, Object first, Object replayed) {
    if (live instanceof Map<?, ?> map) {
      assertThat(((Map<?, ?>) replayed).keySet()).as(where).isEqualTo(map.keySet());
      Map<?, ?> firstMap = (Map<?, ?>) first;
      Map<?, ?> replayedMap = (Map<?, ?>) replayed;
      map.forEach((k, v) -> increase(where + "[" + k + "]", v, firstMap.get(k), replayedMap.get(k)));
    } else if (live == null) {
      assertThat(replayed).as(where).isNull();
    } else {
      long expected = ((Number) live).longValue() - ((Number) Objects.requireNonNull(first, where)).longValue();
      assertThat(replayed).as(where).isNotNull();
      assertThat(((Number) replayed).longValue()).as(where).isBetween(expected - 1, expected + 1);
    }
  }

  private static Map<String, Object> byKey(List<?> list, Function<Object, String> key) {
    return list.stream().collect(Collectors.toMap(key, e -> e, (a, b) -> fail("duplicate " + a), TreeMap::new));
  }

  private static Object value(RecordComponent c, Object record) {
    try {
      return c.getAccessor().invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
