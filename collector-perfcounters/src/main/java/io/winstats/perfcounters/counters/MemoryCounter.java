package io.winstats.perfcounters.counters;

/**
 * The {@code \Memory} object (no instances). Byte counts are documented as 32-bit raw counts and are 64-bit on current
 * x64; the actual type decides.
 */
public enum MemoryCounter implements PerfCounter {
  AVAILABLE_BYTES("Available Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
  COMMITTED_BYTES("Committed Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
  COMMIT_LIMIT("Commit Limit", RawKind.RAW_LARGE, FormattedUnit.BYTES),
  CACHE_BYTES("Cache Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
  /** Cumulative fault count (32-bit). */
  PAGE_FAULTS("Page Faults/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
  /**
   * Cumulative pages read or written for hard faults: not faults, so not
   * {@link io.winstats.perfcounters.NodeMemory#majorPageFaults()}. Read, not mapped.
   */
  PAGES("Pages/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
  FREE_AND_ZERO_PAGE_LIST_BYTES("Free & Zero Page List Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES);

  public static final String OBJECT = "Memory";

  private final CounterSpec spec;

  MemoryCounter(String counter, RawKind raw, FormattedUnit formatted) {
    this.spec = new CounterSpec(OBJECT, InstanceFilter.NONE, counter, raw, formatted);
  }

  @Override
  public CounterSpec spec() {
    return spec;
  }
}
