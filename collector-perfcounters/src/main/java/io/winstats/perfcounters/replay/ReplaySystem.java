package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.counters.LoggedCounter;
import io.winstats.perfcounters.counters.SystemCounter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * {@code \System} and the system columns of {@code \Winstats Node} (pid limit, load averages) in a counter log as
 * {@link NodeSystem}: the columns {@link CounterLogIntegrator} reads and those {@link CounterLogRecorder} writes. The
 * boot time travels as {@code System Up Time} at the row's written time.
 */
final class ReplaySystem {
  private final int processes;
  private final Map<LoggedCounter, Integer> optional;

  private ReplaySystem(int processes, Map<LoggedCounter, Integer> optional) {
    this.processes = processes;
    this.optional = optional;
  }

  // ---------------------------------------------------------------- integration

  /** The system columns the header offers, or null with the reason put in {@code unavailable}. */
  static @Nullable ReplaySystem plan(LogHeader header, Map<NodePart, String> unavailable) {
    Integer processes = header.column(SystemCounter.OBJECT, null, SystemCounter.PROCESSES);
    if (processes == null) {
      unavailable.put(NodePart.SYSTEM, "the log lacks \\System\\Processes");
      return null;
    }
    Map<LoggedCounter, Integer> optional = new HashMap<>();
    optional.putAll(header.columns(SystemCounter.OBJECT, null, SystemCounter.class));
    optional.putAll(header.columns(NodeExtraCounter.OBJECT, null, NodeExtraCounter.class));
    return new ReplaySystem(processes, optional);
  }

  NodeSystem read(LoggedRow row) {
    Map<LoggedCounter, Integer> opt = optional;
    Integer upTime = opt.get(SystemCounter.SYSTEM_UP_TIME);
    Instant bootTime = null;
    if (upTime != null && !row.isBlank(upTime)) {
      long upMillis = Math.round(row.gaugeValue(upTime) * 1000);
      bootTime = row.timestamp().minusMillis(upMillis);
    }
    return NodeSystem.builder(row.gauge(processes))
        .bootTime(bootTime)
        .threads(row.optionalGauge(opt, SystemCounter.THREADS))
        .maxProcesses(row.optionalGauge(opt, NodeExtraCounter.MAX_PROCESSES))
        .contextSwitches(row.optionalCount(opt, SystemCounter.CONTEXT_SWITCHES))
        .processorQueueLength(row.optionalGauge(opt, SystemCounter.PROCESSOR_QUEUE_LENGTH))
        .loadAverages(
            row.optionalDecimal(opt, NodeExtraCounter.LOAD_1),
            row.optionalDecimal(opt, NodeExtraCounter.LOAD_5),
            row.optionalDecimal(opt, NodeExtraCounter.LOAD_15))
        .build();
  }

  // ---------------------------------------------------------------- recording

  /** Adds {@code Processes} and a column per optional figure the first sample has. */
  static void record(NodeSystem first, RecordedColumn.Columns out) {
    String object = SystemCounter.OBJECT;
    out.add(object, null, SystemCounter.PROCESSES, gauge(s -> (double) s.processes()));
    if (first.threads() != null) {
      out.add(object, null, SystemCounter.THREADS, gauge(s -> toDouble(s.threads())));
    }
    if (first.contextSwitches() != null) {
      out.add(object, null, SystemCounter.CONTEXT_SWITCHES, (p, c, dt) -> RecordedColumn.perSecond(
          p == null || p.system() == null ? null : p.system().contextSwitches(),
          c.system() == null ? null : c.system().contextSwitches(),
          dt));
    }
    if (first.processorQueueLength() != null) {
      out.add(object, null, SystemCounter.PROCESSOR_QUEUE_LENGTH, gauge(s -> toDouble(s.processorQueueLength())));
    }
    if (first.bootTime() != null) {
      out.add(object, null, SystemCounter.SYSTEM_UP_TIME, (p, c, dt) -> {
        NodeSystem s = c.system();
        if (s == null || s.bootTime() == null) {
          return null;
        }
        Instant written = c.timestamp().truncatedTo(ChronoUnit.MILLIS);
        return PdhCsv.decimal(Duration.between(s.bootTime(), written).toMillis() / 1000.0);
      });
    }
    String extra = NodeExtraCounter.OBJECT;
    if (first.maxProcesses() != null) {
      out.add(extra, null, NodeExtraCounter.MAX_PROCESSES, gauge(s -> toDouble(s.maxProcesses())));
    }
    if (first.load1() != null) {
      out.add(extra, null, NodeExtraCounter.LOAD_1, gauge(NodeSystem::load1));
      out.add(extra, null, NodeExtraCounter.LOAD_5, gauge(NodeSystem::load5));
      out.add(extra, null, NodeExtraCounter.LOAD_15, gauge(NodeSystem::load15));
    }
  }

  private static RecordedColumn.Cell gauge(Function<NodeSystem, @Nullable Double> field) {
    return (p, c, dt) -> {
      Double value = c.system() == null ? null : field.apply(c.system());
      return value == null ? null : PdhCsv.decimal(value);
    };
  }

  private static @Nullable Double toDouble(@Nullable Long value) {
    return value == null ? null : value.doubleValue();
  }
}
