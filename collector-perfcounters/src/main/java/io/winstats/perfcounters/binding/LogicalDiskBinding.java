package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.DiskIoCountersBuilder;
import io.winstats.perfcounters.counters.CounterSpec;
import io.winstats.perfcounters.counters.FormattedUnit;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.RawKind;
import java.util.List;

/**
 * {@code \LogicalDisk(*)}'s I/O counters bound to {@link DiskIoCounters}, one per volume. The eight figures every
 * source has are needed; the four windows_exporter v0.31.8 serves besides ({@code
 * internal/collector/logical_disk/logical_disk.go:409-421,479-491@v0.31.8}: idle time, split I/Os and the two average
 * queues) are optional, so a log without their columns still replays the rest.
 *
 * <p>The readers keep the special cases: live, PDH reads the read and write time as the 64-bit FirstValue of {@code %
 * Disk Read Time} and {@code % Disk Write Time} in 100 ns (as windows_exporter 0.31.8 does; a log carries them as
 * percentages of the interval), the idle time and the two queue integrals as their 64-bit FirstValue in 100 ns, the
 * busy time as elapsed minus {@code % Idle Time} since it first saw the volume, and the three {@code Avg. Disk sec/…}
 * totals from their FirstValue, which a counter log does not hold (it holds the average over each interval), so they
 * are in no row here; the volume space ({@code Free Megabytes}, {@code % Free Space}, which Windows refreshes every
 * 10–15 minutes) is a {@code FilesystemUsage} of its own.
 *
 * <p>{@code % Idle Time} fills two figures, the idle time and the busy time (its complement): a recorded log writes it
 * once, from the first of the two a sample has.
 */
public final class LogicalDiskBinding {
  /**
   * Per-volume counters from {@code \LogicalDisk(*)}: space and I/O, the sixteen windows_exporter v0.31.8's
   * logical_disk collector reads ({@code internal/collector/logical_disk/types.go:20-39@v0.31.8}). Instances are drive
   * letters ({@code C:}), {@code HarddiskVolumeN} for volumes without a letter, and {@code _Total}. Free-space figures
   * lag by 10-15 minutes (Windows updates them rarely).
   */
  public enum LogicalDiskCounter implements PerfCounter {
    /** Free MB (32-bit). */
    FREE_MEGABYTES("Free Megabytes", RawKind.RAW, FormattedUnit.MEGABYTES),
    /** FirstValue free MB, SecondValue total MB. */
    PERCENT_FREE_SPACE("% Free Space", RawKind.RAW_FRACTION, FormattedUnit.PERCENT),
    DISK_READ_BYTES("Disk Read Bytes/sec", RawKind.BULK_COUNT, FormattedUnit.PER_SECOND),
    DISK_WRITE_BYTES("Disk Write Bytes/sec", RawKind.BULK_COUNT, FormattedUnit.PER_SECOND),
    DISK_READS("Disk Reads/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    DISK_WRITES("Disk Writes/sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** FirstValue read-busy 100 ns, SecondValue the 100 ns base. */
    DISK_READ_TIME("% Disk Read Time", RawKind.PRECISION_TIMER_100NS, FormattedUnit.PERCENT_OF_INTERVAL),
    /** FirstValue write-busy 100 ns, SecondValue the 100 ns base. */
    DISK_WRITE_TIME("% Disk Write Time", RawKind.PRECISION_TIMER_100NS, FormattedUnit.PERCENT_OF_INTERVAL),
    /** FirstValue idle 100 ns, SecondValue the 100 ns base. */
    IDLE_TIME("% Idle Time", RawKind.PRECISION_TIMER_100NS, FormattedUnit.PERCENT_OF_INTERVAL),
    CURRENT_DISK_QUEUE_LENGTH("Current Disk Queue Length", RawKind.RAW, FormattedUnit.COUNT),
    /** FirstValue the read queue length summed over time in 100 ns (64-bit); formatted, its mean over the interval. */
    AVG_DISK_READ_QUEUE_LENGTH(
        "Avg. Disk Read Queue Length", RawKind.QUEUE_LENGTH_100NS, FormattedUnit.MEAN_OVER_INTERVAL),
    /** FirstValue the write queue length summed over time in 100 ns (64-bit); formatted, its mean over the interval. */
    AVG_DISK_WRITE_QUEUE_LENGTH(
        "Avg. Disk Write Queue Length", RawKind.QUEUE_LENGTH_100NS, FormattedUnit.MEAN_OVER_INTERVAL),
    SPLIT_IO("Split IO/Sec", RawKind.COUNT, FormattedUnit.PER_SECOND),
    /** FirstValue cumulative read time in ticks of the time base, SecondValue reads; formatted, seconds per read. */
    AVG_DISK_SEC_PER_READ("Avg. Disk sec/Read", RawKind.AVERAGE_TIMER, FormattedUnit.SECONDS),
    /** FirstValue cumulative write time in ticks of the time base, SecondValue writes; formatted, seconds per write. */
    AVG_DISK_SEC_PER_WRITE("Avg. Disk sec/Write", RawKind.AVERAGE_TIMER, FormattedUnit.SECONDS),
    /** FirstValue cumulative transfer time in ticks of the time base, SecondValue transfers. */
    AVG_DISK_SEC_PER_TRANSFER("Avg. Disk sec/Transfer", RawKind.AVERAGE_TIMER, FormattedUnit.SECONDS);

    public static final String OBJECT = "LogicalDisk";

    private final CounterSpec spec;

    LogicalDiskCounter(String counter, RawKind raw, FormattedUnit formatted) {
      this.spec = new CounterSpec(OBJECT, InstanceFilter.ALL, counter, raw, formatted);
    }

    @Override
    public CounterSpec spec() {
      return spec;
    }
  }

  /** The disk I/O counters, as logs hold them. */
  public static final Binding<LogicalDiskCounter, DiskIoCounters, DiskIoCountersBuilder> DISK_IO =
      new Binding<>(List.of(LogicalDiskCounter.OBJECT), List.of(
          Figure.cumulative(
                  LogicalDiskCounter.DISK_READ_BYTES, DiskIoCounters::readBytes, DiskIoCountersBuilder::readBytes)
              .asNeeded(),
          Figure.cumulative(
                  LogicalDiskCounter.DISK_WRITE_BYTES,
                  DiskIoCounters::writtenBytes,
                  DiskIoCountersBuilder::writtenBytes)
              .asNeeded(),
          Figure.cumulative(LogicalDiskCounter.DISK_READS, DiskIoCounters::reads, DiskIoCountersBuilder::reads)
              .asNeeded(),
          Figure.cumulative(LogicalDiskCounter.DISK_WRITES, DiskIoCounters::writes, DiskIoCountersBuilder::writes)
              .asNeeded(),
          Figure.timer(
                  LogicalDiskCounter.DISK_READ_TIME,
                  DiskIoCounters::readTimeNanos,
                  DiskIoCountersBuilder::readTimeNanos)
              .asNeeded(),
          Figure.timer(
                  LogicalDiskCounter.DISK_WRITE_TIME,
                  DiskIoCounters::writeTimeNanos,
                  DiskIoCountersBuilder::writeTimeNanos)
              .asNeeded(),
          Figure.timer(
              LogicalDiskCounter.IDLE_TIME, DiskIoCounters::idleTimeNanos, DiskIoCountersBuilder::idleTimeNanos),
          Figure.inverseTimer(
                  LogicalDiskCounter.IDLE_TIME, DiskIoCounters::ioTimeNanos, DiskIoCountersBuilder::ioTimeNanos)
              .asNeeded(),
          Figure.gauge(
                  LogicalDiskCounter.CURRENT_DISK_QUEUE_LENGTH,
                  DiskIoCounters::queueLength,
                  DiskIoCountersBuilder::queueLength)
              .asNeeded(),
          Figure.cumulative(LogicalDiskCounter.SPLIT_IO, DiskIoCounters::splitIos, DiskIoCountersBuilder::splitIos),
          Figure.timer(
              LogicalDiskCounter.AVG_DISK_READ_QUEUE_LENGTH,
              DiskIoCounters::readQueueNanos,
              DiskIoCountersBuilder::readQueueNanos),
          Figure.timer(
              LogicalDiskCounter.AVG_DISK_WRITE_QUEUE_LENGTH,
              DiskIoCounters::writeQueueNanos,
              DiskIoCountersBuilder::writeQueueNanos)));

  private LogicalDiskBinding() {}

  /**
   * Where a {@code LogicalDisk} instance is mounted, as the PDH source reports it: a volume is named by its letter
   * ({@code C:}) and mounted at its root ({@code C:\}). A log recorded on a Linux node names its volumes by mount point
   * ({@code /}, {@code /var/lib}): those are their own mount point.
   */
  public static String mountpointOf(String instance) {
    return instance.startsWith("/") ? instance : instance + "\\";
  }

  /**
   * The instance a volume is logged under: the name PDH gives it ({@code C:}) where its mount point follows from that
   * name as {@link #mountpointOf} derives it, so that a recorded log names volumes as Windows' own logs do and replays
   * them as the PDH source read them; otherwise (Linux) its mount point.
   */
  public static String loggedInstanceOf(String device, String mountpoint) {
    return mountpointOf(device).equals(mountpoint) ? device : mountpoint;
  }

  /** Volumes without a drive letter ({@code HarddiskVolume3}): the PDH source leaves them out of the node's space. */
  public static boolean isUnlettered(String instance) {
    return instance.startsWith("HarddiskVolume");
  }
}
