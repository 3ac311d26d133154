package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.require;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.binding.ProcessorBinding;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.ProcessorInformationCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Processor Information(*)} as {@link NodeCpu}: exact cumulative time from raw 100 ns timers (FirstValue × 100
 * ns) per {@code "group,index"} instance, over every processor group. Confined to the sampling thread.
 */
final class PdhProcessorInformation {
  static final Set<? extends PerfCounter> COUNTERS = EnumSet.allOf(ProcessorInformationCounter.class);

  private final Map<String, Long> coreBusy100ns = new HashMap<>();
  private int logicalCores;

  /** {@code GetActiveProcessorCount(ALL_PROCESSOR_GROUPS)}, read once at open; 0 when unknown. */
  void logicalCores(int count) {
    logicalCores = count;
  }

  /**
   * Per core, each timer of {@link ProcessorBinding#MODES} as nanoseconds (FirstValue × 100). {@code % User Time} and
   * {@code % Privileged Time} are required, with a 100 ns type, since the node's usage is their sum; the other modes
   * are read when their type is exactly {@code PERF_100NSEC_TIMER}.
   */
  @Nullable NodeCpu read(Collected c, Map<NodePart, String> missing) {
    Reading user = reading(c, ProcessorInformationCounter.USER_TIME);
    Reading privileged = reading(c, ProcessorInformationCounter.PRIVILEGED_TIME);
    if (!require(NodePart.CPU, missing, user, privileged)) {
      return null;
    }
    for (Reading r : List.of(user, privileged)) {
      if (!PerfCounterType.is100Ns(r.type())) {
        missing.put(NodePart.CPU, r.path() + " UNEXPECTED_TYPE " + PerfCounterType.hex(r.type()));
        return null;
      }
    }
    Map<Figure<ProcessorInformationCounter, CoreCpuTime, Map<CpuMode, Long>>, Reading> modes = new LinkedHashMap<>();
    for (Figure<ProcessorInformationCounter, CoreCpuTime, Map<CpuMode, Long>> f : ProcessorBinding.MODES.figures()) {
      Reading r = reading(c, f.counter());
      boolean required = f.counter() == ProcessorInformationCounter.USER_TIME
          || f.counter() == ProcessorInformationCounter.PRIVILEGED_TIME;
      if (required || (r.ok() && r.type() == PerfCounterType.PERF_100NSEC_TIMER)) {
        modes.put(f, r);
      }
    }
    List<CoreCpuTime> cores = new ArrayList<>();
    for (Map.Entry<String, RawCounter> e : user.items().entrySet()) {
      String core = e.getKey();
      RawCounter p = privileged.items().get(core);
      if (InstanceNames.isTotal(core) || p == null) {
        continue;
      }
      Map<CpuMode, Long> nanosByMode = new EnumMap<>(CpuMode.class);
      modes.forEach(
          (f, r) -> {
            RawCounter v = r.items().get(core);
            if (v != null) {
              f.set().accept(nanosByMode, Math.multiplyExact(v.firstValue(), 100L));
            }
          });
      cores.add(new CoreCpuTime(core, nanosByMode));
      coreBusy100ns.put(core, Math.addExact(e.getValue().firstValue(), p.firstValue()));
    }
    if (cores.isEmpty()) {
      missing.put(NodePart.CPU, user.path() + " NO_PROCESSOR_INSTANCES");
      return null;
    }
    // A core skipped in this sample (bad item status) keeps its last busy time in the node total, so the total never
    // drops because one item was unreadable.
    long busy100 = 0;
    for (long v : coreBusy100ns.values()) {
      busy100 = Math.addExact(busy100, v);
    }
    int logical = logicalCores > 0 ? logicalCores : cores.size();
    return new NodeCpu(logical, Math.multiplyExact(busy100, 100L), cores);
  }
}
