package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeMemoryBuilder;
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
