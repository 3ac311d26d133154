package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.counter;

import io.prometheus.metrics.model.snapshots.Labels;
import io.winstats.perfcounters.ProcessorCounters;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * windows_exporter v0.31.8's cpu collector ({@code internal/collector/cpu/cpu.go}) beyond {@code
 * windows_cpu_time_total} and {@code windows_cpu_logical_processor} ({@link WindowsExporterSeries#CPU}): one row per
 * family, in the order it emits them ({@code cpu.go:231-362@v0.31.8}), with its names, types and help verbatim ({@code
 * cpu.go:102-179@v0.31.8}), labelled {@code core} with the {@code \Processor Information(*)} instance ({@code
 * "0,1"}). Times in seconds, as its PDH collector scales a 100 ns timer by 1e-7; the utilities, performance and tick
 * counts as the raw numbers it serves.
 */
final class WindowsCpuTables {
  private static final List<String> CSTATES = List.of("c1", "c2", "c3");

  private WindowsCpuTables() {}

  static final SeriesTable<ProcessorCounters> CORE =
      SeriesTable.<ProcessorCounters>labelled(List.of("core"))
          .write(
              counter(
                  "windows_cpu_cstate_seconds_total", "Time spent in low-power idle state", List.of("core", "state")),
              (f, family, p, labels, at) -> {
                List<@Nullable Long> nanos = Arrays.asList(p.c1TimeNanos(), p.c2TimeNanos(), p.c3TimeNanos());
                for (int i = 0; i < CSTATES.size(); i++) {
                  Long n = nanos.get(i);
                  if (n != null) {
                    f.add(family, n / 1e9, Labels.of("core", p.core(), "state", CSTATES.get(i)), at);
                  }
                }
              })
          .counter(
              "windows_cpu_interrupts_total",
              "Total number of received and serviced hardware interrupts",
              ProcessorCounters::interrupts)
          .counter(
              "windows_cpu_dpcs_total",
              "Total number of received and serviced deferred procedure calls (DPCs)",
              ProcessorCounters::dpcsQueued)
          .counter(
              "windows_cpu_clock_interrupts_total",
              "Total number of received and serviced clock tick interrupts",
              ProcessorCounters::clockInterrupts)
          .counter(
              "windows_cpu_idle_break_events_total",
              "Total number of time processor was woken from idle",
              ProcessorCounters::idleBreakEvents)
          .gauge(
              "windows_cpu_parking_status",
              "Parking Status represents whether a processor is parked or not",
              ProcessorCounters::parkingStatus)
          .gauge("windows_cpu_core_frequency_mhz", "Core frequency in megahertz", ProcessorCounters::frequencyMhz)
          .counter(
              "windows_cpu_processor_performance_total",
              "Processor Performance is the average performance of the processor while it is executing instructions,"
                  + " as a percentage of the nominal performance of the processor. On some processors, Processor"
                  + " Performance may exceed 100%",
              ProcessorCounters::performance)
          .counter(
              "windows_cpu_processor_mperf_total",
              "Processor MPerf is the number of TSC ticks incremented while executing instructions",
              ProcessorCounters::mperfTicks)
          .counter(
              "windows_cpu_processor_rtc_total",
              "Processor RTC represents the number of RTC ticks made since the system booted. It should consistently"
                  + " be 64e6, and can be used to properly derive Processor Utility Rate",
              ProcessorCounters::rtcTicks)
          .counter(
              "windows_cpu_processor_utility_total",
              "Processor Utility represents is the amount of time the core spends executing instructions",
              ProcessorCounters::utility)
          .counter(
              "windows_cpu_processor_privileged_utility_total",
              "Processor Privileged Utility represents is the amount of time the core has spent executing instructions"
                  + " inside the kernel",
              ProcessorCounters::privilegedUtility)
          .build();
}
