package io.winstats.perfcounters.replay;

import java.util.EnumSet;
import java.util.Set;

/** Counters of {@code \LogicalDisk(*)}: volume space and volume I/O. */
enum LogicalDiskCounter implements LoggedCounter {
  FREE_MEGABYTES("Free Megabytes", CounterKind.GAUGE),
  PERCENT_FREE_SPACE("% Free Space", CounterKind.GAUGE),
  READ_BYTES("Disk Read Bytes/sec", CounterKind.PER_SECOND),
  WRITE_BYTES("Disk Write Bytes/sec", CounterKind.PER_SECOND),
  READS("Disk Reads/sec", CounterKind.PER_SECOND),
  WRITES("Disk Writes/sec", CounterKind.PER_SECOND),
  READ_TIME("% Disk Read Time", CounterKind.PERCENT),
  WRITE_TIME("% Disk Write Time", CounterKind.PERCENT),
  IDLE_TIME("% Idle Time", CounterKind.PERCENT),
  QUEUE_LENGTH("Current Disk Queue Length", CounterKind.GAUGE);

  static final String OBJECT = "LogicalDisk";
  static final Set<LogicalDiskCounter> SPACE = EnumSet.of(FREE_MEGABYTES, PERCENT_FREE_SPACE);
  static final Set<LogicalDiskCounter> IO = EnumSet.complementOf(EnumSet.of(FREE_MEGABYTES, PERCENT_FREE_SPACE));

  private final String counterName;
  private final CounterKind kind;

  LogicalDiskCounter(String counterName, CounterKind kind) {
    this.counterName = counterName;
    this.kind = kind;
  }

  @Override
  public String counterName() {
    return counterName;
  }

  @Override
  public CounterKind kind() {
    return kind;
  }
}
