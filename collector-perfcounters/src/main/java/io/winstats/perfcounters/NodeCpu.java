package io.winstats.perfcounters;

import java.util.Comparator;
import java.util.List;

/**
 * Node CPU time.
 *
 * @param logicalCores logical processors online (all processor groups on Windows)
 * @param usageCoreNanos cumulative busy time over all cores in nanoseconds: every mode but idle and iowait on Linux,
 *     user + privileged on Windows
 * @param cores per-core cumulative times, sorted by core name
 * @param processors per-core counters beside the times (Windows only; empty where the source has none), sorted by core
 *     name
 */
public record NodeCpu(
    int logicalCores, long usageCoreNanos, List<CoreCpuTime> cores, List<ProcessorCounters> processors) {
  /** CPU time without per-core counters (a Linux node, or a log without them). */
  public NodeCpu(int logicalCores, long usageCoreNanos, List<CoreCpuTime> cores) {
    this(logicalCores, usageCoreNanos, cores, List.of());
  }

  public NodeCpu {
    if (logicalCores <= 0) {
      throw new IllegalArgumentException("logicalCores must be positive: " + logicalCores);
    }
    if (usageCoreNanos < 0) {
      throw new IllegalArgumentException("usageCoreNanos must not be negative: " + usageCoreNanos);
    }
    cores = cores.stream().sorted(Comparator.comparing(CoreCpuTime::core, NaturalOrder.INSTANCE)).toList();
    processors =
        processors.stream()
            .sorted(Comparator.comparing(ProcessorCounters::core, NaturalOrder.INSTANCE))
            .toList();
  }
}
