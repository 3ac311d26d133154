package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.NodeSystem;
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
  public static final Binding<SystemCounter, NodeSystem, NodeSystem.Builder> SYSTEM =
      new Binding<>(List.of(SystemCounter.OBJECT), List.of(
          Figure.gauge(SystemCounter.PROCESSES, NodeSystem::processes, NodeSystem.Builder::processes).asNeeded(),
          Figure.gauge(SystemCounter.THREADS, NodeSystem::threads, NodeSystem.Builder::threads),
          Figure.cumulative(
              SystemCounter.CONTEXT_SWITCHES, NodeSystem::contextSwitches, NodeSystem.Builder::contextSwitches),
          Figure.cumulative(SystemCounter.SYSTEM_CALLS, NodeSystem::systemCalls, NodeSystem.Builder::systemCalls),
          Figure.cumulative(
              SystemCounter.EXCEPTION_DISPATCHES,
              NodeSystem::exceptionDispatches,
              NodeSystem.Builder::exceptionDispatches),
          Figure.gauge(
              SystemCounter.PROCESSOR_QUEUE_LENGTH,
              NodeSystem::processorQueueLength,
              NodeSystem.Builder::processorQueueLength)));

  /** {@code \Winstats Node}: the Linux pid limit, in logs this daemon recorded. */
  public static final Binding<NodeExtraCounter, NodeSystem, NodeSystem.Builder> WINSTATS_NODE =
      new Binding<>(List.of(NodeExtraCounter.OBJECT), List.of(
          Figure.gauge(NodeExtraCounter.MAX_PROCESSES, NodeSystem::maxProcesses, NodeSystem.Builder::maxProcesses)));

  private SystemBinding() {}
}
