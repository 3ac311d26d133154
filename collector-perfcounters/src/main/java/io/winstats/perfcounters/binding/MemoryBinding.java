package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.counters.MemoryCounter;
import io.winstats.perfcounters.counters.NodeExtraCounter;
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
  /** {@code \Memory}: the counters PDH reads and typeperf logs hold. */
  public static final Binding<MemoryCounter, NodeMemory, NodeMemory.Builder> MEMORY =
      new Binding<>(List.of(MemoryCounter.OBJECT), List.of(
          Figure.gauge(MemoryCounter.AVAILABLE_BYTES, NodeMemory::availableBytes, NodeMemory.Builder::availableBytes),
          Figure.gauge(MemoryCounter.COMMITTED_BYTES, NodeMemory::committedBytes, NodeMemory.Builder::committedBytes),
          Figure.gauge(MemoryCounter.COMMIT_LIMIT, NodeMemory::commitLimitBytes, NodeMemory.Builder::commitLimitBytes),
          Figure.gauge(MemoryCounter.CACHE_BYTES, NodeMemory::cacheBytes, NodeMemory.Builder::cacheBytes),
          Figure.gauge(
              MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES, NodeMemory::freeBytes, NodeMemory.Builder::freeBytes),
          Figure.cumulative(MemoryCounter.PAGE_FAULTS, NodeMemory::pageFaults, NodeMemory.Builder::pageFaults),
          Figure.cumulative(
              MemoryCounter.PAGES, NodeMemory::swapPageOperations, NodeMemory.Builder::swapPageOperations),
          Figure.gauge(
              MemoryCounter.MODIFIED_PAGE_LIST_BYTES,
              NodeMemory::modifiedPageListBytes,
              NodeMemory.Builder::modifiedPageListBytes),
          Figure.gauge(
              MemoryCounter.STANDBY_CACHE_CORE_BYTES,
              NodeMemory::standbyCacheCoreBytes,
              NodeMemory.Builder::standbyCacheCoreBytes),
          Figure.gauge(
              MemoryCounter.STANDBY_CACHE_NORMAL_PRIORITY_BYTES,
              NodeMemory::standbyCacheNormalPriorityBytes,
              NodeMemory.Builder::standbyCacheNormalPriorityBytes),
          Figure.gauge(
              MemoryCounter.STANDBY_CACHE_RESERVE_BYTES,
              NodeMemory::standbyCacheReserveBytes,
              NodeMemory.Builder::standbyCacheReserveBytes),
          Figure.gauge(
              MemoryCounter.CACHE_BYTES_PEAK,
              NodeMemory::cacheBytesPeak,
              NodeMemory.Builder::cacheBytesPeak),
          Figure.cumulative(
              MemoryCounter.CACHE_FAULTS,
              NodeMemory::cacheFaults,
              NodeMemory.Builder::cacheFaults),
          Figure.cumulative(
              MemoryCounter.DEMAND_ZERO_FAULTS,
              NodeMemory::demandZeroFaults,
              NodeMemory.Builder::demandZeroFaults),
          Figure.gauge(
              MemoryCounter.FREE_SYSTEM_PAGE_TABLE_ENTRIES,
              NodeMemory::freeSystemPageTableEntries,
              NodeMemory.Builder::freeSystemPageTableEntries),
          Figure.cumulative(
              MemoryCounter.PAGE_READS,
              NodeMemory::swapPageReads,
              NodeMemory.Builder::swapPageReads),
          Figure.cumulative(
              MemoryCounter.PAGE_WRITES,
              NodeMemory::swapPageWrites,
              NodeMemory.Builder::swapPageWrites),
          Figure.cumulative(
              MemoryCounter.PAGES_INPUT,
              NodeMemory::swapPagesRead,
              NodeMemory.Builder::swapPagesRead),
          Figure.cumulative(
              MemoryCounter.PAGES_OUTPUT,
              NodeMemory::swapPagesWritten,
              NodeMemory.Builder::swapPagesWritten),
          Figure.gauge(
              MemoryCounter.POOL_NONPAGED_BYTES,
              NodeMemory::poolNonpagedBytes,
              NodeMemory.Builder::poolNonpagedBytes),
          Figure.gauge(
              MemoryCounter.POOL_PAGED_BYTES,
              NodeMemory::poolPagedBytes,
              NodeMemory.Builder::poolPagedBytes),
          Figure.gauge(
              MemoryCounter.POOL_PAGED_RESIDENT_BYTES,
              NodeMemory::poolPagedResidentBytes,
              NodeMemory.Builder::poolPagedResidentBytes),
          // As windows_exporter 0.31.8 emits them (memory.go:496-512): Nonpaged Allocs a GaugeValue, Paged Allocs a
          // CounterValue, both the raw value; the paged one here carried across a 2^32 wrap like any raw count.
          Figure.gauge(
              MemoryCounter.POOL_NONPAGED_ALLOCS,
              NodeMemory::poolNonpagedAllocs,
              NodeMemory.Builder::poolNonpagedAllocs),
          Figure.cumulative(
              MemoryCounter.POOL_PAGED_ALLOCS, NodeMemory::poolPagedAllocs, NodeMemory.Builder::poolPagedAllocs),
          Figure.gauge(
              MemoryCounter.SYSTEM_CACHE_RESIDENT_BYTES,
              NodeMemory::systemCacheResidentBytes,
              NodeMemory.Builder::systemCacheResidentBytes),
          Figure.gauge(
              MemoryCounter.SYSTEM_CODE_RESIDENT_BYTES,
              NodeMemory::systemCodeResidentBytes,
              NodeMemory.Builder::systemCodeResidentBytes),
          Figure.gauge(
              MemoryCounter.SYSTEM_CODE_TOTAL_BYTES,
              NodeMemory::systemCodeTotalBytes,
              NodeMemory.Builder::systemCodeTotalBytes),
          Figure.gauge(
              MemoryCounter.SYSTEM_DRIVER_RESIDENT_BYTES,
              NodeMemory::systemDriverResidentBytes,
              NodeMemory.Builder::systemDriverResidentBytes),
          Figure.gauge(
              MemoryCounter.SYSTEM_DRIVER_TOTAL_BYTES,
              NodeMemory::systemDriverTotalBytes,
              NodeMemory.Builder::systemDriverTotalBytes),
          Figure.cumulative(
              MemoryCounter.TRANSITION_FAULTS,
              NodeMemory::transitionFaults,
              NodeMemory.Builder::transitionFaults),
          Figure.cumulative(
              MemoryCounter.TRANSITION_PAGES_REPURPOSED,
              NodeMemory::transitionPagesRepurposed,
              NodeMemory.Builder::transitionPagesRepurposed),
          Figure.cumulative(
              MemoryCounter.WRITE_COPIES,
              NodeMemory::writeCopies,
              NodeMemory.Builder::writeCopies)));

  /** {@code \Winstats Node}: memory figures of Linux that no PDH counter holds, in logs this daemon recorded. */
  public static final Binding<NodeExtraCounter, NodeMemory, NodeMemory.Builder> WINSTATS_NODE =
      new Binding<>(List.of(NodeExtraCounter.OBJECT), List.of(
          Figure.cumulative(
              NodeExtraCounter.MAJOR_PAGE_FAULTS, NodeMemory::majorPageFaults, NodeMemory.Builder::majorPageFaults),
          Figure.gauge(
              NodeExtraCounter.SWAP_TOTAL_BYTES, NodeMemory::swapTotalBytes, NodeMemory.Builder::swapTotalBytes),
          Figure.gauge(
              NodeExtraCounter.SWAP_FREE_BYTES, NodeMemory::swapFreeBytes, NodeMemory.Builder::swapFreeBytes)));

  private MemoryBinding() {}
}
