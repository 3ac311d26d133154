package io.winstats.perfcounters.pdh;

import static io.winstats.perfcounters.pdh.PdhReadings.reading;
import static io.winstats.perfcounters.pdh.PdhReadings.require;
import static io.winstats.perfcounters.pdh.PdhReadings.ticksToNanos;
import static io.winstats.perfcounters.pdh.PdhReadings.unsigned;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NodePart;
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
      if (InstanceNames.isTotal(volume) || volume.startsWith("HarddiskVolume")) {
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
      out.add(new FilesystemUsage(volume, volume + "\\", fsType, capacity, available, capacity - available, null, null));
    }
    return out;
  }

  /** Cumulative I/O per volume; {@code ioTimeNanos} accumulates from {@code % Idle Time} (see {@link BusyTime}). */
  @Nullable List<DiskIoCounters> disks(Collected c, Map<NodePart, String> missing) {
    Reading readBytes = reading(c, LogicalDiskCounter.DISK_READ_BYTES);
    Reading writeBytes = reading(c, LogicalDiskCounter.DISK_WRITE_BYTES);
    Reading reads = reading(c, LogicalDiskCounter.DISK_READS);
    Reading writes = reading(c, LogicalDiskCounter.DISK_WRITES);
    Reading readTime = reading(c, LogicalDiskCounter.AVG_DISK_SEC_PER_READ);
    Reading writeTime = reading(c, LogicalDiskCounter.AVG_DISK_SEC_PER_WRITE);
    Reading idle = reading(c, LogicalDiskCounter.IDLE_TIME);
    Reading queue = reading(c, LogicalDiskCounter.CURRENT_DISK_QUEUE_LENGTH);
    if (!require(NodePart.DISK_IO, missing, readBytes, writeBytes, reads, writes, readTime, writeTime, idle, queue)) {
      return null;
    }
    for (Reading r : List.of(readTime, writeTime)) {
      if (r.timeBase() <= 0) {
        missing.put(NodePart.DISK_IO, r.path() + " NO_TIME_BASE");
        return null;
      }
    }
    List<DiskIoCounters> out = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    for (String volume : readBytes.items().keySet()) {
      if (InstanceNames.isTotal(volume)) {
        continue;
      }
      Reading[] rs = {readBytes, writeBytes, reads, writes, readTime, writeTime, idle, queue};
      RawCounter[] raw = new RawCounter[rs.length];
      boolean complete = true;
      for (int i = 0; i < rs.length; i++) {
        RawCounter item = rs[i].items().get(volume);
        if (item == null) {
          complete = false;
        } else {
          raw[i] = item;
        }
      }
      if (!complete) {
        continue;
      }
      long[] cumulative = new long[6];
      for (int i = 0; i < 6; i++) {
        String key = i + "|" + volume;
        keys.add(key);
        cumulative[i] = counts.update(key, raw[i].firstValue(), PerfCounterType.is64Bit(rs[i].type()));
      }
      long ioNanos = busy.computeIfAbsent(volume, v -> new BusyTime()).update(raw[6], idle.type(), idle.timeBase());
      out.add(
          new DiskIoCounters(
              volume,
              cumulative[0],
              cumulative[1],
              cumulative[2],
              cumulative[3],
              ticksToNanos(cumulative[4], readTime.timeBase()),
              ticksToNanos(cumulative[5], writeTime.timeBase()),
              ioNanos,
              unsigned(queue, raw[7].firstValue())));
    }
    counts.retainOnly(keys);
    busy.keySet().retainAll(out.stream().map(DiskIoCounters::device).toList());
    return out;
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
