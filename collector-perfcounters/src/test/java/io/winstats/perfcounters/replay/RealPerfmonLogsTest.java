package io.winstats.perfcounters.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.ValueOrigin;
import io.winstats.perfcounters.counters.CounterPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The three real Windows logs of {@code src/test/resources/perfmon} (see its README.md). Every expected figure was read from
 * the files with an independent tool (Python's csv module) before these tests were written; the CPU integral is also
 * recomputed here with a plain line split.
 */
class RealPerfmonLogsTest {

  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-21T00:00:00Z"), ZoneOffset.UTC);

  // ------------------------------------------------------------ zh: Processor (12 cores + _Total), System, Process

  @Test
  void zhProcessorLogParses() throws IOException {
    CounterLog log = PdhCsv.parse(Files.readAllBytes(PerfmonLogs.path(PerfmonLogs.ZH_PROCESSOR)));

    assertThat(log.banner()).isEqualTo("(PDH-CSV 4.0) (");
    assertThat(log.biasMinutes()).isNull();
    assertThat(log.charset()).isEqualTo(StandardCharsets.UTF_8);
    assertThat(log.columns()).hasSize(122).doesNotContainNull();
    assertThat(log.columns()).allSatisfy(c -> assertThat(c.host()).isEqualTo("DESKTOP-5GTCQEM"));
    assertThat(log.rows()).hasSize(120);
    assertThat(log.droppedRows()).isZero();
    assertThat(log.rows().get(0).localTime()).isEqualTo(LocalDateTime.parse("2022-10-09T18:35:32.282"));
    assertThat(log.rows().get(119).localTime()).isEqualTo(LocalDateTime.parse("2022-10-09T18:45:27.272"));
    int total = log.columns().indexOf(new CounterPath("DESKTOP-5GTCQEM", "Processor", "_Total", "% Processor Time"));
    assertThat(log.rows().get(0).value(total)).hasValue(13.494011036091302813);
    assertThat(log.rows().get(1).value(total)).hasValue(9.8971012897626113869);
  }

  @Test
  void zhProcessorLogIntegratesCpuOverTheRealIntervals() throws IOException {
    Path file = PerfmonLogs.path(PerfmonLogs.ZH_PROCESSOR);
    List<NodeSample> samples = drain(ReplayNodeSource.open(file, Double.POSITIVE_INFINITY, null, ReplayNodeSource.Timeline.RECORDED, CLOCK));

    assertThat(samples).hasSize(120);
    NodeSample first = samples.get(0);
    NodeSample last = samples.get(119);
    assertThat(last.origin()).isEqualTo(ValueOrigin.FORMATTED);
    assertThat(first.cpu().usageCoreNanos()).as("the first row's values cover an unknown interval").isZero();
    assertThat(last.cpu().logicalCores()).isEqualTo(12);
    assertThat(last.cpu().cores()).extracting(CoreCpuTime::core)
        .containsExactly("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11");
    // Σ rows 1..119 of _Total % Processor Time / 100 × interval × 12 cores = 1087.6083815448 core-seconds (Python)
    assertThat(last.cpu().usageCoreNanos()).isCloseTo(1_087_608_381_545L, within(1_000L));
    assertThat(last.cpu().usageCoreNanos()).isCloseTo(independentCpuIntegral(file), within(1_000L));
    // the kubelet's 1 s assumption would give 1/5 of it at this 5 s interval
    assertThat(last.cpu().usageCoreNanos() / 1e9).isGreaterThan(1000);
    CoreCpuTime core0 = last.cpu().cores().get(0);
    assertThat(core0.nanos(CpuMode.USER) / 1e9).isCloseTo(75.90626833949705, within(1e-6));
    assertThat(core0.nanosByMode())
        .as("the log has % User, % Privileged, % Interrupt and % DPC Time; idle is derived from % Processor Time")
        .containsOnlyKeys(CpuMode.USER, CpuMode.PRIVILEGED, CpuMode.INTERRUPT, CpuMode.DPC, CpuMode.IDLE);
    // Σ rows 1..119 of (100 - Processor(0) % Processor Time)/100 × interval = 423.0162794059911 s (Python); with the
    // busy integral (171.97 s) it makes up the whole 594.99 s span
    assertThat(core0.nanos(CpuMode.IDLE) / 1e9).isCloseTo(423.0162794059911, within(1e-6));
    assertThat(samples.get(0).cpu().cores().get(0).nanos(CpuMode.IDLE)).isZero();
    assertThat(last.monotonicNanos()).isEqualTo(Duration.ofMillis(594_990).toNanos());
    assertThat(last.timestamp()).as("no bias in the banner: taken as UTC").isEqualTo(Instant.parse(
        "2022-10-09T18:45:27.272Z"));
    assertThat(last.missing())
        .containsOnlyKeys(
            NodePart.MEMORY,
            NodePart.NETWORK,
            NodePart.FILESYSTEM,
            NodePart.DISK_IO,
            NodePart.PHYSICAL_DISK,
            NodePart.SYSTEM);
    assertThat(last.missing().get(NodePart.PHYSICAL_DISK)).isEqualTo("the log has no PhysicalDisk(*) counters");
    assertThat(last.missing().get(NodePart.SYSTEM)).isEqualTo("the log lacks \\System\\Processes");
    assertThat(last.missing().get(NodePart.MEMORY)).contains("no memory counter");
    for (int i = 1; i < samples.size(); i++) {
      assertThat(samples.get(i).cpu().usageCoreNanos()).isGreaterThanOrEqualTo(samples.get(i - 1).cpu().usageCoreNanos());
    }
  }

  @Test
  void aBiasGivenForABannerWithoutOneShiftsTheTimestamps() {
    Path file = PerfmonLogs.path(PerfmonLogs.ZH_PROCESSOR);
    // China Standard Time is UTC+8, a Windows bias of -480 minutes
    NodeSample first = ReplayNodeSource.open(file, Double.POSITIVE_INFINITY, -480, ReplayNodeSource.Timeline.RECORDED, CLOCK).sample();

    assertThat(first.timestamp()).isEqualTo(Instant.parse("2022-10-09T10:35:32.282Z"));
  }

  // ------------------------------------------------------------ zh: Network Interface bytes, Processor DPC, TCPv4

  @Test
  void zhNetworkLogParses() throws IOException {
    CounterLog log = PdhCsv.parse(Files.readAllBytes(PerfmonLogs.path(PerfmonLogs.ZH_NETWORK)));

    assertThat(log.columns()).hasSize(39).doesNotContainNull();
    assertThat(log.rows()).hasSize(121);
    long blanksInFirstRow = java.util.stream.IntStream.range(0, 39)
        .filter(c -> log.rows().get(0).value(c).isEmpty()).count();
    assertThat(blanksInFirstRow).isEqualTo(36);
    int established = log.columns().indexOf(
        new CounterPath("DESKTOP-5GTCQEM", "TCPv4", null, "Connections Established"));
    assertThat(log.rows().get(0).value(established)).hasValue(194);
    assertThat(log.rows().get(120).value(established)).hasValue(202);
    int rx = log.columns().indexOf(new CounterPath(
        "DESKTOP-5GTCQEM", "Network Interface", "Realtek PCIe GbE Family Controller", "Bytes Received/sec"));
    assertThat(log.rows().get(1).value(rx)).hasValue(176190.07472530510859);
  }

  @Test
  void zhNetworkLogHasNoPartTheNodeModelCanBuildAndIsRefused() throws IOException {
    Path file = PerfmonLogs.path(PerfmonLogs.ZH_NETWORK);
    CounterLogIntegrator integrated =
        CounterLogIntegrator.integrate(PdhCsv.parse(Files.readAllBytes(file)), ZoneOffset.UTC);

    assertThat(integrated.unavailable().keySet()).containsExactlyInAnyOrderElementsOf(NodePart.counterParts());
    assertThat(integrated.unavailable().get(NodePart.CPU)).isEqualTo("the log lacks Processor(*)\\% Processor Time");
    assertThat(integrated.unavailable().get(NodePart.NETWORK))
        .contains("Network Interface(Realtek PCIe GbE Family Controller) lacks Packets Received/sec, Packets Sent/sec,"
            + " Packets Received Errors, Packets Outbound Errors, Packets Received Discarded, Packets Outbound"
            + " Discarded");
    assertThatThrownBy(() -> ReplayNodeSource.open(file, 1, null, ReplayNodeSource.Timeline.RECORDED, CLOCK))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.NOT_FOUND))
        .hasMessageContaining("holds no counter a node part can be built from");
  }

  // ------------------------------------------------------------ ja (TIERRA): CP932 column, Network Interface

  @Test
  void jaLogParsesDespiteItsCp932Column() throws IOException {
    CounterLog log = PdhCsv.parse(Files.readAllBytes(PerfmonLogs.path(PerfmonLogs.JA_TIERRA)));

    assertThat(log.charset()).as("the CP932 description column is not UTF-8").isEqualTo(StandardCharsets.ISO_8859_1);
    assertThat(log.columns()).as("190 of the upstream 754: the excerpt drops the GPU objects").hasSize(190);
    assertThat(log.columns().get(189)).as("the data collector set's description is not a counter").isNull();
    assertThat(log.columns().subList(0, 189)).doesNotContainNull();
    assertThat(log.rows()).hasSize(200);
    assertThat(log.rows().get(199).localTime()).isEqualTo(LocalDateTime.parse("2018-12-15T20:07:49.074"));
    long blanksInFirstRow = java.util.stream.IntStream.range(0, 190)
        .filter(c -> log.rows().get(0).value(c).isEmpty()).count();
    assertThat(blanksInFirstRow).as("89 counter cells and the description column's \" \"").isEqualTo(90);
    int available = log.columns().indexOf(new CounterPath("TIERRA", "Memory", null, "Available Bytes"));
    assertThat(log.rows().get(0).value(available)).hasValue(3921002496d);
    assertThat(log.rows().get(199).value(available)).hasValue(2408849408d);
    int cpu = log.columns().indexOf(new CounterPath("TIERRA", "Processor", "_Total", "% Processor Time"));
    assertThat(log.rows().get(1).value(cpu)).hasValue(27.290308455007573);
  }

  @Test
  void jaLogReplaysItsNetworkAdapterAndNamesWhatItLacks() {
    Path file = PerfmonLogs.path(PerfmonLogs.JA_TIERRA);
    List<NodeSample> samples = drain(ReplayNodeSource.open(file, Double.POSITIVE_INFINITY, null, ReplayNodeSource.Timeline.RECORDED, CLOCK));

    assertThat(samples).hasSize(200);
    NodeSample last = samples.get(199);
    assertThat(last.missing())
        .containsOnlyKeys(NodePart.CPU, NodePart.FILESYSTEM, NodePart.DISK_IO, NodePart.PHYSICAL_DISK, NodePart.SYSTEM);
    assertThat(last.missing().get(NodePart.CPU)).contains("only Processor(_Total)");
    // The log has \Memory\* but neither the physical memory size nor Process(_Total) working set: the rest is served.
    // Row 199 as logged (Python): 2408849408, 17138343936, 20752441344, 655228928, 360898560; page faults
    // Σ rows 1..199 of rate × interval = 4697491.66; modified and standby lists 40177664, 150097920, 1756938240,
    // 140914688; Pages/sec Σ rows 1..199 of rate × interval = 944415.26
    NodeMemory memory = last.memory();
    assertThat(memory).isNotNull();
    assertThat(memory.totalBytes()).isNull();
    assertThat(memory.workingSetBytes()).isNull();
    assertThat(memory.availableBytes()).isEqualTo(2_408_849_408L);
    assertThat(memory.committedBytes()).isEqualTo(17_138_343_936L);
    assertThat(memory.usageBytes()).as("committed, as the kubelet reports Windows usage").isEqualTo(17_138_343_936L);
    assertThat(memory.commitLimitBytes()).isEqualTo(20_752_441_344L);
    assertThat(memory.cacheBytes()).isEqualTo(655_228_928L);
    assertThat(memory.freeBytes()).isEqualTo(360_898_560L);
    assertThat(memory.pageFaults()).isEqualTo(4_697_492L);
    assertThat(memory.modifiedPageListBytes()).isEqualTo(40_177_664L);
    assertThat(memory.standbyCacheCoreBytes()).isEqualTo(150_097_920L);
    assertThat(memory.standbyCacheNormalPriorityBytes()).isEqualTo(1_756_938_240L);
    assertThat(memory.standbyCacheReserveBytes()).isEqualTo(140_914_688L);
    assertThat(memory.swapPageOperations()).isEqualTo(944_415L);
    NetworkInterfaceCounters nic = last.interfaces().get(0);
    assertThat(last.interfaces()).hasSize(1);
    assertThat(nic.name()).isEqualTo("Intel[R] 82579V Gigabit Network Connection");
    // Σ rows 1..199 of rate × interval (Python): 451801.43, 216976.52, 1446.89, 935.55
    assertThat(nic.rxBytes()).isEqualTo(451_801L);
    assertThat(nic.txBytes()).isEqualTo(216_977L);
    assertThat(nic.rxPackets()).isEqualTo(1_447L);
    assertThat(nic.txPackets()).isEqualTo(936L);
    // raw counts are taken as logged
    assertThat(nic.rxDropped()).isEqualTo(475L);
    assertThat(nic.rxErrors()).isZero();
    assertThat(samples.get(0).interfaces().get(0).rxBytes()).isZero();
  }

  // ------------------------------------------------------------ helpers

  static List<NodeSample> drain(ReplayNodeSource source) {
    List<NodeSample> samples = new ArrayList<>();
    while (true) {
      try {
        samples.add(source.sample());
      } catch (NodeSourceException e) {
        assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.END_OF_LOG);
        return samples;
      }
    }
  }

  /** Σ (pct/100 × interval × 12) over rows 1.., read with a plain split (this log has no quotes or commas in cells). */
  private static long independentCpuIntegral(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    List<String> header = List.of(lines.get(0).substring(1, lines.get(0).length() - 1).split("\",\""));
    int column = header.indexOf("\\\\DESKTOP-5GTCQEM\\Processor(_Total)\\% Processor Time");
    DateTimeFormatter format = DateTimeFormatter.ofPattern("MM/dd/yyyy HH:mm:ss.SSS");
    double coreSeconds = 0;
    LocalDateTime previous = null;
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.substring(1, line.length() - 1).split("\",\"");
      LocalDateTime time = LocalDateTime.parse(cells[0], format);
      if (previous != null) {
        coreSeconds += Double.parseDouble(cells[column]) / 100 * Duration.between(previous, time).toMillis() / 1000.0
            * 12;
      }
      previous = time;
    }
    return Math.round(coreSeconds * 1e9);
  }
}
