package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.ProcessorCounters;
import io.winstats.perfcounters.ProcessorCountersBuilder;
import io.winstats.perfcounters.counters.ProcessorInformationCounter;
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
