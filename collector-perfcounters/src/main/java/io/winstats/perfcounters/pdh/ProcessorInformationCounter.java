package io.winstats.perfcounters.pdh;

/**
 * Per-logical-processor CPU time from {@code \Processor Information(*)}. Not the legacy {@code Processor} object, which
 * only sees processor group 0 (64 CPUs). Instances are {@code "N,M"} plus the aggregates {@code "N,_Total"} and
 * {@code "_Total"}, which the source drops. All five timers are cumulative 100 ns; privileged time already includes
 * interrupt and DPC time.
 */
enum ProcessorInformationCounter implements CounterDef {
  /** FirstValue is idle-thread time; read for health only, not exported as a mode. */
  PROCESSOR_TIME("% Processor Time", CounterKind.TIMER_100NS_INVERSE),
  PRIVILEGED_TIME("% Privileged Time", CounterKind.TIMER_100NS),
  USER_TIME("% User Time", CounterKind.TIMER_100NS),
  IDLE_TIME("% Idle Time", CounterKind.TIMER_100NS),
  INTERRUPT_TIME("% Interrupt Time", CounterKind.TIMER_100NS),
  DPC_TIME("% DPC Time", CounterKind.TIMER_100NS);

  static final String OBJECT = "Processor Information";

  private final String counter;
  private final CounterKind kind;

  ProcessorInformationCounter(String counter, CounterKind kind) {
    this.counter = counter;
    this.kind = kind;
  }

  @Override
  public String object() {
    return OBJECT;
  }

  @Override
  public InstanceFilter instances() {
    return InstanceFilter.ALL;
  }

  @Override
  public String counter() {
    return counter;
  }

  @Override
  public CounterKind kind() {
    return kind;
  }
}
