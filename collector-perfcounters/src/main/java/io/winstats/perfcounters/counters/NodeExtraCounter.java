package io.winstats.perfcounters.counters;

/**
 * Columns of our own object {@code \Winstats Node}, which only the counter-log recorder ({@code --record}) writes:
 * node-model figures that no PDH counter holds with the same meaning (physical memory size, the working set and usage
 * as the daemon defined them, swap, load, the pid limit). Windows never writes this object, so typeperf and relog logs
 * do not have it.
 */
public enum NodeExtraCounter implements LoggedCounter {
  PHYSICAL_MEMORY_BYTES("Physical Memory Bytes", FormattedUnit.BYTES),
  MEMORY_WORKING_SET_BYTES("Memory Working Set Bytes", FormattedUnit.BYTES),
  MEMORY_USAGE_BYTES("Memory Usage Bytes", FormattedUnit.BYTES),
  MAJOR_PAGE_FAULTS("Major Page Faults/sec", FormattedUnit.PER_SECOND),
  SWAP_TOTAL_BYTES("Swap Total Bytes", FormattedUnit.BYTES),
  SWAP_FREE_BYTES("Swap Free Bytes", FormattedUnit.BYTES),
  MAX_PROCESSES("Max Processes", FormattedUnit.COUNT),
  LOAD_1("Load Average 1m", FormattedUnit.COUNT),
  LOAD_5("Load Average 5m", FormattedUnit.COUNT),
  LOAD_15("Load Average 15m", FormattedUnit.COUNT);

  public static final String OBJECT = "Winstats Node";

  private final String counter;
  private final FormattedUnit formatted;

  NodeExtraCounter(String counter, FormattedUnit formatted) {
    this.counter = counter;
    this.formatted = formatted;
  }

  @Override
  public String object() {
    return OBJECT;
  }

  @Override
  public String counter() {
    return counter;
  }

  @Override
  public FormattedUnit formatted() {
    return formatted;
  }
}
