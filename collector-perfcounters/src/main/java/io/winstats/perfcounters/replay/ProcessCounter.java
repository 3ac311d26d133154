package io.winstats.perfcounters.replay;

/** The one counter of {@code \Process(_Total)} the node model uses: the kubelet's Windows node working set. */
enum ProcessCounter implements LoggedCounter {
  WORKING_SET_PRIVATE("Working Set - Private");

  static final String OBJECT = "Process";
  static final String TOTAL = "_Total";

  private final String counterName;

  ProcessCounter(String counterName) {
    this.counterName = counterName;
  }

  @Override
  public String counterName() {
    return counterName;
  }

  @Override
  public CounterKind kind() {
    return CounterKind.GAUGE;
  }
}
