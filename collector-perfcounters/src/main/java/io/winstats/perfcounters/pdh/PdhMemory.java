package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.require;
import static io.winstats.perfcounters.pdh.PdhReadings.single;

import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.counters.MemoryCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.ProcessCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Memory}, {@code \Process(_Total)\Working Set - Private} and {@code GlobalMemoryStatusEx} as
 * {@link NodeMemory}, the working set as the {@link WorkingSetDefinition} chosen. Confined to the sampling thread.
 */
final class PdhMemory {
  /**
   * Every {@code \Memory} counter, and {@code \Process(_Total)\Working Set - Private} only for the kubelet's
   * working set: the physical one is total − {@code Available Bytes}, and the {@code Process} query is the expensive
   * one (OSHI measured 30–50 ms for a process list through PDH, oshi#1001), so it is not opened for nothing.
   */
  static List<PerfCounter> counters(WorkingSetDefinition workingSet) {
    return Stream.<Set<? extends PerfCounter>>of(
            EnumSet.allOf(MemoryCounter.class),
            workingSet == WorkingSetDefinition.KUBELET ? EnumSet.allOf(ProcessCounter.class) : Set.of())
        .<PerfCounter>flatMap(Set::stream)
        .toList();
  }

  private final PdhLibrary lib;
  private final WorkingSetDefinition workingSet;
  private final CumulativeCounters<String> counts = new CumulativeCounters<>();

  PdhMemory(PdhLibrary lib, WorkingSetDefinition workingSet) {
    this.lib = lib;
    this.workingSet = workingSet;
  }

  /**
   * Each figure comes from its own counter, so one failing counter costs only its figures: with {@code \Process}
   * unreadable (PerfProc disabled, or slow to answer, which is common) only the working set is absent, and the
   * commit figures the {@code windows-global-commit-memory} system container needs stay.
   *
   * @param memory the collect of the {@code Memory} query
   * @param process the collect of the {@code Process} query (none with the physical working set)
   * @return the memory, or {@code null} (and the part named in {@code missing}) when no counter at all could be read
   */
  @Nullable NodeMemory read(Collected memory, Collected process, Map<NodePart, String> missing) {
    Map<NodePart, String> failures = new EnumMap<>(NodePart.class);
    Long total = null;
    try {
      total = lib.totalPhysicalMemoryBytes();
    } catch (PdhException e) {
      failures.putIfAbsent(NodePart.MEMORY, e.call() + " " + e.statusName());
    }
    Long privateBytes = null;
    if (workingSet == WorkingSetDefinition.KUBELET) {
      Reading privateWorkingSet = reading(process, ProcessCounter.WORKING_SET_PRIVATE);
      privateBytes = single(privateWorkingSet);
      if (privateBytes == null) {
        failures.putIfAbsent(
            NodePart.MEMORY,
            privateWorkingSet.path() + " "
                + (privateWorkingSet.ok() ? "PDH_CSTATUS_NO_INSTANCE" : privateWorkingSet.failure()));
      }
    }
    Long available = single(reading(memory, MemoryCounter.AVAILABLE_BYTES));
    Long committed = single(reading(memory, MemoryCounter.COMMITTED_BYTES));
    Reading faults = reading(memory, MemoryCounter.PAGE_FAULTS);
    Long pageFaults = null;
    Long rawFaults = single(faults);
    if (rawFaults != null) {
      pageFaults = counts.update(faults.path(), rawFaults, PerfCounterType.is64Bit(faults.type()));
    }
    NodeMemory read =
        NodeMemory.builder()
            .totalBytes(total)
            .availableBytes(available)
            .workingSetBytes(workingSet.workingSetBytes(privateBytes, total, available))
            .usageBytes(committed)
            .freeBytes(single(reading(memory, MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES)))
            .cacheBytes(single(reading(memory, MemoryCounter.CACHE_BYTES)))
            .committedBytes(committed)
            .commitLimitBytes(single(reading(memory, MemoryCounter.COMMIT_LIMIT)))
            .pageFaults(pageFaults)
            .build();
    // The physical size alone says nothing about the node's memory now.
    if (read.equals(NodeMemory.builder().totalBytes(total).build())) {
      require(NodePart.MEMORY, failures, reading(memory, MemoryCounter.AVAILABLE_BYTES));
      missing.putAll(failures);
      return null;
    }
    return read;
  }
}
