package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.fill;
import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.require;
import static io.winstats.perfcounters.pdh.PdhReadings.single;

import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeMemoryBuilder;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.binding.MemoryBinding;
import io.winstats.perfcounters.binding.MemoryBinding.MemoryCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.ProcessCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Memory} as {@link MemoryBinding#MEMORY} binds it, plus the special cases: the physical size from {@code
 * GlobalMemoryStatusEx}, the working set as the {@link WorkingSetDefinition} chosen ({@code \Process(_Total)\Working
 * Set - Private} for the kubelet's), and usage = committed bytes, as the kubelet reports it. Confined to the sampling
 * thread.
 */
final class PdhMemory {
  private final PdhLibrary lib;
  private final WorkingSetDefinition workingSet;
  private final CumulativeCounters<String> counts = new CumulativeCounters<>();

  PdhMemory(PdhLibrary lib, WorkingSetDefinition workingSet) {
    this.lib = lib;
    this.workingSet = workingSet;
  }

  /**
   * Every {@code \Memory} counter, and {@code \Process(_Total)\Working Set - Private} only for the kubelet's working
   * set: the physical one is total − {@code Available Bytes}, and the {@code Process} query is the expensive one (OSHI
   * measured 30–50 ms for a process list through PDH, oshi#1001), so it is not opened for nothing.
   */
  static List<PerfCounter> counters(WorkingSetDefinition workingSet) {
    return Stream.<Set<? extends PerfCounter>>of(
            EnumSet.allOf(MemoryCounter.class),
            workingSet == WorkingSetDefinition.KUBELET ? EnumSet.allOf(ProcessCounter.class) : Set.of())
        .<PerfCounter>flatMap(Set::stream)
        .toList();
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
    Long availPhys = null;
    Long totalVirtual = null;
    try {
      GlobalMemoryStatus status = lib.globalMemoryStatus();
      total = status.totalPhysBytes();
      availPhys = status.availPhysBytes();
      totalVirtual = status.totalVirtualBytes();
    } catch (PdhException e) {
      failures.putIfAbsent(NodePart.MEMORY, e.call() + " " + e.statusName());
    }
    Long privateBytes = null;
    if (workingSet == WorkingSetDefinition.KUBELET) {
      Reading privateWorkingSet = reading(process, ProcessCounter.WORKING_SET_PRIVATE);
      privateBytes = single(privateWorkingSet);
      if (privateBytes == null) {
        failures.putIfAbsent(NodePart.MEMORY, PdhReadings.lacking(privateWorkingSet));
      }
    }
    NodeMemoryBuilder builder = NodeMemory.builder();
    fill(builder, MemoryBinding.MEMORY, memory, null, counts, new HashSet<>());
    NodeMemory counters = builder.build();
    NodeMemory read =
        builder
            .totalBytes(total)
            .physicalFreeBytes(availPhys)
            .processMemoryLimitBytes(totalVirtual)
            .workingSetBytes(workingSet.workingSetBytes(privateBytes, total, counters.availableBytes()))
            .usageBytes(counters.committedBytes())
            .build();
    // The physical size and the address space alone say nothing of the counters' figures now.
    NodeMemory statusOnly =
        NodeMemory.builder()
            .totalBytes(total)
            .physicalFreeBytes(availPhys)
            .processMemoryLimitBytes(totalVirtual)
            .build();
    if (read.equals(statusOnly)) {
      require(NodePart.MEMORY, failures, reading(memory, MemoryCounter.AVAILABLE_BYTES));
      missing.putAll(failures);
      return null;
    }
    return read;
  }
}
