package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.ValueOrigin;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns the rows of a {@link CounterLog} into node samples, a pure function of the log and the UTC offset of its
 * timestamps.
 *
 * <p>Cumulative figures start at 0 at the first row and grow by each row's per-second value (or percentage / 100)
 * times that row's actual interval, the time since the previous row. A formatted value describes the interval before
 * its row, so the first row's rate cells, blank in typeperf logs and filled in some data-collector logs, are not
 * used: the interval they cover is unknown. This is the kubelet's {@code convertCPUValue} integration with the real
 * interval in place of its fixed 1 s (kubernetes#124734). Each perf object is mapped by its own class ({@link
 * ReplayProcessor}, {@link ReplayMemory}, {@link ReplayNetworkInterface}, {@link ReplayLogicalDisk}, {@link
 * ReplayPhysicalDisk}, {@link ReplaySystem}), which reads the figures of the object's binding table ({@code
 * …perfcounters.binding}) and keeps its
 * special cases; this class integrates the rows and assembles the samples.
 *
 * <p>A part the log cannot give at all is named in {@link #unavailable()}. A part whose needed cell is blank in a row
 * is missing from that row's sample with the reason, and the blank column's cumulative figure does not grow over that
 * interval (a gap, which makes a rate across it read low); the part's other columns keep growing.
 * An interval of zero or less (the clock stepped back) adds nothing. Every figure comes from the log; none is
 * invented. Only the first host of a multi-host (relog-merged) log is read.
 */
final class CounterLogIntegrator {
  private static final double NANOS_PER_SECOND = 1e9;

  private final CounterLog log;
  private final ZoneOffset offset;
  private final LogHeader header;
  private final Map<NodePart, String> unavailable = new EnumMap<>(NodePart.class);

  private final @Nullable ReplayProcessor processor;
  private final @Nullable ReplayMemory memory;
  private final @Nullable ReplayNetworkInterface network;
  private final ReplayLogicalDisk logicalDisk;
  private final ReplayPhysicalDisk physicalDisk;
  private final @Nullable ReplaySystem system;

  private final List<NodeSample> samples;

  private CounterLogIntegrator(CounterLog log, ZoneOffset offset) {
    this.log = log;
    this.offset = offset;
    this.header = new LogHeader(log.columns());
    this.processor = ReplayProcessor.plan(header, unavailable);
    this.memory = ReplayMemory.plan(header, unavailable);
    this.network = ReplayNetworkInterface.plan(header, unavailable);
    this.logicalDisk = ReplayLogicalDisk.plan(header, unavailable);
    this.physicalDisk = ReplayPhysicalDisk.plan(header, unavailable);
    this.system = ReplaySystem.plan(header, unavailable);
    this.samples = integrate();
  }

  /** Integrates {@code log}, whose timestamps are local times at {@code offset} from UTC. */
  static CounterLogIntegrator integrate(CounterLog log, ZoneOffset offset) {
    return new CounterLogIntegrator(log, offset);
  }

  /** One sample per row of the log, in order; a sample may have every part missing (a row of blank cells). */
  List<NodeSample> samples() {
    return samples;
  }

  /** The parts this log cannot give in any row, with the reason. */
  Map<NodePart, String> unavailable() {
    return Collections.unmodifiableMap(unavailable);
  }

  /** The host whose counters are read; null when the first counter column is a local path or there is none. */
  @Nullable String host() {
    return header.host();
  }

  private List<NodeSample> integrate() {
    int width = log.columns().size();
    double[] integral = new double[width];
    double[] complementIntegral = new double[width];
    List<NodeSample> result = new ArrayList<>(log.rows().size());
    CounterLog.Row first = log.rows().isEmpty() ? null : log.rows().get(0);
    CounterLog.Row previous = null;
    for (int r = 0; r < log.rows().size(); r++) {
      CounterLog.Row row = log.rows().get(r);
      if (previous != null) {
        Duration step = Duration.between(previous.localTime(), row.localTime());
        double seconds = step.getSeconds() + step.getNano() / NANOS_PER_SECOND;
        if (seconds > 0) {
          for (int c = 0; c < width; c++) {
            double v = row.raw(c);
            if (!Double.isNaN(v) && v >= 0) {
              integral[c] += v * seconds;
              complementIntegral[c] += Math.max(0, 100 - v) * seconds;
            }
          }
        }
      }
      Instant timestamp = row.localTime().toInstant(offset);
      long monotonicNanos = first == null ? 0 : nanosSinceFirstRow(first, row, r);
      result.add(sample(new LoggedRow(header, r, row, timestamp, integral, complementIntegral), monotonicNanos));
      previous = row;
    }
    return List.copyOf(result);
  }

  /** A log whose rows are more than 292 years apart (a long of nanoseconds) is no recording: MALFORMED. */
  private static long nanosSinceFirstRow(CounterLog.Row first, CounterLog.Row row, int index) {
    try {
      return Duration.between(first.localTime(), row.localTime()).toNanos();
    } catch (ArithmeticException e) {
      throw new NodeSourceException(
          NodeSourceException.Reason.MALFORMED,
          "row " + (index + 1) + " (" + row.localTime() + ") is more than 292 years from the first ("
              + first.localTime() + ")",
          e);
    }
  }

  private NodeSample sample(LoggedRow row, long monotonicNanos) {
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);
    missing.putAll(unavailable);
    ReplayProcessor p = processor;
    ReplayMemory m = memory;
    ReplayNetworkInterface n = network;
    ReplaySystem s = system;
    NodeCpu cpu = p == null ? null : row.part(NodePart.CPU, missing, () -> p.read(row));
    NodeMemory nodeMemory = m == null ? null : row.part(NodePart.MEMORY, missing, () -> m.read(row));
    List<NetworkInterfaceCounters> interfaces =
        n == null ? null : row.part(NodePart.NETWORK, missing, () -> n.read(row));
    List<FilesystemUsage> filesystems =
        logicalDisk.hasVolumes() ? row.part(NodePart.FILESYSTEM, missing, () -> logicalDisk.filesystems(row)) : null;
    List<DiskIoCounters> diskIo =
        logicalDisk.hasDisks() ? row.part(NodePart.DISK_IO, missing, () -> logicalDisk.diskIo(row)) : null;
    List<PhysicalDiskCounters> physicalDisks =
        physicalDisk.hasDisks() ? row.part(NodePart.PHYSICAL_DISK, missing, () -> physicalDisk.read(row)) : null;
    NodeSystem nodeSystem = s == null ? null : row.part(NodePart.SYSTEM, missing, () -> s.read(row));
    return NodeSample.builder(row.timestamp(), monotonicNanos)
        .origin(ValueOrigin.FORMATTED)
        .cpu(cpu)
        .memory(nodeMemory)
        .interfaces(interfaces == null ? List.of() : interfaces)
        .filesystems(filesystems == null ? List.of() : filesystems)
        .disks(diskIo == null ? List.of() : diskIo)
        .physicalDisks(physicalDisks == null ? List.of() : physicalDisks)
        .system(nodeSystem)
        .missing(missing)
        .build();
  }
}
