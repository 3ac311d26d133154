package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.fill;
import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.ticksToNanos;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.NodeSystemBuilder;
import io.winstats.perfcounters.binding.SystemBinding;
import io.winstats.perfcounters.binding.SystemBinding.SystemCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code \System} as {@link SystemBinding#SYSTEM} binds it (processes, threads, context switches, queue length), plus
 * the boot time from {@code System Up Time}.
 */
final class PdhSystem {
  static final Set<? extends PerfCounter> COUNTERS = EnumSet.allOf(SystemCounter.class);

  private final CumulativeCounters<String> counts = new CumulativeCounters<>();
  private @Nullable Instant bootTime;

  /**
   * @param collectedAt when the {@code System} query was collected
   */
  @Nullable NodeSystem read(Collected c, Instant collectedAt, Map<NodePart, String> missing) {
    NodeSystemBuilder builder = NodeSystem.builder();
    Reading lacking = fill(builder, SystemBinding.SYSTEM, c, null, counts, new HashSet<>());
    if (lacking != null) {
      missing.put(NodePart.SYSTEM, PdhReadings.lacking(lacking));
      return null;
    }
    return builder.bootTime(bootTime(reading(c, SystemCounter.SYSTEM_UP_TIME), collectedAt)).build();
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
    Instant boot =
        collectedAt.minusNanos(ticksToNanos(elapsedTicks, upTime.timeBase())).truncatedTo(ChronoUnit.SECONDS);
    Instant previous = bootTime;
    if (previous != null && Duration.between(previous, boot).abs().compareTo(Duration.ofSeconds(1)) <= 0) {
      return previous;
    }
    bootTime = boot;
    return boot;
  }
}
