package io.winstats.perfcounters.pdh;

/**
 * The {@code \Memory} object (no instances). Byte counts are documented as 32-bit raw counts and are 64-bit on current
 * x64; the actual type decides.
 */
enum MemoryCounter implements CounterDef {
  AVAILABLE_BYTES("Available Bytes", CounterKind.RAW_LARGE),
  COMMITTED_BYTES("Committed Bytes", CounterKind.RAW_LARGE),
  COMMIT_LIMIT("Commit Limit", CounterKind.RAW_LARGE),
  CACHE_BYTES("Cache Bytes", CounterKind.RAW_LARGE),
  /** Cumulative fault count (32-bit). */
  PAGE_FAULTS("Page Faults/sec", CounterKind.COUNT),
  /** Cumulative pages read or written for hard faults; collected, not mapped (see {@code NodeMemory#majorPageFaults}). */
  PAGES("Pages/sec", CounterKind.COUNT),
  FREE_AND_ZERO_PAGE_LIST_BYTES("Free & Zero Page List Bytes", CounterKind.RAW_LARGE);

  static final String OBJECT = "Memory";

  private final String counter;
  private final CounterKind kind;

  MemoryCounter(String counter, CounterKind kind) {
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
