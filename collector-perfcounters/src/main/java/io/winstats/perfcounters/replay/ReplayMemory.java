package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeMemoryBuilder;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.binding.MemoryBinding;
import io.winstats.perfcounters.binding.MemoryBinding.MemoryCounter;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.NodeExtraCounter;
import io.winstats.perfcounters.counters.ProcessCounter;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Memory} and the memory columns of {@code \Winstats Node} in a counter log as {@link NodeMemory}: the figures
 * {@link MemoryBinding} binds, which {@link CounterLogIntegrator} reads and {@link CounterLogRecorder} writes through
 * the table, plus the special cases kept here: the physical size, the working set (this daemon's own column, or a
 * typeperf log's {@code \Process(_Total)\Working Set - Private}) and the usage (this daemon's own column, else the
 * committed bytes, as the kubelet reports Windows usage).
 */
final class ReplayMemory {
  private static final NodeMemory NOTHING = NodeMemory.builder().build();

  private final @Nullable Integer total;
  private final @Nullable Integer workingSet;
  private final @Nullable Integer usage;
  private final BoundColumns<MemoryCounter, NodeMemory, NodeMemoryBuilder> memory;
  private final BoundColumns<NodeExtraCounter, NodeMemory, NodeMemoryBuilder> extra;

  private ReplayMemory(
      @Nullable Integer total,
      @Nullable Integer workingSet,
      @Nullable Integer usage,
      BoundColumns<MemoryCounter, NodeMemory, NodeMemoryBuilder> memory,
      BoundColumns<NodeExtraCounter, NodeMemory, NodeMemoryBuilder> extra) {
    this.total = total;
    this.workingSet = workingSet;
    this.usage = usage;
    this.memory = memory;
    this.extra = extra;
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
    String extraObject = MemoryBinding.WINSTATS_NODE.recordedObject();
    Integer total = header.column(extraObject, null, NodeExtraCounter.PHYSICAL_MEMORY_BYTES);
    Integer workingSet = header.column(extraObject, null, NodeExtraCounter.MEMORY_WORKING_SET_BYTES);
    if (workingSet == null) {
      workingSet =
          header.column(ProcessCounter.OBJECT, InstanceFilter.TOTAL.pathPart(), ProcessCounter.WORKING_SET_PRIVATE);
    }
    Integer usage = header.column(extraObject, null, NodeExtraCounter.MEMORY_USAGE_BYTES);
    BoundColumns<MemoryCounter, NodeMemory, NodeMemoryBuilder> memory =
        BoundColumns.of(header, MemoryBinding.MEMORY.recordedObject(), null, MemoryBinding.MEMORY);
    BoundColumns<NodeExtraCounter, NodeMemory, NodeMemoryBuilder> extra =
        BoundColumns.of(header, extraObject, null, MemoryBinding.WINSTATS_NODE);
    if (total == null && workingSet == null && usage == null && memory.isEmpty() && extra.isEmpty()) {
      unavailable.put(
          NodePart.MEMORY,
          "the log has no memory counter (\\Memory\\*, \\Process(_Total)\\Working Set - Private or"
              + " \\Winstats Node\\Physical Memory Bytes)");
      return null;
    }
    return new ReplayMemory(total, workingSet, usage, memory, extra);
  }

  NodeMemory read(LoggedRow row) {
    NodeMemoryBuilder builder = NodeMemory.builder();
    memory.read(row, builder);
    extra.read(row, builder);
    NodeMemory counters = builder.build();
    NodeMemory read =
        builder
            .totalBytes(total == null ? null : row.gauge(total))
            .workingSetBytes(workingSet == null ? null : row.gauge(workingSet))
            .usageBytes(usage == null ? counters.committedBytes() : row.optionalGauge(usage))
            .build();
    if (read.equals(NOTHING)) {
      throw row.blank("any memory counter");
    }
    return read;
  }

  // ---------------------------------------------------------------- recording

  /**
   * Adds a column per figure the first sample has: {@code \Memory} for those PDH holds, {@code \Winstats Node} for the
   * physical size, working set, usage, major faults and swap, figures no PDH counter holds with the same meaning
   * ({@link NodeExtraCounter}).
   */
  static void record(NodeMemory first, RecordedColumn.Columns out) {
    out.addFigures(MemoryBinding.MEMORY.recordedObject(), null, MemoryBinding.MEMORY, first, NodeSample::memory);
    gauge(out, NodeExtraCounter.PHYSICAL_MEMORY_BYTES, first.totalBytes(), NodeMemory::totalBytes);
    gauge(out, NodeExtraCounter.MEMORY_WORKING_SET_BYTES, first.workingSetBytes(), NodeMemory::workingSetBytes);
    gauge(out, NodeExtraCounter.MEMORY_USAGE_BYTES, first.usageBytes(), NodeMemory::usageBytes);
    out.addFigures(
        MemoryBinding.WINSTATS_NODE.recordedObject(), null, MemoryBinding.WINSTATS_NODE, first, NodeSample::memory);
  }

  private static void gauge(
      RecordedColumn.Columns out,
      NodeExtraCounter counter,
      @Nullable Long firstValue,
      Function<NodeMemory, @Nullable Long> field) {
    if (firstValue == null) {
      return;
    }
    out.add(NodeExtraCounter.OBJECT, null, counter, (p, c, dt) -> {
      Long value = c.memory() == null ? null : field.apply(c.memory());
      return value == null ? null : Long.toString(value);
    });
  }
}
