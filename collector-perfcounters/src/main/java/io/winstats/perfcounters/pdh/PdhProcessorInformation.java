package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.fill;
import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.require;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.ProcessorCounters;
import io.winstats.perfcounters.ProcessorCountersBuilder;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.binding.ProcessorBinding;
import io.winstats.perfcounters.binding.ProcessorBinding.ProcessorInformationCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code \Processor Information(*)} as {@link NodeCpu}: exact cumulative time from raw 100 ns timers (FirstValue × 100
 * ns) per {@code "group,index"} instance, over every processor group; beside it each core's {@link ProcessorCounters},
 * read as windows_exporter v0.31.8's cpu collector reads them. Confined to the sampling thread.
 *
 * <p>windows_exporter reads {@code \Processor Information(*)} raw ({@code internal/collector/cpu/cpu.go:186@v0.31.8})
 * and leaves out every instance ending in {@code _Total} ({@code internal/pdh/collector.go:380-382@v0.31.8}). A 100 ns
 * timer is its FirstValue × 1e-7 s ({@code collector.go:421-424}); any other counter its FirstValue as it is, and the
 * SecondValue where it asks for it ({@code collector.go:425-436}). So the C-state times are FirstValue × 100 ns; the
 * counts and gauges FirstValue (a 32-bit count carried here across its 2^32 wrap, where upstream's series drops); the
 * three {@code PERF_AVERAGE_BULK} utilities their 64-bit FirstValue; the RTC and MPERF ticks the 32-bit SecondValue of
 * {@code % Processor Utility} and {@code % Processor Performance} added up from 0 at the first read, each step {@code
 * (now - last) mod 2^32}, as its {@code utils.Counter} does ({@code cpu.go:215-229@v0.31.8}, {@code
 * internal/utils/counter.go:24-42@v0.31.8}).
 */
final class PdhProcessorInformation {
  static final Set<? extends PerfCounter> COUNTERS = EnumSet.allOf(ProcessorInformationCounter.class);

  private static final long MASK_32 = 0xFFFF_FFFFL;

  private final Map<String, Long> coreBusy100ns = new HashMap<>();
  private final CumulativeCounters<String> counts = new CumulativeCounters<>();
  /** Per core and counter: the last 32-bit SecondValue and the sum of the steps since the first read. */
  private final Map<String, long[]> secondValueTicks = new HashMap<>();
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
    return new NodeCpu(logical, Math.multiplyExact(busy100, 100L), cores, processors(c, cores));
  }

  private List<ProcessorCounters> processors(Collected c, List<CoreCpuTime> cores) {
    Reading c1 = reading(c, ProcessorInformationCounter.C1_TIME);
    Reading c2 = reading(c, ProcessorInformationCounter.C2_TIME);
    Reading c3 = reading(c, ProcessorInformationCounter.C3_TIME);
    Reading performance = reading(c, ProcessorInformationCounter.PROCESSOR_PERFORMANCE);
    Reading utility = reading(c, ProcessorInformationCounter.PROCESSOR_UTILITY);
    Reading privilegedUtility = reading(c, ProcessorInformationCounter.PRIVILEGED_UTILITY);
    Set<String> keys = new HashSet<>();
    Set<String> secondKeys = new HashSet<>();
    List<ProcessorCounters> out = new ArrayList<>();
    for (CoreCpuTime time : cores) {
      String core = time.core();
      ProcessorCountersBuilder b = ProcessorCounters.builder(core);
      fill(b, ProcessorBinding.CORE, c, core, counts, keys);
      timer100ns(c1, core, b::c1TimeNanos);
      timer100ns(c2, core, b::c2TimeNanos);
      timer100ns(c3, core, b::c3TimeNanos);
      RawCounter perf = PdhReadings.item(performance, core);
      if (perf != null) {
        b.performance(PdhReadings.unsigned(performance, perf.firstValue()));
        b.mperfTicks(secondValueTicks(performance, core, perf, secondKeys));
      }
      RawCounter util = PdhReadings.item(utility, core);
      if (util != null) {
        b.utility(PdhReadings.unsigned(utility, util.firstValue()));
        b.rtcTicks(secondValueTicks(utility, core, util, secondKeys));
      }
      RawCounter privileged = PdhReadings.item(privilegedUtility, core);
      if (privileged != null) {
        b.privilegedUtility(PdhReadings.unsigned(privilegedUtility, privileged.firstValue()));
      }
      out.add(b.build());
    }
    counts.retainOnly(keys);
    secondValueTicks.keySet().retainAll(secondKeys);
    return out;
  }

  /** A C-state timer's FirstValue in nanoseconds, when it is a 100 ns timer as documented. */
  private static void timer100ns(Reading r, String core, LongConsumer set) {
    RawCounter item = PdhReadings.item(r, core);
    if (item != null && PerfCounterType.is100Ns(r.type())) {
      set.accept(Math.multiplyExact(item.firstValue(), 100L));
    }
  }

  /** The 32-bit SecondValue's steps added up since this core's first read (0 then), as {@code utils.Counter} does. */
  private long secondValueTicks(Reading r, String core, RawCounter item, Set<String> seen) {
    String key = PdhReadings.key(r, core);
    seen.add(key);
    long now = item.secondValue() & MASK_32;
    long[] state = secondValueTicks.get(key);
    if (state == null) {
      secondValueTicks.put(key, new long[] {now, 0});
      return 0;
    }
    state[1] += (now - state[0]) & MASK_32;
    state[0] = now;
    return state[1];
  }
}
