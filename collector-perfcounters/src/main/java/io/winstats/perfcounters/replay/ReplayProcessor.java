package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.counters.ProcessorInformationCounter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Processor Information(*)} (or the legacy {@code \Processor(*)}) in a counter log as {@link NodeCpu}: the
 * columns {@link CounterLogIntegrator} integrates and those {@link CounterLogRecorder} writes.
 *
 * <p>Per core, CPU nanoseconds = Σ pct/100 × interval; for the node, usageCoreNanos = Σ {@code _Total % Processor
 * Time}/100 × interval × cores, where cores is the number of per-processor instances in the header. A core whose log
 * has {@code % Processor Time} but no {@code % Idle Time} (typeperf's usual choice) gets an idle time <em>derived</em>
 * as Σ (100 − {@code % Processor Time})/100 × interval; it is never logged.
 */
final class ReplayProcessor {
  private static final double NANOS_PER_SECOND = 1e9;

  /**
   * The objects that hold {@link ProcessorInformationCounter}'s counters, in order of preference: {@code Processor
   * Information(*)} (all processor groups, instances {@code group,index}), then the legacy {@code Processor(*)} (the
   * first 64 processors, instances {@code index}).
   */
  static final List<String> OBJECTS = List.of(ProcessorInformationCounter.OBJECT, "Processor");

  /** The columns of each core, in header order. */
  private final Map<String, Map<ProcessorInformationCounter, Integer>> columns;
  private final @Nullable Integer total;

  private ReplayProcessor(Map<String, Map<ProcessorInformationCounter, Integer>> columns, @Nullable Integer total) {
    this.columns = columns;
    this.total = total;
  }

  // ---------------------------------------------------------------- integration

  /** The CPU columns the header offers, or null with the reason put in {@code unavailable}. */
  static @Nullable ReplayProcessor plan(LogHeader header, Map<NodePart, String> unavailable) {
    boolean anyObject = false;
    for (String object : OBJECTS) {
      Set<String> instances = header.instances(object);
      if (instances.isEmpty()) {
        continue;
      }
      anyObject = true;
      Integer total = header.column(object, "_Total", ProcessorInformationCounter.PROCESSOR_TIME);
      Map<String, Map<ProcessorInformationCounter, Integer>> columns = new LinkedHashMap<>();
      for (String instance : instances) {
        if (instance.equals("_Total") || instance.endsWith(",_Total")) {
          continue;
        }
        Map<ProcessorInformationCounter, Integer> byCounter =
            header.columns(object, instance, ProcessorInformationCounter.class);
        if (!byCounter.isEmpty()) {
          columns.put(instance, byCounter);
        }
      }
      boolean perCoreTotal =
          !columns.isEmpty()
              && columns.values().stream().allMatch(m -> m.containsKey(ProcessorInformationCounter.PROCESSOR_TIME));
      if (columns.isEmpty()) {
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
      return new ReplayProcessor(columns, total);
    }
    if (!anyObject) {
      unavailable.put(NodePart.CPU, "the log has no Processor Information(*) or Processor(*) counters");
    }
    return null;
  }

  NodeCpu read(LoggedRow row) {
    List<CoreCpuTime> coreTimes = new ArrayList<>();
    double coreSeconds = 0;
    for (Map.Entry<String, Map<ProcessorInformationCounter, Integer>> core : columns.entrySet()) {
      Map<CpuMode, Long> nanosByMode = new EnumMap<>(CpuMode.class);
      for (Map.Entry<ProcessorInformationCounter, Integer> e : core.getValue().entrySet()) {
        double seconds = row.rate(e.getValue()) / 100;
        CpuMode mode = modeOf(e.getKey());
        if (mode != null) {
          nanosByMode.put(mode, Math.round(seconds * NANOS_PER_SECOND));
        } else if (total == null) {
          coreSeconds += seconds;
        }
      }
      Integer busy = core.getValue().get(ProcessorInformationCounter.PROCESSOR_TIME);
      if (!nanosByMode.containsKey(CpuMode.IDLE) && busy != null) {
        // Derived, not logged: idle = interval - busy, Σ (100 - % Processor Time)/100 × interval, so that
        // windows_cpu_time_total{mode="idle"} exists for the kubernetes-mixin Windows CPU rules.
        nanosByMode.put(CpuMode.IDLE, Math.round(row.complement(busy) / 100 * NANOS_PER_SECOND));
      }
      coreTimes.add(new CoreCpuTime(core.getKey(), nanosByMode));
    }
    if (total != null) {
      coreSeconds = row.rate(total) / 100 * columns.size();
    }
    return new NodeCpu(columns.size(), Math.round(coreSeconds * NANOS_PER_SECOND), coreTimes);
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

  // ---------------------------------------------------------------- recording

  /**
   * Adds a column per core and counter, {@code Processor Information} when core names hold a comma ({@code
   * group,index}) and {@code Processor} otherwise, and {@code _Total % Processor Time} as usageCoreNanos over cores.
   */
  static void record(NodeCpu first, RecordedColumn.Columns out) {
    List<CoreCpuTime> cores = first.cores();
    String object = cores.stream().anyMatch(c -> c.core().contains(",")) ? OBJECTS.get(0) : OBJECTS.get(1);
    for (CoreCpuTime core : cores) {
      String name = core.core();
      for (ProcessorInformationCounter counter : ProcessorInformationCounter.values()) {
        ToLongFunction<CoreCpuTime> nanos = coreNanos(counter);
        out.add(object, name, counter, (p, c, dt) -> {
          CoreCpuTime before = p == null || p.cpu() == null ? null : core(p.cpu(), name);
          CoreCpuTime now = c.cpu() == null ? null : core(c.cpu(), name);
          if (before == null || now == null) {
            return null;
          }
          OptionalDouble rate = RecordedColumn.rate(nanos.applyAsLong(before), nanos.applyAsLong(now), dt);
          return rate.isEmpty() ? null : PdhCsv.decimal(rate.getAsDouble() / NANOS_PER_SECOND * 100);
        });
      }
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

  /**
   * The model's CPU modes folded into the five Windows percentages: {@code % User Time} = user + nice, {@code %
   * Privileged Time} = system + irq + softirq + privileged, {@code % Idle Time} = idle + iowait, {@code % Interrupt
   * Time} = irq + interrupt, {@code % DPC Time} = softirq + dpc and {@code % Processor Time} = every other mode.
   */
  private static ToLongFunction<CoreCpuTime> coreNanos(ProcessorInformationCounter counter) {
    return switch (counter) {
      case USER_TIME -> c -> c.nanos(CpuMode.USER) + c.nanos(CpuMode.NICE);
      case PRIVILEGED_TIME ->
          c -> c.nanos(CpuMode.SYSTEM) + c.nanos(CpuMode.IRQ) + c.nanos(CpuMode.SOFTIRQ) + c.nanos(CpuMode.PRIVILEGED);
      case IDLE_TIME -> c -> c.nanos(CpuMode.IDLE) + c.nanos(CpuMode.IOWAIT);
      case INTERRUPT_TIME -> c -> c.nanos(CpuMode.IRQ) + c.nanos(CpuMode.INTERRUPT);
      case DPC_TIME -> c -> c.nanos(CpuMode.SOFTIRQ) + c.nanos(CpuMode.DPC);
      case PROCESSOR_TIME ->
          c -> {
            long busy = 0;
            for (CpuMode mode : CpuMode.values()) {
              if (mode != CpuMode.IDLE && mode != CpuMode.IOWAIT && mode != CpuMode.INTERRUPT && mode != CpuMode.DPC) {
                busy += c.nanos(mode);
              }
            }
            return busy;
          };
    };
  }

  private static @Nullable CoreCpuTime core(NodeCpu cpu, String name) {
    return cpu.cores().stream().filter(c -> c.core().equals(name)).findFirst().orElse(null);
  }
}
