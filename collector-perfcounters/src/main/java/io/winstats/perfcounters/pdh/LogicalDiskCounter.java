package io.winstats.perfcounters.pdh;

/**
 * Per-volume counters from {@code \LogicalDisk(*)}. Instances are drive letters ({@code C:}), {@code HarddiskVolumeN}
 * for volumes without a letter, and {@code _Total}. Free-space figures lag by 10-15 minutes (Windows updates them
 * rarely).
 */
enum LogicalDiskCounter implements CounterDef {
  /** Free MB (32-bit). */
  FREE_MEGABYTES("Free Megabytes", CounterKind.RAW),
  /** FirstValue free MB, SecondValue total MB. */
  PERCENT_FREE_SPACE("% Free Space", CounterKind.RAW_FRACTION),
  DISK_READ_BYTES("Disk Read Bytes/sec", CounterKind.BULK_COUNT),
  DISK_WRITE_BYTES("Disk Write Bytes/sec", CounterKind.BULK_COUNT),
  DISK_READS("Disk Reads/sec", CounterKind.COUNT),
  DISK_WRITES("Disk Writes/sec", CounterKind.COUNT),
  /** FirstValue idle 100 ns, SecondValue the 100 ns base. */
  IDLE_TIME("% Idle Time", CounterKind.PRECISION_TIMER_100NS),
  CURRENT_DISK_QUEUE_LENGTH("Current Disk Queue Length", CounterKind.RAW),
  /** FirstValue cumulative read time in ticks of the time base, SecondValue reads. */
  AVG_DISK_SEC_PER_READ("Avg. Disk sec/Read", CounterKind.AVERAGE_TIMER),
  /** FirstValue cumulative write time in ticks of the time base, SecondValue writes. */
  AVG_DISK_SEC_PER_WRITE("Avg. Disk sec/Write", CounterKind.AVERAGE_TIMER);

  static final String OBJECT = "LogicalDisk";

  private final String counter;
  private final CounterKind kind;

  LogicalDiskCounter(String counter, CounterKind kind) {
    this.counter = counter;
    this.kind = kind;
  }

  @Override
  public String object() {
    return OBJECT;
  }

  @Override
  public InstanceFilter instances() {
    return InstanceFilter.ALL;
  }

  @Override
  public String counter() {
    return counter;
  }

  @Override
  public CounterKind kind() {
    return kind;
  }
}
