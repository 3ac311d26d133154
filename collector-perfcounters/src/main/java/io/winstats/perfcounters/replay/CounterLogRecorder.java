package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.counters.NodeExtraCounter;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes node samples as a PDH-CSV 4.0 counter log ({@code --record FILE}) that {@link ReplayNodeSource} replays with
 * the same figures.
 *
 * <p>Format: UTF-8, CRLF, every field quoted; the banner is {@code (PDH-CSV 4.0) (Coordinated Universal Time)(0)} and
 * times are UTC with milliseconds. The columns are fixed by the first sample, as typeperf fixes them when it starts:
 * cores, interfaces, volumes and disks that appear later, and parts missing from the first sample, are not recorded
 * (logged once). Values are formatted as PDH formats them: gauges as they are, cumulative counters as rates per second
 * and CPU and disk times as percentages of the interval between the two rows' written (millisecond) times, so that
 * integrating them over the file's own intervals gives back the increases. A first row, a reset or a zero interval
 * leaves the cell blank ({@code " "}), as typeperf does.
 *
 * <p>Mapping of the node model to English counter paths: per core {@code Processor(core)} ({@code Processor
 * Information} when core names hold a comma) with {@code % User Time} = user + nice, {@code % Privileged Time} = system
 * + irq + softirq + privileged, {@code % Idle Time} = idle + iowait, {@code % Interrupt Time} = irq + interrupt,
 * {@code % DPC Time} = softirq + dpc and {@code % Processor Time} = every other mode; {@code _Total % Processor Time}
 * is usageCoreNanos over cores. Interfaces go to {@code Network Adapter(name)}, volumes (by mount point) and disks (by
 * device) to {@code LogicalDisk(name)}, with {@code Free Megabytes} and {@code % Free Space} computed from available
 * and capacity bytes. Figures no PDH counter holds with the same meaning go to our own {@code \Winstats Node} object
 * ({@link NodeExtraCounter}). Each perf object's columns are written by its own class ({@link ReplayProcessor},
 * {@link ReplayMemory}, {@link ReplayNetworkInterface}, {@link ReplayLogicalDisk}, {@link ReplaySystem}), the same
 * class that reads them back, one column per row of the object's binding table ({@code …perfcounters.binding}) plus
 * the object's special cases. Not recorded: file system device and type, inodes, per-mode detail beyond the five
 * Windows percentages. PDH's {@code (}/{@code )} in instance names become {@code [}/{@code ]}.
 *
 * <p>Not thread-safe. Write failures throw {@link UncheckedIOException}.
 */
public final class CounterLogRecorder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CounterLogRecorder.class);
  private static final String BANNER = PdhCsv.SIGNATURE + " (Coordinated Universal Time)(0)";
  private static final String BLANK = " ";

  private final Writer out;
  private final String host;
  private @Nullable List<RecordedColumn> columns;
  private @Nullable NodeSample previous;
  private @Nullable Instant previousWritten;
  private boolean reportedNewInstances;

  /**
   * A recorder writing to {@code out}, which it closes on {@link #close()}.
   *
   * @param host the machine name for the counter paths
   */
  public CounterLogRecorder(Writer out, String host) {
    this.out = Objects.requireNonNull(out, "out");
    this.host = Objects.requireNonNull(host, "host");
  }

  /**
   * Creates (or truncates) {@code file} and records into it.
   *
   * @throws IOException when the file cannot be created
   */
  public static CounterLogRecorder open(Path file, String host) throws IOException {
    return new CounterLogRecorder(new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8)), host);
  }

  /**
   * Appends one row; the first call also writes the header.
   *
   * @throws UncheckedIOException when writing fails
   */
  public void record(NodeSample sample) {
    try {
      if (columns == null) {
        columns = columns(sample);
        List<String> header = new ArrayList<>();
        header.add(BANNER);
        columns.forEach(c -> header.add(c.path().toString()));
        writeLine(header);
      } else {
        reportNewInstances(sample);
      }
      Instant written = sample.timestamp().truncatedTo(ChronoUnit.MILLIS);
      long intervalNanos =
          previousWritten == null ? 0 : Duration.between(previousWritten, written).toNanos();
      List<String> line = new ArrayList<>();
      line.add(PdhCsv.timestamp(LocalDateTime.ofInstant(written, ZoneOffset.UTC)));
      for (RecordedColumn column : columns) {
        String value = column.cell().value(previous, sample, intervalNanos);
        line.add(value == null ? BLANK : value);
      }
      writeLine(line);
      out.flush();
      previous = sample;
      previousWritten = written;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void writeLine(List<String> fields) throws IOException {
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      out.write(PdhCsv.quote(fields.get(i)));
    }
    out.write("\r\n");
  }

  private void reportNewInstances(NodeSample sample) {
    if (reportedNewInstances || previous == null) {
      return;
    }
    Set<String> known = Set.copyOf(previous.interfaces().stream().map(NetworkInterfaceCounters::name).toList());
    boolean changed =
        sample.interfaces().stream().anyMatch(i -> !known.contains(i.name()))
            || sample.disks().size() > previous.disks().size()
            || sample.physicalDisks().size() > previous.physicalDisks().size()
            || sample.filesystems().size() > previous.filesystems().size();
    if (changed) {
      reportedNewInstances = true;
      LOG.info("event=recorder_new_instances_not_recorded host={} time={}", host, sample.timestamp());
    }
  }

  // ---------------------------------------------------------------- the columns a first sample fixes

  /** The columns of {@code first}'s parts, each perf object's from its own class, in a fixed object order. */
  private List<RecordedColumn> columns(NodeSample first) {
    RecordedColumn.Columns result = new RecordedColumn.Columns(host);
    NodeCpu cpu = first.cpu();
    if (cpu != null) {
      ReplayProcessor.record(cpu, result);
    }
    NodeMemory memory = first.memory();
    if (memory != null) {
      ReplayMemory.record(memory, result);
    }
    for (NetworkInterfaceCounters nic : first.interfaces()) {
      ReplayNetworkInterface.record(nic, result);
    }
    for (FilesystemUsage fs : first.filesystems()) {
      ReplayLogicalDisk.recordVolume(fs, result);
    }
    for (DiskIoCounters disk : first.disks()) {
      ReplayLogicalDisk.recordDisk(disk, result);
    }
    for (PhysicalDiskCounters disk : first.physicalDisks()) {
      ReplayPhysicalDisk.record(disk, result);
    }
    NodeSystem system = first.system();
    if (system != null) {
      ReplaySystem.record(system, result);
    }
    return result.list();
  }
}
