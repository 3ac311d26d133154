package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.binding.BoundFigures;
import io.winstats.summary.SampleFixtures;
import io.winstats.summary.SummaryAssembler;
import io.winstats.summary.SummaryAssembler.PodEphemeralStorage;
import io.winstats.summary.SummaryTypes.FsStats;
import io.winstats.summary.SummaryTypes.PodReference;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every figure of the model a collector is given is served by it or listed in its {@code UNSERVED} with a reason: a
 * counter read, recorded and replayed but never served fails here, by name. A figure is served when changing it (one
 * more, or present where it was absent) changes the collector's body. The records are walked by reflection from a
 * full fixture, so a new record component is probed without an edit here.
 */
class ServedFiguresTest {
  /**
   * A collector, the model it is given (a full fixture) and how it renders a changed one. A new collector needs a
   * constant only when it serves a part of the model no constant walks into (in no model here, or listed whole in the
   * {@code UNSERVED} of each that reaches it); its families are held by {@code CollectorSeriesTest} either way.
   */
  enum Collector {
    WINDOWS_EXPORTER(
        SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
        node -> WindowsExporterSeries.build((NodeSample) node),
        WindowsExporterSeries.UNSERVED),
    /** Not probed: the Windows counters of the binding tables that a Linux node's sample lacks (windowsOnly). */
    NODE_EXPORTER(
        SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
        node -> NodeExporterSeries.build((NodeSample) node),
        NodeExporterSeries.UNSERVED,
        windowsOnly(SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L))),
    CGROUP(
        cgroupStats(CadvisorContractTest.linuxSnapshot(CgroupVersion.V2)),
        stats -> CgroupSeriesCollector.series(withContainerStats((CgroupStats) stats)),
        CgroupSeriesCollector.UNSERVED),
    WINDOWS_CONTAINERS(
        ExpositionGoldenTest.windowsPods(),
        runtime -> WindowsContainerSeries.build((RuntimeSample) runtime),
        WindowsContainerSeries.UNSERVED),
    RESOURCE(
        withSwap(ExpositionGoldenTest.HEALTHY),
        snapshot -> ResourceMetrics.build((Snapshot) snapshot),
        ResourceMetrics.UNSERVED),
    CADVISOR(
        CadvisorContractTest.linuxSnapshot(CgroupVersion.V2),
        snapshot -> CadvisorSeriesCollector.series((Snapshot) snapshot, NodePlatform.LINUX),
        CadvisorSeriesCollector.unserved(NodePlatform.LINUX),
        // CRI's Linux NetworkInterfaceUsage has no packet counts (runtime.v1 api.proto): a Linux pod's come from its
        // net/dev, and CRI packets beside them would serve one series twice.
        Set.of("InterfaceUsage.rxPackets", "InterfaceUsage.txPackets")),
    CADVISOR_WINDOWS(
        new Snapshot(
            1,
            SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
            null,
            ExpositionGoldenTest.windowsPods(),
            null),
        snapshot -> CadvisorSeriesCollector.series((Snapshot) snapshot, NodePlatform.WINDOWS),
        CadvisorSeriesCollector.unserved(NodePlatform.WINDOWS)),
    POD_EPHEMERAL_STORAGE(
        podEphemeralStorage(),
        storage ->
            PodEphemeralStorageSeries.series(
                List.of(
                    new PodEphemeralStorage(
                        new PodReference("burner", "default", "uid-burner"), (FsStats) storage))),
        PodEphemeralStorageSeries.UNSERVED,
        Set.of(),
        // SummaryAssembler.podEphemeralStorage: the node's root filesystem, each container's writable layer and logs.
        Set.of("FilesystemUsage", "RuntimeFilesystemUsage", "ContainerLogUsage"));

    final Object model;
    final Function<Object, MetricSnapshots> render;
    final Map<String, String> unserved;
    /** Figures of the model that the collector's node never has, derived (not probed, and not to be listed). */
    final Set<String> neverRead;
    /** The records of the snapshot a model made from it is computed from (none where the model is a part of it). */
    final Set<String> derivedFrom;

    Collector(Object model, Function<Object, MetricSnapshots> render, Map<String, String> unserved) {
      this(model, render, unserved, Set.of());
    }

    Collector(
        Object model, Function<Object, MetricSnapshots> render, Map<String, String> unserved, Set<String> neverRead) {
      this(model, render, unserved, neverRead, Set.of());
    }

    Collector(
        Object model,
        Function<Object, MetricSnapshots> render,
        Map<String, String> unserved,
        Set<String> neverRead,
        Set<String> derivedFrom) {
      this.model = model;
      this.render = render;
      this.unserved = unserved;
      this.neverRead = neverRead;
      this.derivedFrom = derivedFrom;
    }
  }

  /**
   * The figures a Windows performance counter fills (a row of a binding table, {@link BoundFigures}) that {@code
   * linuxNode}, a Linux node's full sample, lacks: the Linux source does not read them, so a Linux collector need not
   * serve or list them. A figure Linux reads too is in the fixture and probed.
   */
  static Set<String> windowsOnly(NodeSample linuxNode) {
    Set<String> absent = absentFigures(linuxNode);
    Set<String> windowsOnly = new TreeSet<>(BoundFigures.windowsCounters());
    windowsOnly.retainAll(absent);
    return windowsOnly;
  }

  /** The scalar figures reachable from {@code record} (as {@link #figures} walks it) whose value is absent. */
  private static Set<String> absentFigures(Object record) {
    Set<String> absent = new TreeSet<>();
    for (RecordComponent c : record.getClass().getRecordComponents()) {
      Object value = get(record, c);
      if (isScalar(c.getType()) && value == null) {
        absent.add(record.getClass().getSimpleName() + "." + c.getName());
      } else if (value != null && value.getClass().isRecord()) {
        absent.addAll(absentFigures(value));
      } else if (value instanceof List<?> list && !list.isEmpty() && list.get(0).getClass().isRecord()) {
        absent.addAll(absentFigures(list.get(0)));
      }
    }
    return absent;
  }

  @ParameterizedTest
  @EnumSource(Collector.class)
  void everyFigureIsServedOrListedAsUnserved(Collector collector) {
    String before = text(collector.render.apply(collector.model));
    Set<String> unservedAndUnlisted = new TreeSet<>();
    Set<String> listedButServed = new TreeSet<>();
    Set<String> seen = new TreeSet<>();
    for (Map.Entry<String, UnaryOperator<Object>> figure : figures(collector.model, collector.unserved).entrySet()) {
      String name = figure.getKey();
      seen.add(name);
      if (collector.neverRead.contains(name)) {
        continue;
      }
      boolean served = !text(collector.render.apply(figure.getValue().apply(collector.model))).equals(before);
      boolean listed =
          collector.unserved.containsKey(name) || collector.unserved.containsKey(recordOf(name) + ".*");
      if (!served && !listed) {
        unservedAndUnlisted.add(name);
      } else if (served && collector.unserved.containsKey(name)) {
        listedButServed.add(name);
      }
    }
    assertThat(unservedAndUnlisted)
        .as("figures %s does not serve: add a row to its table, or list the figure in its UNSERVED with the reason",
            collector)
        .isEmpty();
    assertThat(listedButServed).as("figures %s serves but lists in UNSERVED", collector).isEmpty();
    Set<String> seenRecords = new TreeSet<>();
    seen.forEach(name -> seenRecords.add(recordOf(name) + ".*"));
    assertThat(collector.unserved.keySet().stream().filter(n -> !seen.contains(n) && !seenRecords.contains(n)))
        .as("names in %s's UNSERVED that are no figure (or Record.*) of its model", collector)
        .isEmpty();
    assertThat(collector.unserved.keySet().stream().filter(collector.neverRead::contains).toList())
        .as("names in %s's UNSERVED its node never reads (derived: remove them)", collector)
        .isEmpty();
  }

  /** {@code Record} of a figure named {@code Record.component}. */
  private static String recordOf(String figure) {
    return figure.substring(0, figure.indexOf('.'));
  }

  /**
   * Each scalar figure reachable from {@code record} (numbers, booleans, instants; not strings and enums, which are
   * labels and kinds), named {@code Record.component}, with the change of {@code record} that changes only it. Nested
   * records, the first element of a list and the first value of a map are walked into; a component listed in {@code
   * unserved} is not walked.
   */
  static Map<String, UnaryOperator<Object>> figures(Object record, Map<String, String> unserved) {
    Map<String, UnaryOperator<Object>> figures = new LinkedHashMap<>();
    walk(record, unserved, true, List.of(), (path, change) -> figures.put(path.get(path.size() - 1), change));
    return figures;
  }

  /**
   * Each figure of {@code record} as {@link #figures} walks it, every component walked and an absent record skipped,
   * by its path of {@code Record.component} names from {@code record}.
   */
  static Map<List<String>, UnaryOperator<Object>> figurePaths(Object record) {
    Map<List<String>, UnaryOperator<Object>> figures = new LinkedHashMap<>();
    walk(record, Map.of(), false, List.of(), figures::put);
    return figures;
  }

  /**
   * The records each constant walks into from its model (those without a figure of their own too), by simple name: a
   * figure of a part (a path of records) that no constant walks from its model down has no constant that holds a
   * collector to it.
   */
  static Map<Collector, Set<String>> walkedRecords() {
    Map<Collector, Set<String>> walked = new LinkedHashMap<>();
    for (Collector c : Collector.values()) {
      Set<String> records = new TreeSet<>();
      walk(c.model, c.unserved, true, List.of(), (path, change) -> path.forEach(name -> records.add(recordOf(name))));
      walked.put(c, records);
    }
    return walked;
  }

  /**
   * Walks {@code record}'s figures, telling {@code out} each one's path from {@code record} and its change of it; a
   * component in {@code unserved} is told but not walked into, an absent record fails when {@code absentFails}.
   */
  private static void walk(
      Object record,
      Map<String, String> unserved,
      boolean absentFails,
      List<String> path,
      BiConsumer<List<String>, UnaryOperator<Object>> out) {
    RecordComponent[] components = record.getClass().getRecordComponents();
    for (int i = 0; i < components.length; i++) {
      int index = i;
      RecordComponent c = components[i];
      String name = record.getClass().getSimpleName() + "." + c.getName();
      List<String> at = new ArrayList<>(path);
      at.add(name);
      Object value = get(record, c);
      Class<?> type = c.getType();
      if (isScalar(type)) {
        out.accept(at, r -> with(r, index, changed(type, get(r, components[index]))));
      } else if (unserved.containsKey(name)) {
        out.accept(at, r -> r);
      } else if (value != null && value.getClass().isRecord()) {
        walk(
            value, unserved, absentFails, at,
            (inner, change) -> out.accept(inner, r -> with(r, index, change.apply(get(r, components[index])))));
      } else if (value instanceof List<?> list && !list.isEmpty() && list.get(0).getClass().isRecord()) {
        walk(
            list.get(0), unserved, absentFails, at,
            (inner, change) ->
                out.accept(
                    inner,
                    r -> {
                      List<Object> copy = new ArrayList<>((List<?>) get(r, components[index]));
                      copy.set(0, change.apply(copy.get(0)));
                      return with(r, index, copy);
                    }));
      } else if (value instanceof Map<?, ?> map && !map.isEmpty()) {
        Object first = map.values().iterator().next();
        if (first instanceof Number) {
          // A map of figures (CPU time by mode): each one more.
          out.accept(
              at,
              r -> {
                Map<Object, Object> copy = new LinkedHashMap<>((Map<?, ?>) get(r, components[index]));
                copy.replaceAll((k, v) -> changed(v.getClass(), v));
                return with(r, index, copy);
              });
        }
      } else if (value == null && type.isRecord() && absentFails) {
        throw new AssertionError("the fixture has no " + name + " to probe; give it one or list it in UNSERVED");
      }
    }
  }

  private static boolean isScalar(Class<?> type) {
    return type.isPrimitive() && type != char.class
        || Number.class.isAssignableFrom(type)
        || type == Boolean.class
        || type == Instant.class;
  }

  /** {@code value} changed: one more, the other truth value, a second later; a value where there was none. */
  private static Object changed(Class<?> type, @Nullable Object value) {
    if (type == long.class || type == Long.class) {
      return value == null ? 12_345L : (Long) value + 1;
    } else if (type == int.class || type == Integer.class) {
      return value == null ? 12_345 : (Integer) value + 1;
    } else if (type == double.class || type == Double.class) {
      return value == null ? 12_345.5 : (Double) value + 0.5;
    } else if (type == boolean.class || type == Boolean.class) {
      return value == null || !(Boolean) value;
    } else if (type == Instant.class) {
      return value == null ? Instant.ofEpochSecond(1_700_000_000L) : ((Instant) value).plusSeconds(1);
    }
    throw new AssertionError("no change known for a " + type);
  }

  private static @Nullable Object get(Object record, RecordComponent c) {
    try {
      return c.getAccessor().invoke(record);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new AssertionError(c.getName(), e);
    }
  }

  /** A copy of {@code record} with component {@code index} set to {@code value}, through its canonical constructor. */
  private static Object with(Object record, int index, @Nullable Object value) {
    RecordComponent[] components = record.getClass().getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
      args[i] = i == index ? value : get(record, components[i]);
    }
    try {
      Constructor<?> canonical = record.getClass().getDeclaredConstructor(types);
      return canonical.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("cannot change " + components[index].getName() + " of " + record, e);
    }
  }

  private static String text(MetricSnapshots snapshots) {
    try {
      return ExpositionGoldenTest.text(snapshots);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code snapshot} with swap in use: the fixture's node has none (0 of 0), where one more free byte still serves 0
   * (usage = total - free, at least 0).
   */
  private static Snapshot withSwap(Snapshot snapshot) {
    NodeSample node = snapshot.node();
    assertThat(node).isNotNull();
    Object memory = node.memory();
    List<String> names =
        List.of(NodeMemory.class.getRecordComponents()).stream().map(RecordComponent::getName).toList();
    memory = with(memory, names.indexOf("swapTotalBytes"), 2_000_000_000L);
    memory = with(memory, names.indexOf("swapFreeBytes"), 1_500_000_000L);
    return new Snapshot(
        snapshot.version(),
        node.toBuilder().memory((NodeMemory) memory).build(),
        snapshot.previousNode(),
        snapshot.runtime(),
        snapshot.runtimeError(),
        snapshot.cgroups());
  }

  /** The burner's ephemeral storage in the full Linux fixture: every figure present. */
  private static FsStats podEphemeralStorage() {
    Snapshot healthy = ExpositionGoldenTest.HEALTHY;
    FsStats storage =
        SummaryAssembler.podEphemeralStorage(healthy.node(), healthy.runtime()).get(0).storage();
    assertThat(storage.availableBytes()).isNotNull();
    return storage;
  }

  private static final Snapshot CGROUP_SNAPSHOT = CadvisorContractTest.linuxSnapshot(CgroupVersion.V2);

  /** The probed container's cgroup figures. */
  private static CgroupStats cgroupStats(Snapshot snapshot) {
    CgroupSample cgroups = snapshot.cgroups();
    assertThat(cgroups).isNotNull();
    return cgroups.containers().get(probedContainer(snapshot));
  }

  private static String probedContainer(Snapshot snapshot) {
    return snapshot.runtime().pods().get(0).containers().get(0).id();
  }

  /** The cgroup snapshot with the probed container's figures replaced. */
  private static Snapshot withContainerStats(CgroupStats stats) {
    CgroupSample cgroups = CGROUP_SNAPSHOT.cgroups();
    Map<String, CgroupStats> containers = new HashMap<>(cgroups.containers());
    containers.put(probedContainer(CGROUP_SNAPSHOT), stats);
    int index =
        List.of(CgroupSample.class.getRecordComponents()).stream()
            .map(RecordComponent::getName)
            .toList()
            .indexOf("containers");
    CgroupSample changed = (CgroupSample) with(cgroups, index, containers);
    return new Snapshot(
        CGROUP_SNAPSHOT.version(),
        CGROUP_SNAPSHOT.node(),
        CGROUP_SNAPSHOT.previousNode(),
        CGROUP_SNAPSHOT.runtime(),
        CGROUP_SNAPSHOT.runtimeError(),
        changed);
  }
}
