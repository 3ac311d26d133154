package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.PhysicalDiskCountersBuilder;
import io.winstats.perfcounters.counters.CounterSpec;
import io.winstats.perfcounters.counters.FormattedUnit;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.RawKind;
import java.util.List;

/**
 * {@code \PhysicalDisk(*)}'s counters bound to {@link PhysicalDiskCounters}, one per disk; every bound counter is
 * needed. windows_exporter v0.31.8 reads the same twelve counters ({@code
 * internal/collector/physical_disk/types.go:20-35@v0.31.8}).
 *
 * <p>The PDH reader keeps the special cases: the three timers as the 64-bit FirstValue in 100 ns, as windows_exporter's
 * PDH collector reads a {@code PERF_PRECISION_100NS_TIMER} ({@code internal/pdh/collector.go:421-424@v0.31.8}), and
 * the three {@code Avg. Disk sec/…} totals from their FirstValue, which a counter log does not hold (it holds the
 * average over each interval), so they are in no row here.
 */
public final class PhysicalDiskBinding {
  /**
   * Per-disk counters from {@code \PhysicalDisk(*)}, the twelve windows_exporter v0.31.8's physical_disk collector
   * reads ({@code internal/collector/physical_disk/types.go:20-35@v0.31.8}). Instances are the disk number, followed by
   * the drive letters of its volumes when it has any ({@code 0 C: D:}, {@code 1}), and {@code _Total}.
   */
  public enum PhysicalDiskCounter implements PerfCounter {
    CURRENT_DISK_QUEUE_LENGTH("Current Disk Queue Length", RawKind.RAW, FormattedUnit.COUNT),
    DISK_READ_BYTES("Disk Read Bytes/sec", RawKind.BULK_COUNT, FormattedUnit.PER_SECOND),
    DISK_READS("Disk Reads/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    DISK_WRITE_BYTES("Disk Write Bytes/sec", RawKind.BULK_COUNT, FormattedUnit.PER_SECOND),
    DISK_WRITES("Disk Writes/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** FirstValue read-busy 100 ns, SecondValue the 100 ns base. */
    DISK_READ_TIME("% Disk Read Time", RawKind.PRECISION_TIMER_100NS, FormattedUnit.PERCENT_OF_INTERVAL),
    /** FirstValue write-busy 100 ns, SecondValue the 100 ns base. */
    DISK_WRITE_TIME("% Disk Write Time", RawKind.PRECISION_TIMER_100NS, FormattedUnit.PERCENT_OF_INTERVAL),
    /** FirstValue idle 100 ns, SecondValue the 100 ns base. */
    IDLE_TIME("% Idle Time", RawKind.PRECISION_TIMER_100NS, FormattedUnit.PERCENT_OF_INTERVAL),
    SPLIT_IO("Split IO/Sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** FirstValue cumulative read time in ticks of the time base, SecondValue reads; formatted, seconds per read. */
    AVG_DISK_SEC_PER_READ("Avg. Disk sec/Read", RawKind.AVERAGE_TIMER, FormattedUnit.SECONDS),
    /** FirstValue cumulative write time in ticks of the time base, SecondValue writes; formatted, seconds per write. */
    AVG_DISK_SEC_PER_WRITE("Avg. Disk sec/Write", RawKind.AVERAGE_TIMER, FormattedUnit.SECONDS),
    /** FirstValue cumulative transfer time in ticks of the time base, SecondValue transfers. */
    AVG_DISK_SEC_PER_TRANSFER("Avg. Disk sec/Transfer", RawKind.AVERAGE_TIMER, FormattedUnit.SECONDS);

    public static final String OBJECT = "PhysicalDisk";

    private final CounterSpec spec;

    PhysicalDiskCounter(String counter, RawKind raw, FormattedUnit formatted) {
      this.spec = new CounterSpec(OBJECT, InstanceFilter.ALL, counter, raw, formatted);
    }

    @Override
    public CounterSpec spec() {
      return spec;
    }
  }

  /** The disk counters, as logs hold them. */
  public static final Binding<PhysicalDiskCounter, PhysicalDiskCounters, PhysicalDiskCountersBuilder> DISK =
      new Binding<>(List.of(PhysicalDiskCounter.OBJECT), List.of(
          Figure.gauge(
                  PhysicalDiskCounter.CURRENT_DISK_QUEUE_LENGTH,
                  PhysicalDiskCounters::queueLength,
                  PhysicalDiskCountersBuilder::queueLength)
              .asNeeded(),
          Figure.cumulative(
                  PhysicalDiskCounter.DISK_READ_BYTES,
                  PhysicalDiskCounters::readBytes,
                  PhysicalDiskCountersBuilder::readBytes)
              .asNeeded(),
          Figure.cumulative(
                  PhysicalDiskCounter.DISK_READS, PhysicalDiskCounters::reads, PhysicalDiskCountersBuilder::reads)
              .asNeeded(),
          Figure.cumulative(
                  PhysicalDiskCounter.DISK_WRITE_BYTES,
                  PhysicalDiskCounters::writtenBytes,
                  PhysicalDiskCountersBuilder::writtenBytes)
              .asNeeded(),
          Figure.cumulative(
                  PhysicalDiskCounter.DISK_WRITES, PhysicalDiskCounters::writes, PhysicalDiskCountersBuilder::writes)
              .asNeeded(),
          Figure.timer(
                  PhysicalDiskCounter.DISK_READ_TIME,
                  PhysicalDiskCounters::readTimeNanos,
                  PhysicalDiskCountersBuilder::readTimeNanos)
              .asNeeded(),
          Figure.timer(
                  PhysicalDiskCounter.DISK_WRITE_TIME,
                  PhysicalDiskCounters::writeTimeNanos,
                  PhysicalDiskCountersBuilder::writeTimeNanos)
              .asNeeded(),
          Figure.timer(
                  PhysicalDiskCounter.IDLE_TIME,
                  PhysicalDiskCounters::idleTimeNanos,
                  PhysicalDiskCountersBuilder::idleTimeNanos)
              .asNeeded(),
          Figure.cumulative(
                  PhysicalDiskCounter.SPLIT_IO, PhysicalDiskCounters::splitIos, PhysicalDiskCountersBuilder::splitIos)
              .asNeeded()));

  private PhysicalDiskBinding() {}
}
