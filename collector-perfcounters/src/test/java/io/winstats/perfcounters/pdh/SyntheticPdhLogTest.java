package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.ProcessorCounters;
import io.winstats.perfcounters.replay.ReplayNodeSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SyntheticPdhLog}: the synthetic host recorded through {@link PdhNodeSource} and the daemon's recorder, and
 * replayed, has every node part, the fixture's instantaneous figures, and the fixture's values as its per-second
 * rates.
 */
class SyntheticPdhLogTest {
  private static final Instant START = Instant.parse("2026-01-05T08:00:00Z");
  private static final int ROWS = 31;
  private static final double SECONDS = ROWS - 2;

  @TempDir Path dir;

  private List<NodeSample> replayed() throws IOException {
    Path log = dir.resolve("synthetic.csv");
    SyntheticPdhLog.write(log, "SYNTHETIC", START, ROWS);
    assertThat(Files.readString(log)).startsWith("\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\"");
    ReplayNodeSource replay =
        ReplayNodeSource.open(log, Double.POSITIVE_INFINITY, null, ReplayNodeSource.Timeline.RECORDED, Clock.systemUTC());
    List<NodeSample> samples = new ArrayList<>();
    while (true) {
      try {
        samples.add(replay.sample());
      } catch (NodeSourceException e) {
        assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.END_OF_LOG);
        return samples;
      }
    }
  }

  @Test
  void everyNodePartAndTheFixturesInstantaneousFigures() throws IOException {
    List<NodeSample> samples = replayed();
    assertThat(samples).hasSize(ROWS);
    NodeSample last = samples.get(ROWS - 1);
    assertThat(last.missing()).isEmpty();
    assertThat(last.timestamp()).isEqualTo(START.plusSeconds(ROWS - 1));
    assertThat(last.memory().totalBytes()).as("GlobalMemoryStatusEx, recorded as \\Winstats Node").isEqualTo(17_179_869_184L);
    assertThat(last.memory().availableBytes()).isEqualTo(4_294_967_296L);
    assertThat(last.memory().workingSetBytes()).isEqualTo(2_147_483_648L);
    assertThat(last.cpu().cores()).hasSize(4);
    assertThat(last.cpu().processors()).extracting(ProcessorCounters::core).containsExactly("0,0", "0,1", "1,0", "1,1");
    ProcessorCounters core10 = last.cpu().processors().get(2);
    assertThat(core10.parkingStatus()).isEqualTo(1);
    assertThat(core10.frequencyMhz()).isEqualTo(2_400);
    assertThat(core10.utility()).as("a log holds a PERF_AVERAGE_BULK's ratio only").isNull();
    assertThat(core10.rtcTicks()).isNull();
    assertThat(last.filesystems()).extracting(FilesystemUsage::mountpoint).containsExactly("C:\\", "D:\\");
    assertThat(last.filesystems().get(0).capacityBytes()).isEqualTo(102_400L << 20);
    assertThat(last.filesystems().get(0).availableBytes()).isEqualTo(51_200L << 20);
    assertThat(last.disks()).extracting(DiskIoCounters::device).containsExactly("C:", "D:", "HarddiskVolume1");
    assertThat(disk(last, "C:").readLatencyNanos()).as("a log holds no average timer's total").isNull();
    assertThat(disk(last, "C:").splitIos()).as("Split IO/Sec, integrated from row 0").isNotNull();
    assertThat(last.physicalDisks()).extracting(PhysicalDiskCounters::instance).containsExactly("0 C:", "1 D:");
    assertThat(last.physicalDisks().get(0).queueLength()).isEqualTo(1);
    assertThat(last.physicalDisks().get(0).readLatencyNanos()).as("a log holds no average timer's total").isNull();
    assertThat(last.system().processes()).isEqualTo(150);
    assertThat(last.system().processorQueueLength()).isEqualTo(3);
    assertThat(last.system().bootTime()).as("System Up Time: an hour at the start, and it moves with the clock")
        .isEqualTo(START.minus(Duration.ofHours(1)));
  }

  /** Rates between the second row (the first with a rate) and the last: the fixture's values per second. */
  @Test
  void cumulativeFiguresGrowByTheFixturesValuesPerSecond() throws IOException {
    List<NodeSample> samples = replayed();
    NodeSample from = samples.get(1);
    NodeSample to = samples.get(ROWS - 1);
    assertThat(perSecond(core(to, "0,0").nanos(CpuMode.USER), core(from, "0,0").nanos(CpuMode.USER)))
        .as("1,000,000 ticks of 100 ns a second").isCloseTo(1e8, within(1e3));
    assertThat(perSecond(core(to, "1,1").nanos(CpuMode.IDLE), core(from, "1,1").nanos(CpuMode.IDLE)))
        .isCloseTo(5.1e8, within(1e3));
    ProcessorCounters cpu0 = from.cpu().processors().get(0);
    ProcessorCounters cpu1 = to.cpu().processors().get(0);
    assertThat(perSecond(cpu1.interrupts(), cpu0.interrupts())).isCloseTo(1_000, within(1e-6));
    assertThat(perSecond(cpu1.idleBreakEvents(), cpu0.idleBreakEvents())).isCloseTo(300, within(1e-6));
    assertThat(perSecond(cpu1.c1TimeNanos(), cpu0.c1TimeNanos())).as("% C1 Time 30").isCloseTo(3e8, within(1e3));
    DiskIoCounters c0 = disk(from, "C:");
    DiskIoCounters c1 = disk(to, "C:");
    assertThat(perSecond(c1.reads(), c0.reads())).isCloseTo(100, within(1e-6));
    assertThat(perSecond(c1.readBytes(), c0.readBytes())).isCloseTo(1e6, within(1e-3));
    assertThat(perSecond(c1.readTimeNanos(), c0.readTimeNanos())).as("5 ms for each of 100 reads").isCloseTo(5e8, within(1e3));
    assertThat(perSecond(c1.ioTimeNanos(), c0.ioTimeNanos())).as("% Idle Time 90").isCloseTo(1e8, within(1e3));
    assertThat(perSecond(c1.idleTimeNanos(), c0.idleTimeNanos())).as("% Idle Time 90").isCloseTo(9e8, within(1e3));
    assertThat(perSecond(c1.splitIos(), c0.splitIos())).isCloseTo(3, within(1e-6));
    assertThat(perSecond(c1.readQueueNanos(), c0.readQueueNanos())).as("a mean read queue of 0.6")
        .isCloseTo(6e8, within(1e3));
    assertThat(perSecond(c1.writeQueueNanos(), c0.writeQueueNanos())).as("a mean write queue of 0.8")
        .isCloseTo(8e8, within(1e3));
    PhysicalDiskCounters p0 = from.physicalDisks().get(0);
    PhysicalDiskCounters p1 = to.physicalDisks().get(0);
    assertThat(perSecond(p1.writes(), p0.writes())).isCloseTo(400, within(1e-6));
    assertThat(perSecond(p1.splitIos(), p0.splitIos())).isCloseTo(7, within(1e-6));
    assertThat(perSecond(p1.idleTimeNanos(), p0.idleTimeNanos())).as("% Idle Time 90").isCloseTo(9e8, within(1e3));
    assertThat(perSecond(p1.writeTimeNanos(), p0.writeTimeNanos())).as("% Disk Write Time 3").isCloseTo(3e7, within(1e3));
    assertThat(perSecond(to.system().contextSwitches(), from.system().contextSwitches())).isCloseTo(999_999, within(1e-3));
    assertThat(perSecond(to.memory().pageFaults(), from.memory().pageFaults())).isCloseTo(123_456, within(1e-3));
    List<NetworkInterfaceCounters> nics = to.interfaces();
    assertThat(nics).hasSize(2);
    NetworkInterfaceCounters nic0 = from.interfaces().get(0);
    assertThat(perSecond(nics.get(0).rxBytes(), nic0.rxBytes()))
        .as("a 32-bit count near 2^32 a second, unwrapped").isCloseTo(4_294_967_000d, within(1.0));
    assertThat(perSecond(nics.get(0).txBytes(), nic0.txBytes())).isCloseTo(5e9, within(1.0));
  }

  /**
   * The cells as Windows' typeperf formats them: {@code Avg. Disk Read Queue Length} as the mean queue length over the
   * interval ({@code PERF_COUNTER_100NS_QUEUELEN_TYPE}: delta of the queue sum / delta of the 100 ns time), {@code %
   * Idle Time} as a percentage; the fixture's C: reads with a mean queue of 0.6 and writes with 0.8, and is 90 % idle.
   */
  @Test
  void queueLengthsAreLoggedAsTheirMeanAndIdleTimeAsItsPercentage() throws IOException {
    Path log = dir.resolve("synthetic.csv");
    SyntheticPdhLog.write(log, "SYNTHETIC", START, 3);
    List<String> lines = Files.readAllLines(log);
    List<String> header = cells(lines.get(0));
    List<String> row = cells(lines.get(2));
    String c = "\\\\SYNTHETIC\\LogicalDisk(C:)\\";

    assertThat(Double.parseDouble(row.get(header.indexOf(c + "Avg. Disk Read Queue Length"))))
        .isCloseTo(0.6, within(1e-9));
    assertThat(Double.parseDouble(row.get(header.indexOf(c + "Avg. Disk Write Queue Length"))))
        .isCloseTo(0.8, within(1e-9));
    assertThat(Double.parseDouble(row.get(header.indexOf(c + "% Idle Time")))).isCloseTo(90, within(1e-9));
    assertThat(header).as("% Idle Time fills two figures and is one column").containsOnlyOnce(c + "% Idle Time");
  }

  private static List<String> cells(String line) {
    List<String> cells = new ArrayList<>();
    Matcher m = Pattern.compile("\"((?:[^\"]|\"\")*)\"").matcher(line);
    while (m.find()) {
      cells.add(m.group(1).replace("\"\"", "\""));
    }
    return cells;
  }

  private static double perSecond(long to, long from) {
    return (to - from) / SECONDS;
  }

  private static CoreCpuTime core(NodeSample s, String name) {
    return s.cpu().cores().stream().filter(c -> c.core().equals(name)).findFirst().orElseThrow();
  }

  private static DiskIoCounters disk(NodeSample s, String device) {
    return s.disks().stream().filter(d -> d.device().equals(device)).findFirst().orElseThrow();
  }
}
