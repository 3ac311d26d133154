package io.winstats.perfcounters.counters;

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
