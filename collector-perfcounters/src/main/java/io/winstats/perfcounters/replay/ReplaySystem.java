package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.NodeSystemBuilder;
import io.winstats.perfcounters.binding.SystemBinding;
import io.winstats.perfcounters.binding.SystemBinding.SystemCounter;
import io.winstats.perfcounters.counters.NodeExtraCounter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * {@code \System} and the system columns of {@code \Winstats Node} in a counter log as {@link NodeSystem}: the figures
 * {@link SystemBinding} binds, which {@link CounterLogIntegrator} reads and {@link CounterLogRecorder} writes through
 * the table, plus the special cases kept here: the boot time, which travels as {@code System Up Time} at the row's
 * written time, and the Linux load averages, which are fractions.
 */
final class ReplaySystem {
  private final BoundColumns<SystemCounter, NodeSystem, NodeSystemBuilder> system;
  private final BoundColumns<NodeExtraCounter, NodeSystem, NodeSystemBuilder> extra;
  private final @Nullable Integer upTime;
  private final @Nullable Integer load1;
  private final @Nullable Integer load5;
  private final @Nullable Integer load15;

  private ReplaySystem(
      BoundColumns<SystemCounter, NodeSystem, NodeSystemBuilder> system,
      BoundColumns<NodeExtraCounter, NodeSystem, NodeSystemBuilder> extra,
      @Nullable Integer upTime,
      @Nullable Integer load1,
      @Nullable Integer load5,
      @Nullable Integer load15) {
    this.system = system;
    this.extra = extra;
    this.upTime = upTime;
    this.load1 = load1;
    this.load5 = load5;
    this.load15 = load15;
  }

  // ---------------------------------------------------------------- integration

  /** The system columns the header offers, or null with the reason put in {@code unavailable}. */
  static @Nullable ReplaySystem plan(LogHeader header, Map<NodePart, String> unavailable) {
    String object = SystemBinding.SYSTEM.recordedObject();
    BoundColumns<SystemCounter, NodeSystem, NodeSystemBuilder> system =
        BoundColumns.of(header, object, null, SystemBinding.SYSTEM);
    if (!system.complete()) {
      unavailable.put(NodePart.SYSTEM, "the log lacks \\" + object + "\\" + system.lacking());
      return null;
    }
    String extraObject = SystemBinding.WINSTATS_NODE.recordedObject();
    return new ReplaySystem(
        system,
        BoundColumns.of(header, extraObject, null, SystemBinding.WINSTATS_NODE),
        header.column(object, null, SystemCounter.SYSTEM_UP_TIME),
        header.column(extraObject, null, NodeExtraCounter.LOAD_1),
        header.column(extraObject, null, NodeExtraCounter.LOAD_5),
        header.column(extraObject, null, NodeExtraCounter.LOAD_15));
  }

  NodeSystem read(LoggedRow row) {
    NodeSystemBuilder builder = NodeSystem.builder();
    system.read(row, builder);
    extra.read(row, builder);
    Integer up = upTime;
    Instant bootTime = null;
    if (up != null && !row.isBlank(up)) {
      long upMillis = Math.round(row.gaugeValue(up) * 1000);
      bootTime = row.timestamp().minusMillis(upMillis);
    }
    return builder
        .bootTime(bootTime)
        .load1(row.optionalDecimal(load1))
        .load5(row.optionalDecimal(load5))
        .load15(row.optionalDecimal(load15))
        .build();
  }

  // ---------------------------------------------------------------- recording

  /** Adds {@code Processes} and a column per optional figure the first sample has. */
  static void record(NodeSystem first, RecordedColumn.Columns out) {
    String object = SystemBinding.SYSTEM.recordedObject();
    out.addFigures(object, null, SystemBinding.SYSTEM, first, NodeSample::system);
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
    String extra = SystemBinding.WINSTATS_NODE.recordedObject();
    out.addFigures(extra, null, SystemBinding.WINSTATS_NODE, first, NodeSample::system);
    if (first.load1() != null) {
      out.add(extra, null, NodeExtraCounter.LOAD_1, decimal(NodeSystem::load1));
      out.add(extra, null, NodeExtraCounter.LOAD_5, decimal(NodeSystem::load5));
      out.add(extra, null, NodeExtraCounter.LOAD_15, decimal(NodeSystem::load15));
    }
  }

  private static RecordedColumn.Cell decimal(Function<NodeSystem, @Nullable Double> field) {
    return (p, c, dt) -> {
      Double value = c.system() == null ? null : field.apply(c.system());
      return value == null ? null : PdhCsv.decimal(value);
    };
  }
}
