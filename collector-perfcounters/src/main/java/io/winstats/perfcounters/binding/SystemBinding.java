package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.NodeSystemBuilder;
import io.winstats.perfcounters.counters.NodeExtraCounter;
import io.winstats.perfcounters.counters.SystemCounter;
import java.util.List;

/**
 * {@code \System} and the system columns of {@code \Winstats Node}, bound to {@link NodeSystem}; the process count is
 * needed, every other figure may be absent.
 *
 * <p>Not here: the boot time ({@code System Up Time} is elapsed time, read against the collect or row time) and the
 * Linux load averages (fractions, not counts).
 */
public final class SystemBinding {
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
