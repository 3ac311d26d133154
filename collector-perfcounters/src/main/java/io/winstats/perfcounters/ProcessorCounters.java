package io.winstats.perfcounters;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The counters of one logical processor ({@code \Processor Information(*)}, Windows only) beside its CPU time by mode,
 * the figures windows_exporter v0.31.8's cpu collector serves per core ({@code
 * internal/collector/cpu/cpu.go:205-362@v0.31.8}). Each is null where the source does not have it: a counter the host
 * lacks, or one a counter log cannot carry (the {@code PERF_AVERAGE_BULK} numerators and bases: a log holds only each
 * interval's ratio).
 *
 * @param core the instance, {@code "group,index"}
 * @param c1TimeNanos time in the C1 low-power idle state, from {@code % C1 Time}
 * @param c2TimeNanos the same for C2 ({@code % C2 Time})
 * @param c3TimeNanos the same for C3 ({@code % C3 Time})
 * @param interrupts hardware interrupts received and serviced, from {@code Interrupts/sec}
 * @param dpcsQueued deferred procedure calls queued, from {@code DPCs Queued/sec}
 * @param clockInterrupts clock tick interrupts, from {@code Clock Interrupts/sec}
 * @param idleBreakEvents wake-ups from idle, from {@code Idle Break Events/sec}
 * @param parkingStatus 1 when the core is parked, 0 when not ({@code Parking Status}, a gauge)
 * @param frequencyMhz the core's frequency in MHz now ({@code Processor Frequency}, a gauge)
 * @param performance {@code % Processor Performance}'s FirstValue, the cumulative numerator
 * @param mperfTicks the MPERF ticks: {@code % Processor Performance}'s 32-bit SecondValue added up since the source
 *     opened
 * @param utility {@code % Processor Utility}'s FirstValue, the cumulative numerator of Task Manager's CPU %
 * @param rtcTicks the RTC ticks: {@code % Processor Utility}'s 32-bit SecondValue added up since the source
 *     opened
 * @param privilegedUtility {@code % Privileged Utility}'s FirstValue, the kernel-mode share of the utility
 */
@RecordBuilder
public record ProcessorCounters(
    String core,
    @Nullable Long c1TimeNanos,
    @Nullable Long c2TimeNanos,
    @Nullable Long c3TimeNanos,
    @Nullable Long interrupts,
    @Nullable Long dpcsQueued,
    @Nullable Long clockInterrupts,
    @Nullable Long idleBreakEvents,
    @Nullable Long parkingStatus,
    @Nullable Long frequencyMhz,
    @Nullable Long performance,
    @Nullable Long mperfTicks,
    @Nullable Long utility,
    @Nullable Long rtcTicks,
    @Nullable Long privilegedUtility) {
  public ProcessorCounters {
    Objects.requireNonNull(core, "core");
  }

  /** A builder for {@code core} with every figure absent; a source sets each by name. */
  public static ProcessorCountersBuilder builder(String core) {
    return ProcessorCountersBuilder.builder().core(core);
  }
}
