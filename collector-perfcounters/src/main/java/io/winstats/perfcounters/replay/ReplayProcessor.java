package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.ProcessorCounters;
import io.winstats.perfcounters.ProcessorCountersBuilder;
import io.winstats.perfcounters.binding.Binding;
import io.winstats.perfcounters.binding.ProcessorBinding;
import io.winstats.perfcounters.binding.ProcessorBinding.ProcessorInformationCounter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Processor Information(*)} (or the legacy {@code \Processor(*)}) in a counter log as {@link NodeCpu}: the
 * columns {@link CounterLogIntegrator} integrates and those {@link CounterLogRecorder} writes. Each core's modes are
 * the timers {@link ProcessorBinding#MODES} binds; {@code % Processor Time} and the node's usage are the special cases
 * kept here. Each core's other counters are those {@link ProcessorBinding#CORE} binds, where the log has them.
 *
 * <p>Per core, CPU nanoseconds = Σ pct/100 × interval; for the node, usageCoreNanos = Σ {@code _Total % Processor
 * Time}/100 × interval × cores, where cores is the number of per-processor instances in the header. A core whose log
 * has {@code % Processor Time} but no {@code % Idle Time} (typeperf's usual choice) gets an idle time <em>derived</em>
 * as Σ (100 − {@code % Processor Time})/100 × interval; it is never logged.
 */
final class ReplayProcessor {
  private static final double NANOS_PER_SECOND = 1e9;

  private static final Binding<ProcessorInformationCounter, CoreCpuTime, Map<CpuMode, Long>> MODES =
      ProcessorBinding.MODES;

  private static final Binding<ProcessorInformationCounter, ProcessorCounters, ProcessorCountersBuilder> CORE =
      ProcessorBinding.CORE;

  /**
   * One core's columns: its modes, its {@code % Processor Time} when the log has it, and the columns of its other
   * counters ({@link ProcessorBinding#CORE}).
   */
  private record CoreColumns(
      String core, BoundColumns<ProcessorInformationCounter, CoreCpuTime, Map<CpuMode, Long>> modes,
      @Nullable Integer busy,
      BoundColumns<ProcessorInformationCounter, ProcessorCounters, ProcessorCountersBuilder> counters) {}

  /** The columns of each core, in header order. */
  private final List<CoreColumns> cores;
  private final @Nullable Integer total;

  private ReplayProcessor(List<CoreColumns> cores, @Nullable Integer total) {
    this.cores = cores;
    this.total = total;
  }

  // ---------------------------------------------------------------- integration

  /** The CPU columns the header offers, or null with the reason put in {@code unavailable}. */
  static @Nullable ReplayProcessor plan(LogHeader header, Map<NodePart, String> unavailable) {
    boolean anyObject = false;
    for (String object : MODES.objects()) {
      Set<String> instances = header.instances(object);
      if (instances.isEmpty()) {
        continue;
      }
      anyObject = true;
      Integer total = header.column(object, "_Total", ProcessorInformationCounter.PROCESSOR_TIME);
      List<CoreColumns> cores = new ArrayList<>();
      for (String instance : instances) {
        if (instance.equals("_Total") || instance.endsWith(",_Total")) {
          continue;
        }
        BoundColumns<ProcessorInformationCounter, CoreCpuTime, Map<CpuMode, Long>> modes =
            BoundColumns.of(header, object, instance, MODES);
        Integer busy = header.column(object, instance, ProcessorInformationCounter.PROCESSOR_TIME);
        if (!modes.isEmpty() || busy != null) {
          cores.add(new CoreColumns(instance, modes, busy, BoundColumns.of(header, object, instance, CORE)));
        }
      }
      boolean perCoreTotal = !cores.isEmpty() && cores.stream().allMatch(c -> c.busy() != null);
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
      return new ReplayProcessor(cores, total);
    }
    if (!anyObject) {
      unavailable.put(NodePart.CPU, "the log has no Processor Information(*) or Processor(*) counters");
    }
    return null;
  }

  NodeCpu read(LoggedRow row) {
    List<CoreCpuTime> coreTimes = new ArrayList<>();
    List<ProcessorCounters> processors = new ArrayList<>();
    double coreSeconds = 0;
    for (CoreColumns core : cores) {
      Integer busy = core.busy();
      if (busy != null) {
        double busySeconds = row.rate(busy) / 100;
        if (total == null) {
          coreSeconds += busySeconds;
        }
      }
      Map<CpuMode, Long> nanosByMode = new EnumMap<>(CpuMode.class);
      core.modes().readStrictly(row, nanosByMode);
      if (busy != null && !nanosByMode.containsKey(CpuMode.IDLE)) {
        // Derived, not logged: idle = interval - busy, Σ (100 - % Processor Time)/100 × interval, so that
        // windows_cpu_time_total{mode="idle"} exists for the kubernetes-mixin Windows CPU rules.
        nanosByMode.put(CpuMode.IDLE, Math.round(row.complement(busy) / 100 * NANOS_PER_SECOND));
      }
      coreTimes.add(new CoreCpuTime(core.core(), nanosByMode));
      if (!core.counters().isEmpty()) {
        ProcessorCountersBuilder counters = ProcessorCounters.builder(core.core());
        core.counters().read(row, counters);
        processors.add(counters.build());
      }
    }
    if (total != null) {
      coreSeconds = row.rate(total) / 100 * cores.size();
    }
    return new NodeCpu(cores.size(), Math.round(coreSeconds * NANOS_PER_SECOND), coreTimes, processors);
  }

  // ---------------------------------------------------------------- recording

  /**
   * Adds a column per core and counter, {@code Processor Information} when core names hold a comma ({@code
   * group,index}) and {@code Processor} otherwise: {@code % Processor Time} as the core's busy time (every mode but
   * idle, iowait, interrupt and dpc), then the modes {@link ProcessorBinding#MODES} binds; and {@code _Total %
   * Processor Time} as usageCoreNanos over cores.
   */
  static void record(NodeCpu first, RecordedColumn.Columns out) {
    List<CoreCpuTime> cores = first.cores();
    String object =
        cores.stream().anyMatch(c -> c.core().contains(",")) ? MODES.objects().get(0) : MODES.objects().get(1);
    for (CoreCpuTime core : cores) {
      String name = core.core();
      out.add(object, name, ProcessorInformationCounter.PROCESSOR_TIME, (p, c, dt) -> {
        CoreCpuTime before = p == null ? null : core(p, name);
        CoreCpuTime now = core(c, name);
        return now == null
            ? null
            : RecordedColumn.shareOfInterval(before == null ? null : busy(before), busy(now), dt, 100, false);
      });
      out.addFigures(object, name, MODES, core, s -> core(s, name));
    }
    for (ProcessorCounters processor : first.processors()) {
      String name = processor.core();
      out.addFigures(object, name, CORE, processor, s -> processor(s, name));
    }
    out.add(object, "_Total", ProcessorInformationCounter.PROCESSOR_TIME, (p, c, dt) -> {
      if (p == null || p.cpu() == null || c.cpu() == null) {
        return null;
      }
      OptionalDouble rate = RecordedColumn.rate(p.cpu().usageCoreNanos(), c.cpu().usageCoreNanos(), dt);
      return rate.isEmpty()
          ? null
          : PdhCsv.decimal(rate.getAsDouble() / NANOS_PER_SECOND * 100 / c.cpu().logicalCores());
    });
  }

  /** A core's busy time, {@code % Processor Time}: every mode but idle, iowait, interrupt and dpc. */
  private static long busy(CoreCpuTime core) {
    long busy = 0;
    for (CpuMode mode : CpuMode.values()) {
      if (mode != CpuMode.IDLE && mode != CpuMode.IOWAIT && mode != CpuMode.INTERRUPT && mode != CpuMode.DPC) {
        busy += core.nanos(mode);
      }
    }
    return busy;
  }

  private static @Nullable ProcessorCounters processor(NodeSample sample, String name) {
    NodeCpu cpu = sample.cpu();
    return cpu == null
        ? null
        : cpu.processors().stream().filter(c -> c.core().equals(name)).findFirst().orElse(null);
  }

  private static @Nullable CoreCpuTime core(NodeSample sample, String name) {
    NodeCpu cpu = sample.cpu();
    return cpu == null ? null : cpu.cores().stream().filter(c -> c.core().equals(name)).findFirst().orElse(null);
  }
}
