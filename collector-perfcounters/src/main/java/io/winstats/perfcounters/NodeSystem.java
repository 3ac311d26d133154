package io.winstats.perfcounters;

import io.soabase.recordbuilder.core.RecordBuilder;
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
 * @param systemCalls cumulative system calls ({@code \System\System Calls/sec}, Windows only)
 * @param exceptionDispatches cumulative exceptions dispatched ({@code \System\Exception Dispatches/sec}, Windows only)
 */
@RecordBuilder
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
    @Nullable Long maxThreads,
    @Nullable Long systemCalls,
    @Nullable Long exceptionDispatches) {

  /** A builder with every figure absent and the process count 0; a source sets the ones it has, by name. */
  public static NodeSystemBuilder builder() {
    return NodeSystemBuilder.builder();
  }

  /** A builder with the process count set and every other figure absent; a source sets the ones it has, by name. */
  public static NodeSystemBuilder builder(long processes) {
    return NodeSystemBuilder.builder().processes(processes);
  }
}
