package io.winstats.perfcounters;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Whole-system figures.
 *
 * @param bootTime when the node booted ({@code btime}; {@code System\System Up Time})
 * @param processes processes now
 * @param threads threads now, where the platform counts them
 * @param maxProcesses the process-id limit ({@code kernel/pid_max}); absent on Windows
 * @param contextSwitches cumulative context switches
 * @param processorQueueLength runnable threads waiting ({@code procs_running}; {@code System\Processor Queue Length})
 * @param load1 one-minute load average (Linux only)
 * @param load5 five-minute load average (Linux only)
 * @param load15 fifteen-minute load average (Linux only)
 * @param maxThreads the system-wide thread limit ({@code kernel/threads-max}, Linux only)
 */
public record NodeSystem(
    @Nullable Instant bootTime,
    long processes,
    @Nullable Long threads,
    @Nullable Long maxProcesses,
    @Nullable Long contextSwitches,
    @Nullable Long processorQueueLength,
    @Nullable Double load1,
    @Nullable Double load5,
    @Nullable Double load15,
    @Nullable Long maxThreads) {

  /** Figures of a platform without a thread limit. */
  public NodeSystem(
      @Nullable Instant bootTime,
      long processes,
      @Nullable Long threads,
      @Nullable Long maxProcesses,
      @Nullable Long contextSwitches,
      @Nullable Long processorQueueLength,
      @Nullable Double load1,
      @Nullable Double load5,
      @Nullable Double load15) {
    this(bootTime, processes, threads, maxProcesses, contextSwitches, processorQueueLength, load1, load5, load15, null);
  }
}
