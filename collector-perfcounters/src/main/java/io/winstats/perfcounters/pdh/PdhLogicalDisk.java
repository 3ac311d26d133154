package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.fill;
import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.require;
import static io.winstats.perfcounters.pdh.PdhReadings.ticksToNanos;
import static io.winstats.perfcounters.pdh.PdhReadings.unsigned;
import static io.winstats.perfcounters.pdh.PerfCounterType.is64Bit;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.binding.LogicalDiskBinding;
import io.winstats.perfcounters.counters.LogicalDiskCounter;
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
 * HarddiskVolumeN} left out) and {@link DiskIoCounters} per volume but {@code _Total}. Confined to the sampling thread.
 */
final class PdhLogicalDisk {
  /**
   * Every LogicalDisk counter but {@code % Disk Read Time} and {@code % Disk Write Time}: read and write time come from
   * the {@code Avg. Disk sec} timers, busy time from {@code % Idle Time}.
   */
  static final Set<? extends PerfCounter> COUNTERS =
      EnumSet.complementOf(EnumSet.of(LogicalDiskCounter.DISK_READ_TIME, LogicalDiskCounter.DISK_WRITE_TIME));

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
      out.add(new FilesystemUsage(volume, LogicalDiskBinding.mountpointOf(volume), fsType, capacity, available, capacity - available, null, null));
    }
    return out;
  }

  /**
   * Cumulative I/O per volume: the counts and the queue as {@link LogicalDiskBinding#DISK_IO} binds them; the read and
   * write time from the {@code Avg. Disk sec} timers' FirstValue (cumulative ticks of their time base) in place of
   * {@code % Disk Read Time} and {@code % Disk Write Time}; {@code ioTimeNanos} from {@code % Idle Time} (see {@link
   * BusyTime}).
   */
  @Nullable List<DiskIoCounters> disks(Collected c, Map<NodePart, String> missing) {
    List<Reading> readings = new ArrayList<>();
    for (Figure<LogicalDiskCounter, ?, ?> f : LogicalDiskBinding.DISK_IO.figures()) {
      readings.add(reading(c, pdhCounter(f.counter())));
    }
    if (!require(NodePart.DISK_IO, missing, readings.toArray(Reading[]::new))) {
      return null;
    }
    Reading readTime = reading(c, LogicalDiskCounter.AVG_DISK_SEC_PER_READ);
    Reading writeTime = reading(c, LogicalDiskCounter.AVG_DISK_SEC_PER_WRITE);
    Reading idle = reading(c, LogicalDiskCounter.IDLE_TIME);
    for (Reading r : List.of(readTime, writeTime)) {
      if (r.timeBase() <= 0) {
        missing.put(NodePart.DISK_IO, r.path() + " NO_TIME_BASE");
        return null;
      }
    }
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
      DiskIoCounters.Builder builder = DiskIoCounters.builder(volume);
      if (read == null || write == null || idleNow == null
          || fill(builder, LogicalDiskBinding.DISK_IO, c, volume, counts, keys) != null) {
        continue;
      }
      long readTicks = counts.update(PdhReadings.key(readTime, volume), read.firstValue(), is64Bit(readTime.type()));
      long writeTicks = counts.update(PdhReadings.key(writeTime, volume), write.firstValue(), is64Bit(writeTime.type()));
      out.add(
          builder
              .readTimeNanos(ticksToNanos(readTicks, readTime.timeBase()))
              .writeTimeNanos(ticksToNanos(writeTicks, writeTime.timeBase()))
              .ioTimeNanos(
                  busy.computeIfAbsent(volume, v -> new BusyTime()).update(idleNow, idle.type(), idle.timeBase()))
              .build());
    }
    counts.retainOnly(keys);
    busy.keySet().retainAll(volumes);
    return out;
  }

  /**
   * The counter PDH reads for a figure of {@link LogicalDiskBinding#DISK_IO}: the {@code Avg. Disk sec} timers for the
   * read and write time, whose FirstValue is the cumulative time (the {@code %} timers are not added), else the
   * figure's own counter.
   */
  private static LogicalDiskCounter pdhCounter(LogicalDiskCounter counter) {
    return switch (counter) {
      case DISK_READ_TIME -> LogicalDiskCounter.AVG_DISK_SEC_PER_READ;
      case DISK_WRITE_TIME -> LogicalDiskCounter.AVG_DISK_SEC_PER_WRITE;
      default -> counter;
    };
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
