package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CounterReading;
import io.winstats.perfcounters.CounterRates;
import io.winstats.perfcounters.CounterWidth;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.LoggedCounter;
import io.winstats.perfcounters.counters.LogicalDiskCounter;
import io.winstats.perfcounters.counters.MemoryCounter;
import io.winstats.perfcounters.counters.NetworkInterfaceCounter;
import io.winstats.perfcounters.counters.ProcessorInformationCounter;
import io.winstats.perfcounters.counters.SystemCounter;
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
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;
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
 * ({@link NodeExtraCounter}). Not recorded: file system device and type, inodes, per-mode detail beyond the five
 * Windows percentages. PDH's {@code (}/{@code )} in instance names become {@code [}/{@code ]}.
 *
 * <p>Not thread-safe. Write failures throw {@link UncheckedIOException}.
 */
public final class CounterLogRecorder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CounterLogRecorder.class);
  private static final String BANNER = PdhCsv.SIGNATURE + " (Coordinated Universal Time)(0)";
  private static final double NANOS_PER_SECOND = 1e9;
  private static final double BYTES_PER_MEGABYTE = 1024d * 1024d;
  private static final String BLANK = " ";

  private final Writer out;
  private final String host;
  private @Nullable List<Column> columns;
  private @Nullable NodeSample previous;
  private @Nullable Instant previousWritten;
  private boolean reportedNewInstances;

  /** A value of one column from the previous and the current sample; null for a blank cell. */
  private interface Cell {
    @Nullable String value(@Nullable NodeSample previous, NodeSample current, long intervalNanos);
  }

  private record Column(CounterPath path, Cell cell) {}

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
      for (Column column : columns) {
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
            || sample.filesystems().size() > previous.filesystems().size();
    if (changed) {
      reportedNewInstances = true;
      LOG.info("event=recorder_new_instances_not_recorded host={} time={}", host, sample.timestamp());
    }
  }

  // ---------------------------------------------------------------- the columns a first sample fixes

  private List<Column> columns(NodeSample first) {
    List<Column> result = new ArrayList<>();
    if (first.cpu() != null) {
      cpuColumns(first, result);
    }
    NodeMemory memory = first.memory();
    if (memory != null) {
      memoryColumns(memory, result);
    }
    for (NetworkInterfaceCounters nic : first.interfaces()) {
      networkColumns(nic.name(), result);
    }
    for (FilesystemUsage fs : first.filesystems()) {
      String mount = fs.mountpoint();
      result.add(
          column(LogicalDiskCounter.OBJECT, mount, LogicalDiskCounter.FREE_MEGABYTES, (p, c, dt) -> {
            FilesystemUsage f = filesystem(c, mount);
            return f == null ? null : PdhCsv.decimal(f.availableBytes() / BYTES_PER_MEGABYTE);
          }));
      result.add(
          column(LogicalDiskCounter.OBJECT, mount, LogicalDiskCounter.PERCENT_FREE_SPACE, (p, c, dt) -> {
            FilesystemUsage f = filesystem(c, mount);
            return f == null || f.capacityBytes() == 0
                ? null
                : PdhCsv.decimal(100.0 * f.availableBytes() / f.capacityBytes());
          }));
    }
    for (DiskIoCounters disk : first.disks()) {
      diskColumns(disk.device(), result);
    }
    NodeSystem system = first.system();
    if (system != null) {
      systemColumns(system, result);
    }
    return List.copyOf(result);
  }

  private void cpuColumns(NodeSample first, List<Column> result) {
    List<CoreCpuTime> cores = first.cpu().cores();
    String object =
        cores.stream().anyMatch(c -> c.core().contains(","))
            ? CounterLogIntegrator.PROCESSOR_OBJECTS.get(0)
            : CounterLogIntegrator.PROCESSOR_OBJECTS.get(1);
    for (CoreCpuTime core : cores) {
      String name = core.core();
      for (ProcessorInformationCounter counter : ProcessorInformationCounter.values()) {
        ToLongFunction<CoreCpuTime> nanos = coreNanos(counter);
        result.add(
            column(object, name, counter, (p, c, dt) -> {
              CoreCpuTime before = p == null || p.cpu() == null ? null : core(p, name);
              CoreCpuTime now = c.cpu() == null ? null : core(c, name);
              if (before == null || now == null) {
                return null;
              }
              OptionalDouble rate = rate(nanos.applyAsLong(before), nanos.applyAsLong(now), dt);
              return rate.isEmpty() ? null : PdhCsv.decimal(rate.getAsDouble() / NANOS_PER_SECOND * 100);
            }));
      }
    }
    result.add(
        column(object, "_Total", ProcessorInformationCounter.PROCESSOR_TIME, (p, c, dt) -> {
          if (p == null || p.cpu() == null || c.cpu() == null) {
            return null;
          }
          OptionalDouble rate = rate(p.cpu().usageCoreNanos(), c.cpu().usageCoreNanos(), dt);
          return rate.isEmpty()
              ? null
              : PdhCsv.decimal(rate.getAsDouble() / NANOS_PER_SECOND * 100 / c.cpu().logicalCores());
        }));
  }

  /** The model's CPU modes folded into the five Windows percentages. */
  private static ToLongFunction<CoreCpuTime> coreNanos(ProcessorInformationCounter counter) {
    return switch (counter) {
      case USER_TIME -> c -> c.nanos(CpuMode.USER) + c.nanos(CpuMode.NICE);
      case PRIVILEGED_TIME ->
          c -> c.nanos(CpuMode.SYSTEM) + c.nanos(CpuMode.IRQ) + c.nanos(CpuMode.SOFTIRQ) + c.nanos(CpuMode.PRIVILEGED);
      case IDLE_TIME -> c -> c.nanos(CpuMode.IDLE) + c.nanos(CpuMode.IOWAIT);
      case INTERRUPT_TIME -> c -> c.nanos(CpuMode.IRQ) + c.nanos(CpuMode.INTERRUPT);
      case DPC_TIME -> c -> c.nanos(CpuMode.SOFTIRQ) + c.nanos(CpuMode.DPC);
      case PROCESSOR_TIME ->
          c -> {
            long busy = 0;
            for (CpuMode mode : CpuMode.values()) {
              if (mode != CpuMode.IDLE && mode != CpuMode.IOWAIT && mode != CpuMode.INTERRUPT && mode != CpuMode.DPC) {
                busy += c.nanos(mode);
              }
            }
            return busy;
          };
    };
  }

  private void memoryColumns(NodeMemory first, List<Column> result) {
    gauge(result, MemoryCounter.OBJECT, MemoryCounter.AVAILABLE_BYTES, first.availableBytes(), NodeMemory::availableBytes);
    gauge(result, MemoryCounter.OBJECT, MemoryCounter.COMMITTED_BYTES, first.committedBytes(), NodeMemory::committedBytes);
    gauge(result, MemoryCounter.OBJECT, MemoryCounter.COMMIT_LIMIT, first.commitLimitBytes(), NodeMemory::commitLimitBytes);
    gauge(result, MemoryCounter.OBJECT, MemoryCounter.CACHE_BYTES, first.cacheBytes(), NodeMemory::cacheBytes);
    gauge(
        result,
        MemoryCounter.OBJECT,
        MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES,
        first.freeBytes(),
        NodeMemory::freeBytes);
    if (first.pageFaults() != null) {
      result.add(memoryRate(MemoryCounter.OBJECT, MemoryCounter.PAGE_FAULTS, NodeMemory::pageFaults));
    }
    String extra = NodeExtraCounter.OBJECT;
    gauge(result, extra, NodeExtraCounter.PHYSICAL_MEMORY_BYTES, first.totalBytes(), NodeMemory::totalBytes);
    gauge(
        result, extra, NodeExtraCounter.MEMORY_WORKING_SET_BYTES, first.workingSetBytes(), NodeMemory::workingSetBytes);
    gauge(result, extra, NodeExtraCounter.MEMORY_USAGE_BYTES, first.usageBytes(), NodeMemory::usageBytes);
    if (first.majorPageFaults() != null) {
      result.add(memoryRate(extra, NodeExtraCounter.MAJOR_PAGE_FAULTS, NodeMemory::majorPageFaults));
    }
    gauge(result, extra, NodeExtraCounter.SWAP_TOTAL_BYTES, first.swapTotalBytes(), NodeMemory::swapTotalBytes);
    gauge(result, extra, NodeExtraCounter.SWAP_FREE_BYTES, first.swapFreeBytes(), NodeMemory::swapFreeBytes);
  }

  private void gauge(
      List<Column> result,
      String object,
      LoggedCounter counter,
      @Nullable Long firstValue,
      Function<NodeMemory, @Nullable Long> field) {
    if (firstValue == null) {
      return;
    }
    result.add(
        column(object, null, counter, (p, c, dt) -> {
          Long value = c.memory() == null ? null : field.apply(c.memory());
          return value == null ? null : Long.toString(value);
        }));
  }

  private Column memoryRate(String object, LoggedCounter counter, Function<NodeMemory, @Nullable Long> field) {
    return column(object, null, counter, (p, c, dt) -> {
      Long before = p == null || p.memory() == null ? null : field.apply(p.memory());
      Long now = c.memory() == null ? null : field.apply(c.memory());
      return perSecond(before, now, dt);
    });
  }

  private void networkColumns(String name, List<Column> result) {
    String object = CounterLogIntegrator.NETWORK_OBJECTS.get(0);
    for (NetworkInterfaceCounter counter : NetworkInterfaceCounter.values()) {
      ToLongFunction<NetworkInterfaceCounters> field =
          switch (counter) {
            case BYTES_RECEIVED -> NetworkInterfaceCounters::rxBytes;
            case BYTES_SENT -> NetworkInterfaceCounters::txBytes;
            case PACKETS_RECEIVED -> NetworkInterfaceCounters::rxPackets;
            case PACKETS_SENT -> NetworkInterfaceCounters::txPackets;
            case PACKETS_RECEIVED_ERRORS -> NetworkInterfaceCounters::rxErrors;
            case PACKETS_OUTBOUND_ERRORS -> NetworkInterfaceCounters::txErrors;
            case PACKETS_RECEIVED_DISCARDED -> NetworkInterfaceCounters::rxDropped;
            case PACKETS_OUTBOUND_DISCARDED -> NetworkInterfaceCounters::txDropped;
          };
      result.add(
          column(object, name, counter, (p, c, dt) -> {
            NetworkInterfaceCounters now = nic(c, name);
            if (now == null) {
              return null;
            }
            if (!counter.formatted().isRate()) {
              return Long.toString(field.applyAsLong(now));
            }
            NetworkInterfaceCounters before = p == null ? null : nic(p, name);
            return perSecond(before == null ? null : field.applyAsLong(before), field.applyAsLong(now), dt);
          }));
    }
  }

  private void diskColumns(String device, List<Column> result) {
    for (LogicalDiskCounter counter : CounterLogIntegrator.DISK_IO) {
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
      result.add(
          column(LogicalDiskCounter.OBJECT, device, counter, (p, c, dt) -> {
            DiskIoCounters now = disk(c, device);
            if (now == null) {
              return null;
            }
            if (counter == LogicalDiskCounter.CURRENT_DISK_QUEUE_LENGTH) {
              return Long.toString(now.queueLength());
            }
            DiskIoCounters before = p == null ? null : disk(p, device);
            OptionalDouble rate =
                before == null ? OptionalDouble.empty() : rate(field.applyAsLong(before), field.applyAsLong(now), dt);
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
              case PERCENT, BYTES, MEGABYTES, COUNT, SECONDS ->
                  throw new IllegalStateException("gauge handled above");
            };
          }));
    }
  }

  private void systemColumns(NodeSystem first, List<Column> result) {
    String object = SystemCounter.OBJECT;
    result.add(systemGauge(object, SystemCounter.PROCESSES, s -> (double) s.processes()));
    if (first.threads() != null) {
      result.add(systemGauge(object, SystemCounter.THREADS, s -> toDouble(s.threads())));
    }
    if (first.contextSwitches() != null) {
      result.add(
          column(object, null, SystemCounter.CONTEXT_SWITCHES, (p, c, dt) -> perSecond(
              p == null || p.system() == null ? null : p.system().contextSwitches(),
              c.system() == null ? null : c.system().contextSwitches(),
              dt)));
    }
    if (first.processorQueueLength() != null) {
      result.add(systemGauge(object, SystemCounter.PROCESSOR_QUEUE_LENGTH, s -> toDouble(s.processorQueueLength())));
    }
    if (first.bootTime() != null) {
      result.add(
          column(object, null, SystemCounter.SYSTEM_UP_TIME, (p, c, dt) -> {
            NodeSystem s = c.system();
            if (s == null || s.bootTime() == null) {
              return null;
            }
            Instant written = c.timestamp().truncatedTo(ChronoUnit.MILLIS);
            return PdhCsv.decimal(Duration.between(s.bootTime(), written).toMillis() / 1000.0);
          }));
    }
    String extra = NodeExtraCounter.OBJECT;
    if (first.maxProcesses() != null) {
      result.add(systemGauge(extra, NodeExtraCounter.MAX_PROCESSES, s -> toDouble(s.maxProcesses())));
    }
    if (first.load1() != null) {
      result.add(systemGauge(extra, NodeExtraCounter.LOAD_1, NodeSystem::load1));
      result.add(systemGauge(extra, NodeExtraCounter.LOAD_5, NodeSystem::load5));
      result.add(systemGauge(extra, NodeExtraCounter.LOAD_15, NodeSystem::load15));
    }
  }

  private Column systemGauge(String object, LoggedCounter counter, Function<NodeSystem, @Nullable Double> field) {
    return column(object, null, counter, (p, c, dt) -> {
      Double value = c.system() == null ? null : field.apply(c.system());
      return value == null ? null : PdhCsv.decimal(value);
    });
  }

  private static @Nullable Double toDouble(@Nullable Long value) {
    return value == null ? null : value.doubleValue();
  }

  // ---------------------------------------------------------------- helpers over samples

  private Column column(String object, @Nullable String instance, LoggedCounter counter, Cell cell) {
    String pdhInstance = instance == null ? null : instance.replace('(', '[').replace(')', ']');
    return new Column(new CounterPath(host, object, pdhInstance, counter.counter()), cell);
  }

  private static OptionalDouble rate(long before, long now, long intervalNanos) {
    return CounterRates.rate(
        new CounterReading(before, 0), new CounterReading(now, intervalNanos), CounterWidth.BITS_64);
  }

  private static @Nullable String perSecond(@Nullable Long before, @Nullable Long now, long intervalNanos) {
    if (before == null || now == null) {
      return null;
    }
    OptionalDouble rate = rate(before, now, intervalNanos);
    return rate.isEmpty() ? null : PdhCsv.decimal(rate.getAsDouble());
  }

  private static @Nullable CoreCpuTime core(NodeSample sample, String name) {
    return sample.cpu().cores().stream().filter(c -> c.core().equals(name)).findFirst().orElse(null);
  }

  private static @Nullable NetworkInterfaceCounters nic(NodeSample sample, String name) {
    return sample.interfaces().stream().filter(i -> i.name().equals(name)).findFirst().orElse(null);
  }

  private static @Nullable DiskIoCounters disk(NodeSample sample, String device) {
    return sample.disks().stream().filter(d -> d.device().equals(device)).findFirst().orElse(null);
  }

  private static @Nullable FilesystemUsage filesystem(NodeSample sample, String mountpoint) {
    return sample.filesystems().stream().filter(f -> f.mountpoint().equals(mountpoint)).findFirst().orElse(null);
  }
}
