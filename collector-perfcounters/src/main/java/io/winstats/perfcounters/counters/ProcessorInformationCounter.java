package io.winstats.perfcounters.counters;

/**
 * Per-logical-processor CPU time from {@code \Processor Information(*)}. Not the legacy {@code Processor} object, which
 * only sees processor group 0 (64 CPUs) but has the same counters (counter logs may hold either). Instances are
 * {@code "N,M"} plus the aggregates {@code "N,_Total"} and {@code "_Total"}. All five timers are cumulative 100 ns raw
 * and percentages of the interval formatted; privileged time already includes interrupt and DPC time. The counts,
 * gauges and {@code PERF_AVERAGE_BULK} utilities after them are windows_exporter's cpu collector's.
 */
public enum ProcessorInformationCounter implements PerfCounter {
  /** FirstValue is idle-thread time; the formatted value is busy time. Not a mode of its own. */
  PROCESSOR_TIME("% Processor Time", RawKind.TIMER_100NS_INVERSE),
  USER_TIME("% User Time", RawKind.TIMER_100NS),
  PRIVILEGED_TIME("% Privileged Time", RawKind.TIMER_100NS),
  IDLE_TIME("% Idle Time", RawKind.TIMER_100NS),
  INTERRUPT_TIME("% Interrupt Time", RawKind.TIMER_100NS),
  DPC_TIME("% DPC Time", RawKind.TIMER_100NS),
  // The rest of what windows_exporter v0.31.8's cpu collector reads (internal/collector/cpu/types.go:21-49@v0.31.8).
  C1_TIME("% C1 Time", RawKind.TIMER_100NS),
  C2_TIME("% C2 Time", RawKind.TIMER_100NS),
  C3_TIME("% C3 Time", RawKind.TIMER_100NS),
  INTERRUPTS("Interrupts/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
  DPCS_QUEUED("DPCs Queued/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
  CLOCK_INTERRUPTS("Clock Interrupts/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
  IDLE_BREAK_EVENTS("Idle Break Events/sec", RawKind.BULK_COUNT, FormattedUnit.PER_SECOND),
  PARKING_STATUS("Parking Status", RawKind.RAW, FormattedUnit.COUNT),
  /** In MHz. */
  PROCESSOR_FREQUENCY("Processor Frequency", RawKind.RAW, FormattedUnit.COUNT),
  /** FirstValue: cumulative performance-weighted time; SecondValue: the MPERF ticks, a 32-bit base. */
  PROCESSOR_PERFORMANCE("% Processor Performance", RawKind.AVERAGE_BULK),
  /** FirstValue: cumulative utility; SecondValue: the RTC ticks, a 32-bit base (Task Manager's CPU % is the ratio). */
  PROCESSOR_UTILITY("% Processor Utility", RawKind.AVERAGE_BULK),
  /** FirstValue: cumulative utility in kernel mode; SecondValue the same RTC base. */
  PRIVILEGED_UTILITY("% Privileged Utility", RawKind.AVERAGE_BULK);

  public static final String OBJECT = "Processor Information";

  private final CounterSpec spec;

  ProcessorInformationCounter(String counter, RawKind raw) {
    this(counter, raw, FormattedUnit.PERCENT_OF_INTERVAL);
  }

  ProcessorInformationCounter(String counter, RawKind raw, FormattedUnit formatted) {
    this.spec = new CounterSpec(OBJECT, InstanceFilter.ALL, counter, raw, formatted);
  }

  @Override
  public CounterSpec spec() {
    return spec;
  }
}
