package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.counters.LogicalDiskCounter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * {@code \LogicalDisk(*)} in a counter log as volume space ({@link FilesystemUsage}) and disk I/O ({@link
 * DiskIoCounters}): the columns {@link CounterLogIntegrator} integrates and those {@link CounterLogRecorder} writes.
 * Volumes are recorded by mount point and disks by device, both as {@code LogicalDisk} instances; the volume size is
 * derived from {@code Free Megabytes} and {@code % Free Space}.
 */
final class ReplayLogicalDisk {
  private static final double NANOS_PER_SECOND = 1e9;
  private static final double BYTES_PER_MEGABYTE = 1024d * 1024d;

  /** The file system type a Windows counter log does not record. */
  private static final String UNKNOWN_FS_TYPE = "unknown";

  /** The LogicalDisk counters a volume's space needs. */
  private static final Set<LogicalDiskCounter> VOLUME_SPACE =
      EnumSet.of(LogicalDiskCounter.FREE_MEGABYTES, LogicalDiskCounter.PERCENT_FREE_SPACE);

  /** The LogicalDisk counters a disk's I/O needs, in declaration (and recording) order. */
  private static final Set<LogicalDiskCounter> DISK_IO =
      EnumSet.of(
          LogicalDiskCounter.DISK_READ_BYTES,
          LogicalDiskCounter.DISK_WRITE_BYTES,
          LogicalDiskCounter.DISK_READS,
          LogicalDiskCounter.DISK_WRITES,
          LogicalDiskCounter.DISK_READ_TIME,
          LogicalDiskCounter.DISK_WRITE_TIME,
          LogicalDiskCounter.IDLE_TIME,
          LogicalDiskCounter.CURRENT_DISK_QUEUE_LENGTH);

  private final List<LogHeader.InstanceColumns<LogicalDiskCounter>> volumes;
  private final List<LogHeader.InstanceColumns<LogicalDiskCounter>> disks;

  private ReplayLogicalDisk(
      List<LogHeader.InstanceColumns<LogicalDiskCounter>> volumes,
      List<LogHeader.InstanceColumns<LogicalDiskCounter>> disks) {
    this.volumes = volumes;
    this.disks = disks;
  }

  // ---------------------------------------------------------------- integration

  /** The volumes and disks the header offers in full; a part with none is put in {@code unavailable} with why. */
  static ReplayLogicalDisk plan(LogHeader header, Map<NodePart, String> unavailable) {
    return new ReplayLogicalDisk(
        plan(header, VOLUME_SPACE, NodePart.FILESYSTEM, unavailable),
        plan(header, DISK_IO, NodePart.DISK_IO, unavailable));
  }

  private static List<LogHeader.InstanceColumns<LogicalDiskCounter>> plan(
      LogHeader header, Set<LogicalDiskCounter> needed, NodePart part, Map<NodePart, String> unavailable) {
    String object = LogicalDiskCounter.OBJECT;
    Set<String> instances = new LinkedHashSet<>(header.instances(object));
    instances.remove("_Total");
    if (instances.isEmpty()) {
      unavailable.put(part, "the log has no LogicalDisk(*) counters");
      return List.of();
    }
    List<LogHeader.InstanceColumns<LogicalDiskCounter>> plans =
        header.complete(object, instances, LogicalDiskCounter.class, needed);
    if (plans.isEmpty()) {
      unavailable.put(part, header.incomplete(object, instances, LogicalDiskCounter.class, needed));
    }
    return plans;
  }

  boolean hasVolumes() {
    return !volumes.isEmpty();
  }

  boolean hasDisks() {
    return !disks.isEmpty();
  }

  List<FilesystemUsage> filesystems(LoggedRow row) {
    List<FilesystemUsage> result = new ArrayList<>();
    for (LogHeader.InstanceColumns<LogicalDiskCounter> volume : volumes) {
      double freeBytes = row.gaugeValue(volume.column(LogicalDiskCounter.FREE_MEGABYTES)) * BYTES_PER_MEGABYTE;
      double percentFree = row.gaugeValue(volume.column(LogicalDiskCounter.PERCENT_FREE_SPACE));
      if (percentFree <= 0 || percentFree > 100) {
        throw new LoggedRow.BlankCell(
            "LogicalDisk(" + volume.instance() + ")\\% Free Space is " + percentFree + " in row " + row.index()
                + ", so the volume size cannot be derived");
      }
      long capacity = Math.round(freeBytes / (percentFree / 100));
      long available = Math.round(freeBytes);
      result.add(
          new FilesystemUsage(
              volume.instance(),
              volume.instance(),
              UNKNOWN_FS_TYPE,
              capacity,
              Math.min(available, capacity),
              Math.max(0, capacity - available),
              null,
              null));
    }
    return result;
  }

  List<DiskIoCounters> diskIo(LoggedRow row) {
    List<DiskIoCounters> result = new ArrayList<>();
    for (LogHeader.InstanceColumns<LogicalDiskCounter> disk : disks) {
      result.add(
          new DiskIoCounters(
              disk.instance(),
              row.count(disk.column(LogicalDiskCounter.DISK_READ_BYTES)),
              row.count(disk.column(LogicalDiskCounter.DISK_WRITE_BYTES)),
              row.count(disk.column(LogicalDiskCounter.DISK_READS)),
              row.count(disk.column(LogicalDiskCounter.DISK_WRITES)),
              Math.round(row.rate(disk.column(LogicalDiskCounter.DISK_READ_TIME)) / 100 * NANOS_PER_SECOND),
              Math.round(row.rate(disk.column(LogicalDiskCounter.DISK_WRITE_TIME)) / 100 * NANOS_PER_SECOND),
              Math.round(row.complement(disk.column(LogicalDiskCounter.IDLE_TIME)) / 100 * NANOS_PER_SECOND),
              row.gauge(disk.column(LogicalDiskCounter.CURRENT_DISK_QUEUE_LENGTH))));
    }
    return result;
  }

  // ---------------------------------------------------------------- recording

  /** Adds {@code Free Megabytes} and {@code % Free Space} of the volume at {@code mountpoint}. */
  static void recordVolume(String mountpoint, RecordedColumn.Columns out) {
    String object = LogicalDiskCounter.OBJECT;
    out.add(object, mountpoint, LogicalDiskCounter.FREE_MEGABYTES, (p, c, dt) -> {
      FilesystemUsage f = filesystem(c, mountpoint);
      return f == null ? null : PdhCsv.decimal(f.availableBytes() / BYTES_PER_MEGABYTE);
    });
    out.add(object, mountpoint, LogicalDiskCounter.PERCENT_FREE_SPACE, (p, c, dt) -> {
      FilesystemUsage f = filesystem(c, mountpoint);
      return f == null || f.capacityBytes() == 0 ? null : PdhCsv.decimal(100.0 * f.availableBytes() / f.capacityBytes());
    });
  }

  /** Adds the {@link #DISK_IO} counters of {@code device}, rates per second and times as percentages. */
  static void recordDisk(String device, RecordedColumn.Columns out) {
    for (LogicalDiskCounter counter : DISK_IO) {
      ToLongFunction<DiskIoCounters> field =
          switch (counter) {
            case DISK_READ_BYTES -> DiskIoCounters::readBytes;
            case DISK_WRITE_BYTES -> DiskIoCounters::writtenBytes;
            case DISK_READS -> DiskIoCounters::reads;
            case DISK_WRITES -> DiskIoCounters::writes;
            case DISK_READ_TIME -> DiskIoCounters::readTimeNanos;
            case DISK_WRITE_TIME -> DiskIoCounters::writeTimeNanos;
            case IDLE_TIME -> DiskIoCounters::ioTimeNanos;
            case CURRENT_DISK_QUEUE_LENGTH -> DiskIoCounters::queueLength;
            case FREE_MEGABYTES, PERCENT_FREE_SPACE, AVG_DISK_SEC_PER_READ, AVG_DISK_SEC_PER_WRITE ->
                throw new IllegalStateException("not a recorded I/O counter");
          };
      out.add(LogicalDiskCounter.OBJECT, device, counter, (p, c, dt) -> {
        DiskIoCounters now = disk(c, device);
        if (now == null) {
          return null;
        }
        if (counter == LogicalDiskCounter.CURRENT_DISK_QUEUE_LENGTH) {
          return Long.toString(now.queueLength());
        }
        DiskIoCounters before = p == null ? null : disk(p, device);
        OptionalDouble rate =
            before == null
                ? OptionalDouble.empty()
                : RecordedColumn.rate(field.applyAsLong(before), field.applyAsLong(now), dt);
        if (rate.isEmpty()) {
          return null;
        }
        double perSecond = rate.getAsDouble();
        return switch (counter.formatted()) {
          case PER_SECOND -> PdhCsv.decimal(perSecond);
          case PERCENT_OF_INTERVAL ->
              PdhCsv.decimal(
                  counter == LogicalDiskCounter.IDLE_TIME
                      ? 100 - perSecond / NANOS_PER_SECOND * 100
                      : perSecond / NANOS_PER_SECOND * 100);
          case PERCENT, BYTES, MEGABYTES, COUNT, SECONDS -> throw new IllegalStateException("gauge handled above");
        };
      });
    }
  }

  private static @Nullable DiskIoCounters disk(NodeSample sample, String device) {
    return sample.disks().stream().filter(d -> d.device().equals(device)).findFirst().orElse(null);
  }

  private static @Nullable FilesystemUsage filesystem(NodeSample sample, String mountpoint) {
    return sample.filesystems().stream().filter(f -> f.mountpoint().equals(mountpoint)).findFirst().orElse(null);
  }
}
