package io.winstats.perfcounters.counters;

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
