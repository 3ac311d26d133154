package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.PhysicalDiskCountersBuilder;
import io.winstats.perfcounters.counters.PhysicalDiskCounter;
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
