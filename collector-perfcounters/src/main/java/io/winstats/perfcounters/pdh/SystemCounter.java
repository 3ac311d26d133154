package io.winstats.perfcounters.pdh;

/**
 * The {@code \System} object (no instances).
 */
enum SystemCounter implements CounterDef {
  PROCESSES("Processes", CounterKind.RAW),
  THREADS("Threads", CounterKind.RAW),
  /** Cumulative (32-bit). */
  CONTEXT_SWITCHES("Context Switches/sec", CounterKind.COUNT),
  PROCESSOR_QUEUE_LENGTH("Processor Queue Length", CounterKind.RAW),
  /** Uptime in seconds = (SecondValue - FirstValue) / time base. */
  SYSTEM_UP_TIME("System Up Time", CounterKind.ELAPSED_TIME);

  static final String OBJECT = "System";

  private final String counter;
  private final CounterKind kind;

  SystemCounter(String counter, CounterKind kind) {
    this.counter = counter;
    this.kind = kind;
  }

  @Override
  public String object() {
    return OBJECT;
  }

  @Override
  public InstanceFilter instances() {
    return InstanceFilter.NONE;
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
