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
   * Cumulative pages read from or written to disk to resolve hard faults (32-bit; windows_exporter's {@code
   * swap_page_operations_total}): pages, not faults, so not {@link io.winstats.perfcounters.NodeMemory#majorPageFaults()}.
   */
  PAGES("Pages/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
  FREE_AND_ZERO_PAGE_LIST_BYTES("Free & Zero Page List Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
  /** Cached data and code on the modified page list, not in use; written to disk before it can be reused. */
  MODIFIED_PAGE_LIST_BYTES("Modified Page List Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
  /** Cached data and code on the core standby cache page lists, not in use. */
  STANDBY_CACHE_CORE_BYTES("Standby Cache Core Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
  /** Cached data and code on the normal-priority standby cache page lists, not in use. */
  STANDBY_CACHE_NORMAL_PRIORITY_BYTES("Standby Cache Normal Priority Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
  /** Cached data and code on the reserve standby cache page lists, not in use. */
  STANDBY_CACHE_RESERVE_BYTES("Standby Cache Reserve Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES);

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
