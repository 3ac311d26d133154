package io.winstats.perfcounters.replay;

/**
 * Columns of our own object {@code \Winstats Node}, which only {@link CounterLogRecorder} writes: node-model figures
 * that no PDH counter holds with the same meaning (physical memory size, the Linux working set and usage, swap, load,
 * the pid limit). Windows never writes this object, so typeperf and relog logs do not have it.
 */
enum NodeExtraCounter implements LoggedCounter {
  PHYSICAL_MEMORY_BYTES("Physical Memory Bytes", CounterKind.GAUGE),
  MEMORY_WORKING_SET_BYTES("Memory Working Set Bytes", CounterKind.GAUGE),
  MEMORY_USAGE_BYTES("Memory Usage Bytes", CounterKind.GAUGE),
  MAJOR_PAGE_FAULTS("Major Page Faults/sec", CounterKind.PER_SECOND),
  SWAP_TOTAL_BYTES("Swap Total Bytes", CounterKind.GAUGE),
  SWAP_FREE_BYTES("Swap Free Bytes", CounterKind.GAUGE),
  MAX_PROCESSES("Max Processes", CounterKind.GAUGE),
  LOAD_1("Load Average 1m", CounterKind.GAUGE),
  LOAD_5("Load Average 5m", CounterKind.GAUGE),
  LOAD_15("Load Average 15m", CounterKind.GAUGE);

  static final String OBJECT = "Winstats Node";

  private final String counterName;
  private final CounterKind kind;

  NodeExtraCounter(String counterName, CounterKind kind) {
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
