package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.PhysicalDiskCountersBuilder;
import io.winstats.perfcounters.binding.Binding;
import io.winstats.perfcounters.binding.PhysicalDiskBinding;
import io.winstats.perfcounters.binding.PhysicalDiskBinding.PhysicalDiskCounter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code \PhysicalDisk(*)} in a counter log as {@link PhysicalDiskCounters} per disk ({@code _Total} left out): the
 * columns {@link PhysicalDiskBinding#DISK} binds, which {@link CounterLogIntegrator} integrates and {@link
 * CounterLogRecorder} writes. The {@code Avg. Disk sec/…} totals are not in a log (it holds each interval's average),
 * so a replayed disk has none.
 */
final class ReplayPhysicalDisk {
  private static final String OBJECT = PhysicalDiskCounter.OBJECT;

  private static final Binding<PhysicalDiskCounter, PhysicalDiskCounters, PhysicalDiskCountersBuilder> DISK =
      PhysicalDiskBinding.DISK;

  private final List<BoundColumns<PhysicalDiskCounter, PhysicalDiskCounters, PhysicalDiskCountersBuilder>> disks;

  private ReplayPhysicalDisk(
      List<BoundColumns<PhysicalDiskCounter, PhysicalDiskCounters, PhysicalDiskCountersBuilder>> disks) {
    this.disks = disks;
  }

  /** The disks the header offers in full; with none, the part is put in {@code unavailable} with why. */
  static ReplayPhysicalDisk plan(LogHeader header, Map<NodePart, String> unavailable) {
    Set<String> instances = new LinkedHashSet<>(header.instances(OBJECT));
    instances.remove("_Total");
    if (instances.isEmpty()) {
      unavailable.put(NodePart.PHYSICAL_DISK, "the log has no PhysicalDisk(*) counters");
      return new ReplayPhysicalDisk(List.of());
    }
    List<BoundColumns<PhysicalDiskCounter, PhysicalDiskCounters, PhysicalDiskCountersBuilder>> disks =
        new ArrayList<>();
    for (String instance : instances) {
      disks.add(BoundColumns.of(header, OBJECT, instance, DISK));
    }
    if (disks.stream().noneMatch(BoundColumns::complete)) {
      unavailable.put(
          NodePart.PHYSICAL_DISK, LogHeader.incomplete(OBJECT, disks.get(0).instance(), disks.get(0).lacking()));
    }
    disks.removeIf(d -> !d.complete());
    return new ReplayPhysicalDisk(disks);
  }

  boolean hasDisks() {
    return !disks.isEmpty();
  }

  List<PhysicalDiskCounters> read(LoggedRow row) {
    List<PhysicalDiskCounters> result = new ArrayList<>();
    for (BoundColumns<PhysicalDiskCounter, PhysicalDiskCounters, PhysicalDiskCountersBuilder> disk : disks) {
      PhysicalDiskCountersBuilder builder = PhysicalDiskCounters.builder(disk.instance());
      disk.read(row, builder);
      result.add(builder.build());
    }
    return result;
  }

  /** Adds the counters of a disk, rates per second and times as percentages. */
  static void record(PhysicalDiskCounters first, RecordedColumn.Columns out) {
    String instance = first.instance();
    out.addFigures(DISK.recordedObject(), instance, DISK, first, s -> disk(s, instance));
  }

  private static @Nullable PhysicalDiskCounters disk(NodeSample sample, String instance) {
    return sample.physicalDisks().stream().filter(d -> d.instance().equals(instance)).findFirst().orElse(null);
  }
}
