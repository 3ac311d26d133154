package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.fill;
import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.require;
import static io.winstats.perfcounters.pdh.PdhReadings.ticksToNanos;
import static io.winstats.perfcounters.pdh.PdhReadings.unsigned;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.DiskIoCountersBuilder;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.binding.LogicalDiskBinding;
import io.winstats.perfcounters.binding.LogicalDiskBinding.LogicalDiskCounter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * {@code \LogicalDisk(*)} as {@link FilesystemUsage} per lettered volume ({@code C:}; {@code _Total} and {@code
 * HarddiskVolumeN} left out) and {@link DiskIoCounters} per volume but {@code _Total}, which windows_exporter v0.31.8
 * leaves out too ({@code internal/pdh/collector.go:380-382@v0.31.8}). Confined to the sampling thread.
 */
final class PdhLogicalDisk {
  /** The {@code Avg. Disk sec/…} average timers whose FirstValue is a volume's total read, write or transfer time. */
  private static final List<LogicalDiskCounter> LATENCY_TOTALS =
      List.of(
          LogicalDiskCounter.AVG_DISK_SEC_PER_READ,
          LogicalDiskCounter.AVG_DISK_SEC_PER_WRITE,
          LogicalDiskCounter.AVG_DISK_SEC_PER_TRANSFER);

  /**
   * Every LogicalDisk counter, the sixteen windows_exporter v0.31.8 reads ({@code
   * internal/collector/logical_disk/types.go:20-39@v0.31.8}).
   */
  static final Set<? extends PerfCounter> COUNTERS = EnumSet.allOf(LogicalDiskCounter.class);

  private static final long BYTES_PER_MB = 1L << 20;

  private final Function<String, String> fsTypeOf;
  private final Logger log;
  private final CumulativeCounters<String> counts = new CumulativeCounters<>();
  private final Map<String, BusyTime> busy = new HashMap<>();
  private final Map<String, String> fsTypes = new HashMap<>();

  /**
   * @param fsTypeOf the filesystem type of a volume such as {@code C:}, asked once per volume
   * @param log where the debug line for a skipped volume goes
   */
  PdhLogicalDisk(Function<String, String> fsTypeOf, Logger log) {
    this.fsTypeOf = fsTypeOf;
    this.log = log;
  }

  /** Capacity and free space from {@code % Free Space} (FirstValue free MiB, SecondValue total MiB). */
  @Nullable List<FilesystemUsage> filesystems(Collected c, Map<NodePart, String> missing) {
    Reading space = reading(c, LogicalDiskCounter.PERCENT_FREE_SPACE);
    if (!require(NodePart.FILESYSTEM, missing, space)) {
      return null;
    }
    List<FilesystemUsage> out = new ArrayList<>();
    for (Map.Entry<String, RawCounter> e : space.items().entrySet()) {
      String volume = e.getKey();
      if (InstanceNames.isTotal(volume) || LogicalDiskBinding.isUnlettered(volume)) {
        continue;
      }
      long freeMb = unsigned(space, e.getValue().firstValue());
      long totalMb = unsigned(space, e.getValue().secondValue());
      if (totalMb <= 0 || freeMb < 0 || freeMb > totalMb) {
        log.debug("event=pdh_volume_skipped volume={} freeMb={} totalMb={}", volume, freeMb, totalMb);
        continue;
      }
      long capacity = Math.multiplyExact(totalMb, BYTES_PER_MB);
      long available = Math.multiplyExact(freeMb, BYTES_PER_MB);
      String fsType = fsTypes.computeIfAbsent(volume, fsTypeOf);
      out.add(
          FilesystemUsage.builder(volume, LogicalDiskBinding.mountpointOf(volume), fsType)
              .capacityBytes(capacity)
              .availableBytes(available)
              .usedBytes(capacity - available)
              .build());
    }
    return out;
  }

  /**
   * Cumulative I/O per volume: the counts and the queue as {@link LogicalDiskBinding#DISK_IO} binds them; the read and
   * write time from the FirstValue of {@code % Disk Read Time} and {@code % Disk Write Time} (64-bit busy time in
   * 100 ns, as windows_exporter's {@code windows_logical_disk_read_seconds_total} multiplies it by 1e-7); {@code
   * ioTimeNanos} from {@code % Idle Time} (see {@link BusyTime}).
   *
   * <p>The optional figures, each left out (null) where PDH does not give it, the volume not: the idle time, the
   * FirstValue of {@code % Idle Time} ({@code PERF_PRECISION_100NS_TIMER}, which windows_exporter's PDH collector
   * scales by 1e-7 s, {@code internal/pdh/collector.go:421-424@v0.31.8}); the two queue integrals, the FirstValue of
   * {@code Avg. Disk Read Queue Length} and {@code Avg. Disk Write Queue Length} ({@code
   * PERF_COUNTER_100NS_QUEUELEN_TYPE}, {@code internal/pdh/const.go:43@v0.31.8}: read as it is, {@code
   * collector.go:425-436}, and multiplied by 1e-7 in {@code logical_disk.go:409-421@v0.31.8}), in 100 ns; {@code Split
   * IO/Sec}'s count, as the binding fills it. The {@code Avg. Disk sec/…} totals are the FirstValue of a {@code
   * PERF_AVERAGE_TIMER}, cumulative ticks of the counter's time base: windows_exporter serves them as FirstValue ×
   * 1e-7 ({@code logical_disk.go:493-512@v0.31.8}), which is the same figure when the time base is 10 MHz, as it is on
   * Windows 10 and later; here the time base PDH reports divides, and the 32-bit value is carried across its 2^32 wrap
   * (429.5 s of I/O time at 10 MHz), where windows_exporter's series drops. A wrap is told only once between two
   * samples: a volume with more than 429.5 s of I/O time in one interval (a queue deeper than 43 for 10 s) loses a
   * multiple of it.
   */
  @Nullable List<DiskIoCounters> disks(Collected c, Map<NodePart, String> missing) {
    List<Reading> readings = new ArrayList<>();
    for (Figure<LogicalDiskCounter, ?, ?> f : LogicalDiskBinding.DISK_IO.figures()) {
      if (f.needed()) {
        readings.add(reading(c, f.counter()));
      }
    }
    if (!require(NodePart.DISK_IO, missing, readings.toArray(Reading[]::new))) {
      return null;
    }
    Reading readTime = reading(c, LogicalDiskCounter.DISK_READ_TIME);
    Reading writeTime = reading(c, LogicalDiskCounter.DISK_WRITE_TIME);
    Reading idle = reading(c, LogicalDiskCounter.IDLE_TIME);
    for (Reading r : List.of(readTime, writeTime, idle)) {
      if (!PerfCounterType.is100Ns(r.type()) && r.timeBase() <= 0) {
        missing.put(NodePart.DISK_IO, r.path() + " NO_TIME_BASE");
        return null;
      }
    }
    Reading readQueue = reading(c, LogicalDiskCounter.AVG_DISK_READ_QUEUE_LENGTH);
    Reading writeQueue = reading(c, LogicalDiskCounter.AVG_DISK_WRITE_QUEUE_LENGTH);
    List<Reading> latencies = LATENCY_TOTALS.stream().map(counter -> reading(c, counter)).toList();
    List<DiskIoCounters> out = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    Set<String> volumes = new HashSet<>();
    for (String volume : readings.get(0).items().keySet()) {
      if (InstanceNames.isTotal(volume)) {
        continue;
      }
      volumes.add(volume);
      keys.add(PdhReadings.key(readTime, volume));
      keys.add(PdhReadings.key(writeTime, volume));
      RawCounter read = readTime.items().get(volume);
      RawCounter write = writeTime.items().get(volume);
      RawCounter idleNow = idle.items().get(volume);
      DiskIoCountersBuilder builder = DiskIoCounters.builder(volume);
      if (read == null || write == null || idleNow == null
          || fill(builder, LogicalDiskBinding.DISK_IO, c, volume, counts, keys) != null) {
        continue;
      }
      long readTicks = counts.update(PdhReadings.key(readTime, volume), read.firstValue(), readTime.type());
      long writeTicks = counts.update(PdhReadings.key(writeTime, volume), write.firstValue(), writeTime.type());
      out.add(
          builder
              .readTimeNanos(timerNanos(readTicks, readTime))
              .writeTimeNanos(timerNanos(writeTicks, writeTime))
              .ioTimeNanos(
                  busy.computeIfAbsent(volume, v -> new BusyTime()).update(idleNow, idle.type(), idle.timeBase()))
              .idleTimeNanos(optionalTimerNanos(idle, volume, keys))
              .readQueueNanos(optionalTimerNanos(readQueue, volume, keys))
              .writeQueueNanos(optionalTimerNanos(writeQueue, volume, keys))
              .readLatencyNanos(latencyNanos(latencies.get(0), volume, keys))
              .writeLatencyNanos(latencyNanos(latencies.get(1), volume, keys))
              .transferLatencyNanos(latencyNanos(latencies.get(2), volume, keys))
              .build());
    }
    counts.retainOnly(keys);
    busy.keySet().retainAll(volumes);
    return out;
  }

  /**
   * A 100 ns timer's or queue integral's FirstValue in nanoseconds (ticks of its time base for another type); null
   * when PDH does not give it.
   */
  private @Nullable Long optionalTimerNanos(Reading r, String volume, Set<String> keys) {
    RawCounter item = r.ok() && (PerfCounterType.is100Ns(r.type()) || r.timeBase() > 0) ? r.items().get(volume) : null;
    if (item == null) {
      return null;
    }
    String key = PdhReadings.key(r, volume);
    keys.add(key);
    return timerNanos(counts.update(key, item.firstValue(), r.type()), r);
  }

  /** An average timer's FirstValue, its total time, in nanoseconds; null when PDH does not give it. */
  private @Nullable Long latencyNanos(Reading r, String volume, Set<String> keys) {
    RawCounter item = r.ok() && r.timeBase() > 0 ? r.items().get(volume) : null;
    if (item == null) {
      return null;
    }
    String key = PdhReadings.key(r, volume);
    keys.add(key);
    return ticksToNanos(counts.update(key, item.firstValue(), r.type()), r.timeBase());
  }

  /** A timer's FirstValue in nanoseconds: 100 ns units for the 100 ns types, else ticks of the counter's time base. */
  private static long timerNanos(long ticks, Reading r) {
    return PerfCounterType.is100Ns(r.type()) ? Math.multiplyExact(ticks, 100L) : ticksToNanos(ticks, r.timeBase());
  }

  /**
   * Busy time of a volume accumulated from {@code % Idle Time} (FirstValue idle, SecondValue the elapsed base): each
   * sample adds elapsed minus idle. It starts at 0 when the source first sees the volume, so it is a counter since
   * then, not since boot; a decrease of either value restarts the baseline without adding.
   */
  static final class BusyTime {
    private @Nullable RawCounter last;
    private long busyNanos;

    long update(RawCounter now, int type, long timeBase) {
      RawCounter prev = last;
      last = now;
      if (prev == null) {
        return busyNanos;
      }
      long elapsed = now.secondValue() - prev.secondValue();
      long idle = now.firstValue() - prev.firstValue();
      if (elapsed < 0 || idle < 0) {
        return busyNanos;
      }
      long busy = Math.max(0, elapsed - idle);
      long nanos = PerfCounterType.is100Ns(type) ? Math.multiplyExact(busy, 100L) : ticksToNanos(busy, timeBase);
      busyNanos = Math.addExact(busyNanos, nanos);
      return busyNanos;
    }
  }
}
