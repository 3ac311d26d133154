package io.winstats.perfcounters.replay;

/** Counters of {@code \System}. {@code System Up Time} is in seconds. */
enum SystemCounter implements LoggedCounter {
  PROCESSES("Processes", CounterKind.GAUGE),
  THREADS("Threads", CounterKind.GAUGE),
  CONTEXT_SWITCHES("Context Switches/sec", CounterKind.PER_SECOND),
  PROCESSOR_QUEUE_LENGTH("Processor Queue Length", CounterKind.GAUGE),
  SYSTEM_UP_TIME("System Up Time", CounterKind.GAUGE);

  static final String OBJECT = "System";

  private final String counterName;
  private final CounterKind kind;

  SystemCounter(String counterName, CounterKind kind) {
    this.counterName = counterName;
    this.kind = kind;
  }

  @Override
  public String counterName() {
    return counterName;
  }

  @Override
  public CounterKind kind() {
    return kind;
  }
}
