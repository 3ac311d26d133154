package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.LoggedCounter;
import io.winstats.perfcounters.counters.MemoryCounter;
import io.winstats.perfcounters.counters.ProcessCounter;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Memory}, {@code \Process(_Total)\Working Set - Private} and the memory columns of {@code \Winstats Node} in a
 * counter log as {@link NodeMemory}: the columns {@link CounterLogIntegrator} reads and those {@link
 * CounterLogRecorder} writes.
 */
final class ReplayMemory {
  /** The counters {@link #read} reads into {@link NodeMemory}, besides the total and the working set. */
  private static final Set<LoggedCounter> FIGURES =
      Set.of(
          MemoryCounter.AVAILABLE_BYTES,
          MemoryCounter.COMMITTED_BYTES,
          MemoryCounter.COMMIT_LIMIT,
          MemoryCounter.CACHE_BYTES,
          MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES,
          MemoryCounter.PAGE_FAULTS,
          NodeExtraCounter.MEMORY_USAGE_BYTES,
          NodeExtraCounter.MAJOR_PAGE_FAULTS,
          NodeExtraCounter.SWAP_TOTAL_BYTES,
          NodeExtraCounter.SWAP_FREE_BYTES);

  private static final NodeMemory NOTHING = NodeMemory.builder().build();

  private final @Nullable Integer total;
  private final @Nullable Integer workingSet;
  private final Map<LoggedCounter, Integer> optional;

  private ReplayMemory(@Nullable Integer total, @Nullable Integer workingSet, Map<LoggedCounter, Integer> optional) {
    this.total = total;
    this.workingSet = workingSet;
    this.optional = optional;
  }

  // ---------------------------------------------------------------- integration

  /**
   * Memory needs any one memory figure. The physical memory size is only in logs this daemon recorded (no PDH counter
   * holds it) and the working set needs {@code Process(_Total)\Working Set - Private}; a typeperf log of {@code
   * \Memory\*} has neither, and its available, committed, commit limit, cache and free figures are still served.
   *
   * @return the memory columns the header offers, or null with the reason put in {@code unavailable}
   */
  static @Nullable ReplayMemory plan(LogHeader header, Map<NodePart, String> unavailable) {
    Integer total = header.column(NodeExtraCounter.OBJECT, null, NodeExtraCounter.PHYSICAL_MEMORY_BYTES);
    Integer workingSet = header.column(NodeExtraCounter.OBJECT, null, NodeExtraCounter.MEMORY_WORKING_SET_BYTES);
    if (workingSet == null) {
      workingSet =
          header.column(ProcessCounter.OBJECT, InstanceFilter.TOTAL.pathPart(), ProcessCounter.WORKING_SET_PRIVATE);
    }
    Map<LoggedCounter, Integer> optional = new HashMap<>();
    optional.putAll(header.columns(MemoryCounter.OBJECT, null, MemoryCounter.class));
    optional.putAll(header.columns(NodeExtraCounter.OBJECT, null, NodeExtraCounter.class));
    optional.keySet().retainAll(FIGURES);
    if (total == null && workingSet == null && optional.isEmpty()) {
      unavailable.put(
          NodePart.MEMORY,
          "the log has no memory counter (\\Memory\\*, \\Process(_Total)\\Working Set - Private or"
              + " \\Winstats Node\\Physical Memory Bytes)");
      return null;
    }
    return new ReplayMemory(total, workingSet, optional);
  }

  NodeMemory read(LoggedRow row) {
    Map<LoggedCounter, Integer> opt = optional;
    Long usage = row.optionalGauge(opt, NodeExtraCounter.MEMORY_USAGE_BYTES);
    Long committed = row.optionalGauge(opt, MemoryCounter.COMMITTED_BYTES);
    NodeMemory memory =
        NodeMemory.builder()
            .totalBytes(total == null ? null : row.gauge(total))
            .availableBytes(row.optionalGauge(opt, MemoryCounter.AVAILABLE_BYTES))
            .workingSetBytes(workingSet == null ? null : row.gauge(workingSet))
            .usageBytes(opt.containsKey(NodeExtraCounter.MEMORY_USAGE_BYTES) ? usage : committed)
            .freeBytes(row.optionalGauge(opt, MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES))
            .cacheBytes(row.optionalGauge(opt, MemoryCounter.CACHE_BYTES))
            .committedBytes(committed)
            .commitLimitBytes(row.optionalGauge(opt, MemoryCounter.COMMIT_LIMIT))
            .pageFaults(row.optionalCount(opt, MemoryCounter.PAGE_FAULTS))
            .majorPageFaults(row.optionalCount(opt, NodeExtraCounter.MAJOR_PAGE_FAULTS))
            .swapTotalBytes(row.optionalGauge(opt, NodeExtraCounter.SWAP_TOTAL_BYTES))
            .swapFreeBytes(row.optionalGauge(opt, NodeExtraCounter.SWAP_FREE_BYTES))
            .build();
    if (memory.equals(NOTHING)) {
      throw row.blank("any memory counter");
    }
    return memory;
  }

  // ---------------------------------------------------------------- recording

  /**
   * Adds a column per figure the first sample has: {@code \Memory} for those PDH holds, {@code \Winstats Node} for the
   * physical size, working set, usage, major faults and swap, figures no PDH counter holds with the same meaning
   * ({@link NodeExtraCounter}).
   */
  static void record(NodeMemory first, RecordedColumn.Columns out) {
    String memory = MemoryCounter.OBJECT;
    gauge(out, memory, MemoryCounter.AVAILABLE_BYTES, first.availableBytes(), NodeMemory::availableBytes);
    gauge(out, memory, MemoryCounter.COMMITTED_BYTES, first.committedBytes(), NodeMemory::committedBytes);
    gauge(out, memory, MemoryCounter.COMMIT_LIMIT, first.commitLimitBytes(), NodeMemory::commitLimitBytes);
    gauge(out, memory, MemoryCounter.CACHE_BYTES, first.cacheBytes(), NodeMemory::cacheBytes);
    gauge(out, memory, MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES, first.freeBytes(), NodeMemory::freeBytes);
    rate(out, memory, MemoryCounter.PAGE_FAULTS, first.pageFaults(), NodeMemory::pageFaults);
    String extra = NodeExtraCounter.OBJECT;
    gauge(out, extra, NodeExtraCounter.PHYSICAL_MEMORY_BYTES, first.totalBytes(), NodeMemory::totalBytes);
    gauge(out, extra, NodeExtraCounter.MEMORY_WORKING_SET_BYTES, first.workingSetBytes(), NodeMemory::workingSetBytes);
    gauge(out, extra, NodeExtraCounter.MEMORY_USAGE_BYTES, first.usageBytes(), NodeMemory::usageBytes);
    rate(out, extra, NodeExtraCounter.MAJOR_PAGE_FAULTS, first.majorPageFaults(), NodeMemory::majorPageFaults);
    gauge(out, extra, NodeExtraCounter.SWAP_TOTAL_BYTES, first.swapTotalBytes(), NodeMemory::swapTotalBytes);
    gauge(out, extra, NodeExtraCounter.SWAP_FREE_BYTES, first.swapFreeBytes(), NodeMemory::swapFreeBytes);
  }

  private static void gauge(
      RecordedColumn.Columns out,
      String object,
      LoggedCounter counter,
      @Nullable Long firstValue,
      Function<NodeMemory, @Nullable Long> field) {
    if (firstValue == null) {
      return;
    }
    out.add(object, null, counter, (p, c, dt) -> {
      Long value = c.memory() == null ? null : field.apply(c.memory());
      return value == null ? null : Long.toString(value);
    });
  }

  private static void rate(
      RecordedColumn.Columns out,
      String object,
      LoggedCounter counter,
      @Nullable Long firstValue,
      Function<NodeMemory, @Nullable Long> field) {
    if (firstValue == null) {
      return;
    }
    out.add(object, null, counter, (p, c, dt) -> {
      Long before = p == null || p.memory() == null ? null : field.apply(p.memory());
      Long now = c.memory() == null ? null : field.apply(c.memory());
      return RecordedColumn.perSecond(before, now, dt);
    });
  }
}
