package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.NodeSystemBuilder;
import io.winstats.perfcounters.counters.CounterSpec;
import io.winstats.perfcounters.counters.FormattedUnit;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.NodeExtraCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.RawKind;
import java.util.List;

/**
 * {@code \System} and the system columns of {@code \Winstats Node}, bound to {@link NodeSystem}; the process count is
 * needed, every other figure may be absent.
 *
 * <p>Not here: the boot time ({@code System Up Time} is elapsed time, read against the collect or row time) and the
 * Linux load averages (fractions, not counts).
 */
public final class SystemBinding {
  /** The {@code \System} object (no instances). */
  public enum SystemCounter implements PerfCounter {
    PROCESSES("Processes", RawKind.RAW, FormattedUnit.COUNT),
    THREADS("Threads", RawKind.RAW, FormattedUnit.COUNT),
    /** Cumulative (32-bit). */
    CONTEXT_SWITCHES("Context Switches/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    PROCESSOR_QUEUE_LENGTH("Processor Queue Length", RawKind.RAW, FormattedUnit.COUNT),
    /** Cumulative (32-bit): windows_exporter 0.31.8's {@code windows_system_system_calls_total}. */
    SYSTEM_CALLS("System Calls/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** Cumulative (32-bit): windows_exporter 0.31.8's {@code windows_system_exception_dispatches_total}. */
    EXCEPTION_DISPATCHES("Exception Dispatches/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** Raw: uptime in seconds = (SecondValue - FirstValue) / time base. Formatted: uptime in seconds. */
    SYSTEM_UP_TIME("System Up Time", RawKind.ELAPSED_TIME, FormattedUnit.SECONDS);

    public static final String OBJECT = "System";

    private final CounterSpec spec;

    SystemCounter(String counter, RawKind raw, FormattedUnit formatted) {
      this.spec = new CounterSpec(OBJECT, InstanceFilter.NONE, counter, raw, formatted);
    }

    @Override
    public CounterSpec spec() {
      return spec;
    }
  }

  /** {@code \System}: the counters PDH reads and typeperf logs hold. */
  public static final Binding<SystemCounter, NodeSystem, NodeSystemBuilder> SYSTEM =
      new Binding<>(List.of(SystemCounter.OBJECT), List.of(
          Figure.gauge(SystemCounter.PROCESSES, NodeSystem::processes, NodeSystemBuilder::processes).asNeeded(),
          Figure.gauge(SystemCounter.THREADS, NodeSystem::threads, NodeSystemBuilder::threads),
          Figure.cumulative(
              SystemCounter.CONTEXT_SWITCHES, NodeSystem::contextSwitches, NodeSystemBuilder::contextSwitches),
          Figure.cumulative(SystemCounter.SYSTEM_CALLS, NodeSystem::systemCalls, NodeSystemBuilder::systemCalls),
          Figure.cumulative(
              SystemCounter.EXCEPTION_DISPATCHES,
              NodeSystem::exceptionDispatches,
              NodeSystemBuilder::exceptionDispatches),
          Figure.gauge(
              SystemCounter.PROCESSOR_QUEUE_LENGTH,
              NodeSystem::processorQueueLength,
              NodeSystemBuilder::processorQueueLength)));

  /** {@code \Winstats Node}: the Linux pid limit, in logs this daemon recorded. */
  public static final Binding<NodeExtraCounter, NodeSystem, NodeSystemBuilder> WINSTATS_NODE =
      new Binding<>(List.of(NodeExtraCounter.OBJECT), List.of(
          Figure.gauge(NodeExtraCounter.MAX_PROCESSES, NodeSystem::maxProcesses, NodeSystemBuilder::maxProcesses)));

  private SystemBinding() {}
}
