package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeMemoryBuilder;
import io.winstats.perfcounters.counters.CounterSpec;
import io.winstats.perfcounters.counters.FormattedUnit;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.NodeExtraCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.RawKind;
import java.util.List;

/**
 * {@code \Memory} and the memory columns of {@code \Winstats Node}, bound to {@link NodeMemory}. Every figure may be
 * absent: each comes from its own counter, so one unreadable counter costs only its figure.
 *
 * <p>Not here, because they are not one counter each: the physical size ({@code GlobalMemoryStatusEx} live, {@code
 * \Winstats Node\Physical Memory Bytes} in a log), the working set (its {@code --node.memory.working-set} definition
 * live, {@code \Winstats Node\Memory Working Set Bytes} or {@code \Process(_Total)\Working Set - Private} in a log) and
 * the usage (committed bytes on Windows, {@code \Winstats Node\Memory Usage Bytes} in a log this daemon wrote).
 */
public final class MemoryBinding {
  /**
   * The {@code \Memory} object (no instances). Byte counts are documented as 32-bit raw counts and are 64-bit on
   * current x64; the actual type decides.
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
     * swap_page_operations_total}): pages, not faults, so not
     * {@link io.winstats.perfcounters.NodeMemory#majorPageFaults()}.
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
    STANDBY_CACHE_RESERVE_BYTES("Standby Cache Reserve Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
    /** windows_exporter 0.31.8's {@code windows_memory_cache_bytes_peak}. */
    CACHE_BYTES_PEAK("Cache Bytes Peak", RawKind.RAW_LARGE, FormattedUnit.BYTES),
    /** windows_exporter 0.31.8's {@code windows_memory_cache_faults_total} (cumulative, 32-bit). */
    CACHE_FAULTS("Cache Faults/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** windows_exporter 0.31.8's {@code windows_memory_demand_zero_faults_total} (cumulative, 32-bit). */
    DEMAND_ZERO_FAULTS("Demand Zero Faults/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** windows_exporter 0.31.8's {@code windows_memory_free_system_page_table_entries}. */
    FREE_SYSTEM_PAGE_TABLE_ENTRIES("Free System Page Table Entries", RawKind.RAW, FormattedUnit.COUNT),
    /** windows_exporter 0.31.8's {@code windows_memory_swap_page_reads_total} (cumulative, 32-bit). */
    PAGE_READS("Page Reads/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** windows_exporter 0.31.8's {@code windows_memory_swap_page_writes_total} (cumulative, 32-bit). */
    PAGE_WRITES("Page Writes/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** windows_exporter 0.31.8's {@code windows_memory_swap_pages_read_total} (cumulative, 32-bit). */
    PAGES_INPUT("Pages Input/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** windows_exporter 0.31.8's {@code windows_memory_swap_pages_written_total} (cumulative, 32-bit). */
    PAGES_OUTPUT("Pages Output/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** windows_exporter 0.31.8's {@code windows_memory_pool_nonpaged_bytes}. */
    POOL_NONPAGED_BYTES("Pool Nonpaged Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
    /** windows_exporter 0.31.8's {@code windows_memory_pool_paged_bytes}. */
    POOL_PAGED_BYTES("Pool Paged Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
    /** windows_exporter 0.31.8's {@code windows_memory_pool_paged_resident_bytes}. */
    POOL_PAGED_RESIDENT_BYTES("Pool Paged Resident Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
    /**
     * windows_exporter 0.31.8's {@code windows_memory_pool_nonpaged_allocs_total}: the allocations in the pool now
     * (32-bit raw count), which it serves as a gauge.
     */
    POOL_NONPAGED_ALLOCS("Pool Nonpaged Allocs", RawKind.RAW, FormattedUnit.COUNT),
    /** windows_exporter 0.31.8's {@code windows_memory_pool_paged_allocs_total}, served as a counter (32-bit raw). */
    POOL_PAGED_ALLOCS("Pool Paged Allocs", RawKind.RAW, FormattedUnit.COUNT),
    /** windows_exporter 0.31.8's {@code windows_memory_system_cache_resident_bytes}. */
    SYSTEM_CACHE_RESIDENT_BYTES("System Cache Resident Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
    /** windows_exporter 0.31.8's {@code windows_memory_system_code_resident_bytes}. */
    SYSTEM_CODE_RESIDENT_BYTES("System Code Resident Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
    /** windows_exporter 0.31.8's {@code windows_memory_system_code_total_bytes}. */
    SYSTEM_CODE_TOTAL_BYTES("System Code Total Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
    /** windows_exporter 0.31.8's {@code windows_memory_system_driver_resident_bytes}. */
    SYSTEM_DRIVER_RESIDENT_BYTES("System Driver Resident Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
    /** windows_exporter 0.31.8's {@code windows_memory_system_driver_total_bytes}. */
    SYSTEM_DRIVER_TOTAL_BYTES("System Driver Total Bytes", RawKind.RAW_LARGE, FormattedUnit.BYTES),
    /** windows_exporter 0.31.8's {@code windows_memory_transition_faults_total} (cumulative, 32-bit). */
    TRANSITION_FAULTS("Transition Faults/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** windows_exporter 0.31.8's {@code windows_memory_transition_pages_repurposed_total} (cumulative, 32-bit). */
    TRANSITION_PAGES_REPURPOSED("Transition Pages RePurposed/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** windows_exporter 0.31.8's {@code windows_memory_write_copies_total} (cumulative, 32-bit). */
    WRITE_COPIES("Write Copies/sec", RawKind.COUNT, FormattedUnit.PER_SECOND);

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

  /** {@code \Memory}: the counters PDH reads and typeperf logs hold. */
  public static final Binding<MemoryCounter, NodeMemory, NodeMemoryBuilder> MEMORY =
      new Binding<>(List.of(MemoryCounter.OBJECT), List.of(
          Figure.gauge(MemoryCounter.AVAILABLE_BYTES, NodeMemory::availableBytes, NodeMemoryBuilder::availableBytes),
          Figure.gauge(MemoryCounter.COMMITTED_BYTES, NodeMemory::committedBytes, NodeMemoryBuilder::committedBytes),
          Figure.gauge(MemoryCounter.COMMIT_LIMIT, NodeMemory::commitLimitBytes, NodeMemoryBuilder::commitLimitBytes),
          Figure.gauge(MemoryCounter.CACHE_BYTES, NodeMemory::cacheBytes, NodeMemoryBuilder::cacheBytes),
          Figure.gauge(
              MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES, NodeMemory::freeBytes, NodeMemoryBuilder::freeBytes),
          Figure.cumulative(MemoryCounter.PAGE_FAULTS, NodeMemory::pageFaults, NodeMemoryBuilder::pageFaults),
          Figure.cumulative(
              MemoryCounter.PAGES, NodeMemory::swapPageOperations, NodeMemoryBuilder::swapPageOperations),
          Figure.gauge(
              MemoryCounter.MODIFIED_PAGE_LIST_BYTES,
              NodeMemory::modifiedPageListBytes,
              NodeMemoryBuilder::modifiedPageListBytes),
          Figure.gauge(
              MemoryCounter.STANDBY_CACHE_CORE_BYTES,
              NodeMemory::standbyCacheCoreBytes,
              NodeMemoryBuilder::standbyCacheCoreBytes),
          Figure.gauge(
              MemoryCounter.STANDBY_CACHE_NORMAL_PRIORITY_BYTES,
              NodeMemory::standbyCacheNormalPriorityBytes,
              NodeMemoryBuilder::standbyCacheNormalPriorityBytes),
          Figure.gauge(
              MemoryCounter.STANDBY_CACHE_RESERVE_BYTES,
              NodeMemory::standbyCacheReserveBytes,
              NodeMemoryBuilder::standbyCacheReserveBytes),
          Figure.gauge(
              MemoryCounter.CACHE_BYTES_PEAK,
              NodeMemory::cacheBytesPeak,
              NodeMemoryBuilder::cacheBytesPeak),
          Figure.cumulative(
              MemoryCounter.CACHE_FAULTS,
              NodeMemory::cacheFaults,
              NodeMemoryBuilder::cacheFaults),
          Figure.cumulative(
              MemoryCounter.DEMAND_ZERO_FAULTS,
              NodeMemory::demandZeroFaults,
              NodeMemoryBuilder::demandZeroFaults),
          Figure.gauge(
              MemoryCounter.FREE_SYSTEM_PAGE_TABLE_ENTRIES,
              NodeMemory::freeSystemPageTableEntries,
              NodeMemoryBuilder::freeSystemPageTableEntries),
          Figure.cumulative(
              MemoryCounter.PAGE_READS,
              NodeMemory::swapPageReads,
              NodeMemoryBuilder::swapPageReads),
          Figure.cumulative(
              MemoryCounter.PAGE_WRITES,
              NodeMemory::swapPageWrites,
              NodeMemoryBuilder::swapPageWrites),
          Figure.cumulative(
              MemoryCounter.PAGES_INPUT,
              NodeMemory::swapPagesRead,
              NodeMemoryBuilder::swapPagesRead),
          Figure.cumulative(
              MemoryCounter.PAGES_OUTPUT,
              NodeMemory::swapPagesWritten,
              NodeMemoryBuilder::swapPagesWritten),
          Figure.gauge(
              MemoryCounter.POOL_NONPAGED_BYTES,
              NodeMemory::poolNonpagedBytes,
              NodeMemoryBuilder::poolNonpagedBytes),
          Figure.gauge(
              MemoryCounter.POOL_PAGED_BYTES,
              NodeMemory::poolPagedBytes,
              NodeMemoryBuilder::poolPagedBytes),
          Figure.gauge(
              MemoryCounter.POOL_PAGED_RESIDENT_BYTES,
              NodeMemory::poolPagedResidentBytes,
              NodeMemoryBuilder::poolPagedResidentBytes),
          // As windows_exporter 0.31.8 emits them (memory.go:496-512): Nonpaged Allocs a GaugeValue, Paged Allocs a
          // CounterValue, both the raw value; the paged one here carried across a 2^32 wrap like any raw count.
          Figure.gauge(
              MemoryCounter.POOL_NONPAGED_ALLOCS,
              NodeMemory::poolNonpagedAllocs,
              NodeMemoryBuilder::poolNonpagedAllocs),
          Figure.cumulative(
              MemoryCounter.POOL_PAGED_ALLOCS, NodeMemory::poolPagedAllocs, NodeMemoryBuilder::poolPagedAllocs),
          Figure.gauge(
              MemoryCounter.SYSTEM_CACHE_RESIDENT_BYTES,
              NodeMemory::systemCacheResidentBytes,
              NodeMemoryBuilder::systemCacheResidentBytes),
          Figure.gauge(
              MemoryCounter.SYSTEM_CODE_RESIDENT_BYTES,
              NodeMemory::systemCodeResidentBytes,
              NodeMemoryBuilder::systemCodeResidentBytes),
          Figure.gauge(
              MemoryCounter.SYSTEM_CODE_TOTAL_BYTES,
              NodeMemory::systemCodeTotalBytes,
              NodeMemoryBuilder::systemCodeTotalBytes),
          Figure.gauge(
              MemoryCounter.SYSTEM_DRIVER_RESIDENT_BYTES,
              NodeMemory::systemDriverResidentBytes,
              NodeMemoryBuilder::systemDriverResidentBytes),
          Figure.gauge(
              MemoryCounter.SYSTEM_DRIVER_TOTAL_BYTES,
              NodeMemory::systemDriverTotalBytes,
              NodeMemoryBuilder::systemDriverTotalBytes),
          Figure.cumulative(
              MemoryCounter.TRANSITION_FAULTS,
              NodeMemory::transitionFaults,
              NodeMemoryBuilder::transitionFaults),
          Figure.cumulative(
              MemoryCounter.TRANSITION_PAGES_REPURPOSED,
              NodeMemory::transitionPagesRepurposed,
              NodeMemoryBuilder::transitionPagesRepurposed),
          Figure.cumulative(
              MemoryCounter.WRITE_COPIES,
              NodeMemory::writeCopies,
              NodeMemoryBuilder::writeCopies)));

  /** {@code \Winstats Node}: memory figures of Linux that no PDH counter holds, in logs this daemon recorded. */
  public static final Binding<NodeExtraCounter, NodeMemory, NodeMemoryBuilder> WINSTATS_NODE =
      new Binding<>(List.of(NodeExtraCounter.OBJECT), List.of(
          Figure.cumulative(
              NodeExtraCounter.MAJOR_PAGE_FAULTS, NodeMemory::majorPageFaults, NodeMemoryBuilder::majorPageFaults),
          Figure.gauge(
              NodeExtraCounter.SWAP_TOTAL_BYTES, NodeMemory::swapTotalBytes, NodeMemoryBuilder::swapTotalBytes),
          Figure.gauge(
              NodeExtraCounter.SWAP_FREE_BYTES, NodeMemory::swapFreeBytes, NodeMemoryBuilder::swapFreeBytes)));

  private MemoryBinding() {}
}
