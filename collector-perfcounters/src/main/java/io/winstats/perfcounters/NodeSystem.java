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
 * @param systemCalls cumulative system calls ({@code \System\System Calls/sec}, Windows only)
 * @param exceptionDispatches cumulative exceptions dispatched ({@code \System\Exception Dispatches/sec}, Windows only)
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
    @Nullable Long maxThreads,
    @Nullable Long systemCalls,
    @Nullable Long exceptionDispatches) {

  /** A builder with the process count set and every other figure absent; a source sets the ones it has, by name. */
  public static Builder builder(long processes) {
    return new Builder().processes(processes);
  }

  /** A builder with every figure absent; the process count must be set before {@link Builder#build()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** Names each figure of a {@link NodeSystem}; not thread-safe. Unset figures are absent ({@code null}). */
  public static final class Builder {
    private @Nullable Long processes;
    private @Nullable Instant bootTime;
    private @Nullable Long threads;
    private @Nullable Long maxProcesses;
    private @Nullable Long contextSwitches;
    private @Nullable Long systemCalls;
    private @Nullable Long exceptionDispatches;
    private @Nullable Long processorQueueLength;
    private @Nullable Double load1;
    private @Nullable Double load5;
    private @Nullable Double load15;
    private @Nullable Long maxThreads;

    private Builder() {}

    /** The process count, the one figure every source has. */
    public Builder processes(long value) {
      this.processes = value;
      return this;
    }

    public Builder bootTime(@Nullable Instant value) {
      this.bootTime = value;
      return this;
    }

    public Builder threads(@Nullable Long value) {
      this.threads = value;
      return this;
    }

    public Builder maxProcesses(@Nullable Long value) {
      this.maxProcesses = value;
      return this;
    }

    public Builder contextSwitches(@Nullable Long value) {
      this.contextSwitches = value;
      return this;
    }

    public Builder systemCalls(@Nullable Long value) {
      this.systemCalls = value;
      return this;
    }

    public Builder exceptionDispatches(@Nullable Long value) {
      this.exceptionDispatches = value;
      return this;
    }

    public Builder processorQueueLength(@Nullable Long value) {
      this.processorQueueLength = value;
      return this;
    }

    /** The one-, five- and fifteen-minute load averages. */
    public Builder loadAverages(@Nullable Double oneMinute, @Nullable Double fiveMinutes, @Nullable Double fifteenMinutes) {
      this.load1 = oneMinute;
      this.load5 = fiveMinutes;
      this.load15 = fifteenMinutes;
      return this;
    }

    /** The kernel's thread limit ({@code kernel.threads-max}); absent where the platform has none. */
    public Builder maxThreads(@Nullable Long value) {
      this.maxThreads = value;
      return this;
    }

    /**
     * Builds the record.
     *
     * @throws IllegalStateException when the process count was not set
     */
    public NodeSystem build() {
      Long processCount = processes;
      if (processCount == null) {
        throw new IllegalStateException("the process count is not set");
      }
      return new NodeSystem(
          bootTime, processCount, threads, maxProcesses, contextSwitches, processorQueueLength, load1, load5, load15,
          maxThreads, systemCalls, exceptionDispatches);
    }
  }
}
