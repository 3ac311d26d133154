package io.winstats.perfcounters.pdh;

/**
 * {@code \Process(_Total)}: the kubelet's node working set is the private working set summed over all processes.
 */
enum ProcessCounter implements CounterDef {
  WORKING_SET_PRIVATE("Working Set - Private", CounterKind.RAW_LARGE);

  static final String OBJECT = "Process";

  private final String counter;
  private final CounterKind kind;

  ProcessCounter(String counter, CounterKind kind) {
    this.counter = counter;
    this.kind = kind;
  }

  @Override
  public String object() {
    return OBJECT;
  }

  @Override
  public InstanceFilter instances() {
    return InstanceFilter.TOTAL;
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
