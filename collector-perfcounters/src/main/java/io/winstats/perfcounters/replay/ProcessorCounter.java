package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.CpuMode;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Counters of {@code \Processor Information(*)} (all processor groups, instances {@code group,index}) and the legacy
 * {@code \Processor(*)} (the first 64 processors, instances {@code index}).
 */
enum ProcessorCounter implements LoggedCounter {
  PROCESSOR_TIME("% Processor Time", null),
  USER_TIME("% User Time", CpuMode.USER),
  PRIVILEGED_TIME("% Privileged Time", CpuMode.PRIVILEGED),
  IDLE_TIME("% Idle Time", CpuMode.IDLE),
  INTERRUPT_TIME("% Interrupt Time", CpuMode.INTERRUPT),
  DPC_TIME("% DPC Time", CpuMode.DPC);

  /** The objects in order of preference. */
  static final List<String> OBJECTS = List.of("Processor Information", "Processor");

  private final String counterName;
  private final @Nullable CpuMode mode;

  ProcessorCounter(String counterName, @Nullable CpuMode mode) {
    this.counterName = counterName;
    this.mode = mode;
  }

  @Override
  public String counterName() {
    return counterName;
  }

  @Override
  public CounterKind kind() {
    return CounterKind.PERCENT;
  }

  /** The CPU mode this percentage integrates into, or null for {@code % Processor Time}. */
  @Nullable CpuMode mode() {
    return mode;
  }
}
