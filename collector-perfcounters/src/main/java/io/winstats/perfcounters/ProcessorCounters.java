package io.winstats.perfcounters;

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
  public static Builder builder(String core) {
    return new Builder(core);
  }

  /** Names each figure of a {@link ProcessorCounters}; not thread-safe. */
  public static final class Builder {
    private final String core;
    private @Nullable Long c1TimeNanos;
    private @Nullable Long c2TimeNanos;
    private @Nullable Long c3TimeNanos;
    private @Nullable Long interrupts;
    private @Nullable Long dpcsQueued;
    private @Nullable Long clockInterrupts;
    private @Nullable Long idleBreakEvents;
    private @Nullable Long parkingStatus;
    private @Nullable Long frequencyMhz;
    private @Nullable Long performance;
    private @Nullable Long mperfTicks;
    private @Nullable Long utility;
    private @Nullable Long rtcTicks;
    private @Nullable Long privilegedUtility;

    private Builder(String core) {
      this.core = Objects.requireNonNull(core, "core");
    }

    public Builder c1TimeNanos(long value) {
      this.c1TimeNanos = value;
      return this;
    }

    public Builder c2TimeNanos(long value) {
      this.c2TimeNanos = value;
      return this;
    }

    public Builder c3TimeNanos(long value) {
      this.c3TimeNanos = value;
      return this;
    }

    public Builder interrupts(long value) {
      this.interrupts = value;
      return this;
    }

    public Builder dpcsQueued(long value) {
      this.dpcsQueued = value;
      return this;
    }

    public Builder clockInterrupts(long value) {
      this.clockInterrupts = value;
      return this;
    }

    public Builder idleBreakEvents(long value) {
      this.idleBreakEvents = value;
      return this;
    }

    public Builder parkingStatus(long value) {
      this.parkingStatus = value;
      return this;
    }

    public Builder frequencyMhz(long value) {
      this.frequencyMhz = value;
      return this;
    }

    public Builder performance(long value) {
      this.performance = value;
      return this;
    }

    public Builder mperfTicks(long value) {
      this.mperfTicks = value;
      return this;
    }

    public Builder utility(long value) {
      this.utility = value;
      return this;
    }

    public Builder rtcTicks(long value) {
      this.rtcTicks = value;
      return this;
    }

    public Builder privilegedUtility(long value) {
      this.privilegedUtility = value;
      return this;
    }

    public ProcessorCounters build() {
      return new ProcessorCounters(
          core,
          c1TimeNanos,
          c2TimeNanos,
          c3TimeNanos,
          interrupts,
          dpcsQueued,
          clockInterrupts,
          idleBreakEvents,
          parkingStatus,
          frequencyMhz,
          performance,
          mperfTicks,
          utility,
          rtcTicks,
          privilegedUtility);
    }
  }
}
