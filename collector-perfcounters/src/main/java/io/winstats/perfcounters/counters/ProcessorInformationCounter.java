package io.winstats.perfcounters.counters;

/**
 * Per-logical-processor CPU time from {@code \Processor Information(*)}. Not the legacy {@code Processor} object, which
 * only sees processor group 0 (64 CPUs) but has the same counters (counter logs may hold either). Instances are
 * {@code "N,M"} plus the aggregates {@code "N,_Total"} and {@code "_Total"}. All five timers are cumulative 100 ns raw
 * and percentages of the interval formatted; privileged time already includes interrupt and DPC time.
 */
public enum ProcessorInformationCounter implements PerfCounter {
  /** FirstValue is idle-thread time; the formatted value is busy time. Not a mode of its own. */
  PROCESSOR_TIME("% Processor Time", RawKind.TIMER_100NS_INVERSE),
  USER_TIME("% User Time", RawKind.TIMER_100NS),
  PRIVILEGED_TIME("% Privileged Time", RawKind.TIMER_100NS),
  IDLE_TIME("% Idle Time", RawKind.TIMER_100NS),
  INTERRUPT_TIME("% Interrupt Time", RawKind.TIMER_100NS),
  DPC_TIME("% DPC Time", RawKind.TIMER_100NS);

  public static final String OBJECT = "Processor Information";

  private final CounterSpec spec;

  ProcessorInformationCounter(String counter, RawKind raw) {
    this.spec = new CounterSpec(OBJECT, InstanceFilter.ALL, counter, raw, FormattedUnit.PERCENT_OF_INTERVAL);
  }

  @Override
  public CounterSpec spec() {
    return spec;
  }
}
