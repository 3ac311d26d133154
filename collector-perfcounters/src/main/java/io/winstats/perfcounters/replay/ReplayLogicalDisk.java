package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.DiskIoCountersBuilder;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.binding.Binding;
import io.winstats.perfcounters.binding.LogicalDiskBinding;
import io.winstats.perfcounters.binding.LogicalDiskBinding.LogicalDiskCounter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code \LogicalDisk(*)} in a counter log as volume space ({@link FilesystemUsage}) and disk I/O ({@link
 * DiskIoCounters}): the columns {@link CounterLogIntegrator} integrates and those {@link CounterLogRecorder} writes.
 * Disk I/O is what {@link LogicalDiskBinding#DISK_IO} binds; the volume space is the special case kept here, its size
 * derived from {@code Free Megabytes} and {@code % Free Space}. Volumes and disks are both {@code LogicalDisk}
 * instances, named as {@link LogicalDiskBinding#loggedInstanceOf} says: a Windows volume by its letter, as Windows' own
 * logs name it, and replayed with the mount point the PDH source gives it.
 */
final class ReplayLogicalDisk {
  private static final double BYTES_PER_MEGABYTE = 1024d * 1024d;

  /** The file system type a Windows counter log does not record. */
  private static final String UNKNOWN_FS_TYPE = "unknown";

  private static final String OBJECT = LogicalDiskCounter.OBJECT;

  private static final Binding<LogicalDiskCounter, DiskIoCounters, DiskIoCountersBuilder> DISK_IO =
      LogicalDiskBinding.DISK_IO;

  /** The columns of one volume's space. */
  private record VolumeColumns(String volume, int freeMegabytes, int percentFree) {}

  private final List<VolumeColumns> volumes;
  private final List<BoundColumns<LogicalDiskCounter, DiskIoCounters, DiskIoCountersBuilder>> disks;

  private ReplayLogicalDisk(
      List<VolumeColumns> volumes,
      List<BoundColumns<LogicalDiskCounter, DiskIoCounters, DiskIoCountersBuilder>> disks) {
    this.volumes = volumes;
    this.disks = disks;
  }

  // ---------------------------------------------------------------- integration

  /** The volumes and disks the header offers in full; a part with none is put in {@code unavailable} with why. */
  static ReplayLogicalDisk plan(LogHeader header, Map<NodePart, String> unavailable) {
    Set<String> instances = new LinkedHashSet<>(header.instances(OBJECT));
    instances.remove("_Total");
    if (instances.isEmpty()) {
      unavailable.put(NodePart.FILESYSTEM, "the log has no LogicalDisk(*) counters");
      unavailable.put(NodePart.DISK_IO, "the log has no LogicalDisk(*) counters");
      return new ReplayLogicalDisk(List.of(), List.of());
    }
    List<VolumeColumns> volumes = new ArrayList<>();
    for (String instance : instances) {
      Integer free = header.column(OBJECT, instance, LogicalDiskCounter.FREE_MEGABYTES);
      Integer percent = header.column(OBJECT, instance, LogicalDiskCounter.PERCENT_FREE_SPACE);
      if (free != null && percent != null && !LogicalDiskBinding.isUnlettered(instance)) {
        volumes.add(new VolumeColumns(instance, free, percent));
      }
    }
    if (volumes.isEmpty()) {
      String first = instances.iterator().next();
      List<String> lacking = new ArrayList<>();
      for (LogicalDiskCounter c : List.of(LogicalDiskCounter.FREE_MEGABYTES, LogicalDiskCounter.PERCENT_FREE_SPACE)) {
        if (header.column(OBJECT, first, c) == null) {
          lacking.add(c.counter());
        }
      }
      unavailable.put(NodePart.FILESYSTEM, LogHeader.incomplete(OBJECT, first, String.join(", ", lacking)));
    }
    List<BoundColumns<LogicalDiskCounter, DiskIoCounters, DiskIoCountersBuilder>> disks = new ArrayList<>();
    for (String instance : instances) {
      disks.add(BoundColumns.of(header, OBJECT, instance, DISK_IO));
    }
    if (disks.stream().noneMatch(BoundColumns::complete)) {
      unavailable.put(NodePart.DISK_IO, LogHeader.incomplete(OBJECT, disks.get(0).instance(), disks.get(0).lacking()));
    }
    disks.removeIf(d -> !d.complete());
    return new ReplayLogicalDisk(volumes, disks);
  }

  boolean hasVolumes() {
    return !volumes.isEmpty();
  }

  boolean hasDisks() {
    return !disks.isEmpty();
  }

  /** Capacity and free space from {@code Free Megabytes} and {@code % Free Space}, both as the row has them. */
  List<FilesystemUsage> filesystems(LoggedRow row) {
    List<FilesystemUsage> result = new ArrayList<>();
    for (VolumeColumns volume : volumes) {
      double freeBytes = row.gaugeValue(volume.freeMegabytes()) * BYTES_PER_MEGABYTE;
      double percentFree = row.gaugeValue(volume.percentFree());
      if (percentFree <= 0 || percentFree > 100) {
        throw new LoggedRow.BlankCell(
            "LogicalDisk(" + volume.volume() + ")\\% Free Space is " + percentFree + " in row " + row.index()
                + ", so the volume size cannot be derived");
      }
      long capacity = Math.round(freeBytes / (percentFree / 100));
      long available = Math.round(freeBytes);
      result.add(
          FilesystemUsage.builder(volume.volume(), LogicalDiskBinding.mountpointOf(volume.volume()), UNKNOWN_FS_TYPE)
              .capacityBytes(capacity)
              .availableBytes(Math.min(available, capacity))
              .usedBytes(Math.max(0, capacity - available))
              .build());
    }
    return result;
  }

  List<DiskIoCounters> diskIo(LoggedRow row) {
    List<DiskIoCounters> result = new ArrayList<>();
    for (BoundColumns<LogicalDiskCounter, DiskIoCounters, DiskIoCountersBuilder> disk : disks) {
      DiskIoCountersBuilder builder = DiskIoCounters.builder(disk.instance());
      disk.read(row, builder);
      result.add(builder.build());
    }
    return result;
  }

  // ---------------------------------------------------------------- recording

  /** Adds {@code Free Megabytes} and {@code % Free Space} of {@code volume}. */
  static void recordVolume(FilesystemUsage volume, RecordedColumn.Columns out) {
    String instance = LogicalDiskBinding.loggedInstanceOf(volume.device(), volume.mountpoint());
    String mountpoint = volume.mountpoint();
    out.add(OBJECT, instance, LogicalDiskCounter.FREE_MEGABYTES, (p, c, dt) -> {
      FilesystemUsage f = filesystem(c, mountpoint);
      return f == null ? null : PdhCsv.decimal(f.availableBytes() / BYTES_PER_MEGABYTE);
    });
    out.add(OBJECT, instance, LogicalDiskCounter.PERCENT_FREE_SPACE, (p, c, dt) -> {
      FilesystemUsage f = filesystem(c, mountpoint);
      return f == null || f.capacityBytes() == 0
          ? null
          : PdhCsv.decimal(100.0 * f.availableBytes() / f.capacityBytes());
    });
  }

  /** Adds the I/O counters of a disk, rates per second and times as percentages. */
  static void recordDisk(DiskIoCounters first, RecordedColumn.Columns out) {
    String device = first.device();
    out.addFigures(DISK_IO.recordedObject(), device, DISK_IO, first, s -> disk(s, device));
  }

  private static @Nullable DiskIoCounters disk(NodeSample sample, String device) {
    return sample.disks().stream().filter(d -> d.device().equals(device)).findFirst().orElse(null);
  }

  private static @Nullable FilesystemUsage filesystem(NodeSample sample, String mountpoint) {
    return sample.filesystems().stream().filter(f -> f.mountpoint().equals(mountpoint)).findFirst().orElse(null);
  }
}
