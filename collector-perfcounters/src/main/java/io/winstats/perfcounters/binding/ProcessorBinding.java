package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.ProcessorCounters;
import io.winstats.perfcounters.ProcessorCountersBuilder;
import io.winstats.perfcounters.counters.CounterSpec;
import io.winstats.perfcounters.counters.FormattedUnit;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.RawKind;
import java.util.List;
import java.util.Map;

/**
 * The per-core timers of {@code \Processor Information(*)} bound to the CPU modes of a {@link CoreCpuTime} (built as a
 * map of mode to nanoseconds). A log written from a Linux sample folds the /proc/stat modes into the five Windows
 * timers: {@code % User Time} = user + nice, {@code % Privileged Time} = system + irq + softirq + privileged, {@code %
 * Idle Time} = idle + iowait, {@code % Interrupt Time} = irq + interrupt, {@code % DPC Time} = softirq + dpc.
 *
 * <p>The readers keep the special cases: {@code % Processor Time} (busy time, not a mode; per core and {@code _Total}
 * it carries the node's usage through a log), the node usage from user + privileged live, the logical processor count.
 */
public final class ProcessorBinding {
  /**
   * Per-logical-processor CPU time from {@code \Processor Information(*)}. Not the legacy {@code Processor} object,
   * which only sees processor group 0 (64 CPUs) but has the same counters (counter logs may hold either). Instances are
   * {@code "N,M"} plus the aggregates {@code "N,_Total"} and {@code "_Total"}. All five timers are cumulative 100 ns
   * raw and percentages of the interval formatted; privileged time already includes interrupt and DPC time. The
   * counts, gauges and {@code PERF_AVERAGE_BULK} utilities after them are windows_exporter's cpu collector's.
   */
  public enum ProcessorInformationCounter implements PerfCounter {
    /** FirstValue is idle-thread time; the formatted value is busy time. Not a mode of its own. */
    PROCESSOR_TIME("% Processor Time", RawKind.TIMER_100NS_INVERSE),
    USER_TIME("% User Time", RawKind.TIMER_100NS),
    PRIVILEGED_TIME("% Privileged Time", RawKind.TIMER_100NS),
    IDLE_TIME("% Idle Time", RawKind.TIMER_100NS),
    INTERRUPT_TIME("% Interrupt Time", RawKind.TIMER_100NS),
    DPC_TIME("% DPC Time", RawKind.TIMER_100NS),
    // The rest of what windows_exporter v0.31.8's cpu collector reads (internal/collector/cpu/types.go:21-49@v0.31.8).
    C1_TIME("% C1 Time", RawKind.TIMER_100NS),
    C2_TIME("% C2 Time", RawKind.TIMER_100NS),
    C3_TIME("% C3 Time", RawKind.TIMER_100NS),
    INTERRUPTS("Interrupts/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    DPCS_QUEUED("DPCs Queued/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    CLOCK_INTERRUPTS("Clock Interrupts/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    IDLE_BREAK_EVENTS("Idle Break Events/sec", RawKind.BULK_COUNT, FormattedUnit.PER_SECOND),
    PARKING_STATUS("Parking Status", RawKind.RAW, FormattedUnit.COUNT),
    /** In MHz. */
    PROCESSOR_FREQUENCY("Processor Frequency", RawKind.RAW, FormattedUnit.COUNT),
    /** FirstValue: cumulative performance-weighted time; SecondValue: the MPERF ticks, a 32-bit base. */
    PROCESSOR_PERFORMANCE("% Processor Performance", RawKind.AVERAGE_BULK),
    /**
     * FirstValue: cumulative utility; SecondValue: the RTC ticks, a 32-bit base (Task Manager's CPU % is the ratio).
     */
    PROCESSOR_UTILITY("% Processor Utility", RawKind.AVERAGE_BULK),
    /** FirstValue: cumulative utility in kernel mode; SecondValue the same RTC base. */
    PRIVILEGED_UTILITY("% Privileged Utility", RawKind.AVERAGE_BULK);

    public static final String OBJECT = "Processor Information";

    private final CounterSpec spec;

    ProcessorInformationCounter(String counter, RawKind raw) {
      this(counter, raw, FormattedUnit.PERCENT_OF_INTERVAL);
    }

    ProcessorInformationCounter(String counter, RawKind raw, FormattedUnit formatted) {
      this.spec = new CounterSpec(OBJECT, InstanceFilter.ALL, counter, raw, formatted);
    }

    @Override
    public CounterSpec spec() {
      return spec;
    }
  }

  /**
   * Logs hold these counters under {@code Processor Information(*)} (every processor group, instances {@code
   * group,index}) or the legacy {@code Processor(*)} (the first 64 processors, instances {@code index}).
   */
  public static final Binding<ProcessorInformationCounter, CoreCpuTime, Map<CpuMode, Long>> MODES =
      new Binding<>(List.of(ProcessorInformationCounter.OBJECT, "Processor"), List.of(
          Figure.timer(
              ProcessorInformationCounter.USER_TIME,
              (CoreCpuTime c) -> c.nanos(CpuMode.USER) + c.nanos(CpuMode.NICE),
              (Map<CpuMode, Long> modes, long nanos) -> modes.put(CpuMode.USER, nanos)),
          Figure.timer(
              ProcessorInformationCounter.PRIVILEGED_TIME,
              (CoreCpuTime c) -> c.nanos(CpuMode.SYSTEM) + c.nanos(CpuMode.IRQ) + c.nanos(CpuMode.SOFTIRQ)
                  + c.nanos(CpuMode.PRIVILEGED),
              (Map<CpuMode, Long> modes, long nanos) -> modes.put(CpuMode.PRIVILEGED, nanos)),
          Figure.timer(
              ProcessorInformationCounter.IDLE_TIME,
              (CoreCpuTime c) -> c.nanos(CpuMode.IDLE) + c.nanos(CpuMode.IOWAIT),
              (Map<CpuMode, Long> modes, long nanos) -> modes.put(CpuMode.IDLE, nanos)),
          Figure.timer(
              ProcessorInformationCounter.INTERRUPT_TIME,
              (CoreCpuTime c) -> c.nanos(CpuMode.IRQ) + c.nanos(CpuMode.INTERRUPT),
              (Map<CpuMode, Long> modes, long nanos) -> modes.put(CpuMode.INTERRUPT, nanos)),
          Figure.timer(
              ProcessorInformationCounter.DPC_TIME,
              (CoreCpuTime c) -> c.nanos(CpuMode.SOFTIRQ) + c.nanos(CpuMode.DPC),
              (Map<CpuMode, Long> modes, long nanos) -> modes.put(CpuMode.DPC, nanos))));

  /**
   * The counts, gauges and C-state timers of windows_exporter v0.31.8's cpu collector ({@code
   * internal/collector/cpu/types.go:24-37@v0.31.8}) bound to a core's {@link ProcessorCounters}, none needed (a host or
   * log without them still has its CPU time). The {@code PERF_AVERAGE_BULK} utilities are special cases of the PDH
   * reader: a log holds only their ratio per interval.
   */
  public static final Binding<ProcessorInformationCounter, ProcessorCounters, ProcessorCountersBuilder> CORE =
      new Binding<>(List.of(ProcessorInformationCounter.OBJECT, "Processor"), List.of(
          Figure.timer(
              ProcessorInformationCounter.C1_TIME,
              ProcessorCounters::c1TimeNanos,
              ProcessorCountersBuilder::c1TimeNanos),
          Figure.timer(
              ProcessorInformationCounter.C2_TIME,
              ProcessorCounters::c2TimeNanos,
              ProcessorCountersBuilder::c2TimeNanos),
          Figure.timer(
              ProcessorInformationCounter.C3_TIME,
              ProcessorCounters::c3TimeNanos,
              ProcessorCountersBuilder::c3TimeNanos),
          Figure.cumulative(
              ProcessorInformationCounter.INTERRUPTS,
              ProcessorCounters::interrupts,
              ProcessorCountersBuilder::interrupts),
          Figure.cumulative(
              ProcessorInformationCounter.DPCS_QUEUED,
              ProcessorCounters::dpcsQueued,
              ProcessorCountersBuilder::dpcsQueued),
          Figure.cumulative(
              ProcessorInformationCounter.CLOCK_INTERRUPTS,
              ProcessorCounters::clockInterrupts,
              ProcessorCountersBuilder::clockInterrupts),
          Figure.cumulative(
              ProcessorInformationCounter.IDLE_BREAK_EVENTS,
              ProcessorCounters::idleBreakEvents,
              ProcessorCountersBuilder::idleBreakEvents),
          Figure.gauge(
              ProcessorInformationCounter.PARKING_STATUS,
              ProcessorCounters::parkingStatus,
              ProcessorCountersBuilder::parkingStatus),
          Figure.gauge(
              ProcessorInformationCounter.PROCESSOR_FREQUENCY,
              ProcessorCounters::frequencyMhz,
              ProcessorCountersBuilder::frequencyMhz)));

  private ProcessorBinding() {}
}
