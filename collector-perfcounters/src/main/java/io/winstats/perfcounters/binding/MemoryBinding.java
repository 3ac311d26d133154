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
          Figure.gauge(MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES, NodeMemory::freeBytes, NodeMemory.Builder::freeBytes),
          Figure.cumulative(MemoryCounter.PAGE_FAULTS, NodeMemory::pageFaults, NodeMemory.Builder::pageFaults),
          Figure.cumulative(MemoryCounter.PAGES, NodeMemory::swapPageOperations, NodeMemory.Builder::swapPageOperations),
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
              NodeMemory.Builder::standbyCacheReserveBytes)));

  /** {@code \Winstats Node}: memory figures of Linux that no PDH counter holds, in logs this daemon recorded. */
  public static final Binding<NodeExtraCounter, NodeMemory, NodeMemory.Builder> WINSTATS_NODE =
      new Binding<>(List.of(NodeExtraCounter.OBJECT), List.of(
          Figure.cumulative(
              NodeExtraCounter.MAJOR_PAGE_FAULTS, NodeMemory::majorPageFaults, NodeMemory.Builder::majorPageFaults),
          Figure.gauge(NodeExtraCounter.SWAP_TOTAL_BYTES, NodeMemory::swapTotalBytes, NodeMemory.Builder::swapTotalBytes),
          Figure.gauge(NodeExtraCounter.SWAP_FREE_BYTES, NodeMemory::swapFreeBytes, NodeMemory.Builder::swapFreeBytes)));

  private MemoryBinding() {}
}
