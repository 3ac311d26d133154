package io.winstats.perfcounters.replay;

/**
 * Counters of {@code \Memory}. {@code Pages/sec} is not mapped: it counts pages read and written for hard faults, not
 * faults, so it is not {@link io.winstats.perfcounters.NodeMemory#majorPageFaults()}.
 */
enum MemoryCounter implements LoggedCounter {
  AVAILABLE_BYTES("Available Bytes", CounterKind.GAUGE),
  COMMITTED_BYTES("Committed Bytes", CounterKind.GAUGE),
  COMMIT_LIMIT("Commit Limit", CounterKind.GAUGE),
  CACHE_BYTES("Cache Bytes", CounterKind.GAUGE),
  FREE_AND_ZERO_PAGE_LIST_BYTES("Free & Zero Page List Bytes", CounterKind.GAUGE),
  PAGE_FAULTS("Page Faults/sec", CounterKind.PER_SECOND);

  static final String OBJECT = "Memory";

  private final String counterName;
  private final CounterKind kind;

  MemoryCounter(String counterName, CounterKind kind) {
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
