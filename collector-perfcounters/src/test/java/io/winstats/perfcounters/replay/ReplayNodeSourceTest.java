package io.winstats.perfcounters.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplayNodeSourceTest {

  /**
   * Two cores, intervals of 1 s, 3 s and 0.5 s; row 3 has a blank total. A hand-made log: the interval arithmetic is
   * the point, so the numbers are round.
   */
  private static final String LOG =
      """
      "(PDH-CSV 4.0) (Pacific Daylight Time)(420)","\\\\H\\Processor(0)\\% User Time","\\\\H\\Processor(1)\\% User Time","\\\\H\\Processor(_Total)\\% Processor Time","\\\\H\\System\\Processes","\\\\H\\System\\Context Switches/sec","\\\\H\\System\\System Up Time"
      "11/21/2026 08:00:00.000"," "," "," ","100"," ","3600"
      "11/21/2026 08:00:01.000","10","30","50","101","1000","3601"
      "11/21/2026 08:00:04.000","20","0","25","102","2000","3604"
      "11/21/2026 08:00:04.500","40","40"," ","103","4000","3604.5"
      "11/21/2026 08:00:05.500","100","100","100","104","0","3605.5"
      """;

  @TempDir Path dir;

  private Path log() throws IOException {
    return Files.writeString(dir.resolve("log.csv"), LOG.replace("\n", "\r\n"));
  }

  @Test
  void integratesOverEachRowsActualInterval() throws IOException {
    List<NodeSample> samples =
        RealPerfmonLogsTest.drain(ReplayNodeSource.open(log(), Double.POSITIVE_INFINITY, null, ReplayNodeSource.Timeline.RECORDED, fixedClock()));

    assertThat(samples).hasSize(5);
    // _Total: 50% × 1 s × 2 cores = 1 s; + 25% × 3 s × 2 = 1.5 s; row 3 blank (a gap); + 100% × 1 s × 2 = 2 s
    assertThat(samples).extracting(s -> s.cpu() == null ? null : s.cpu().usageCoreNanos())
        .containsExactly(0L, 1_000_000_000L, 2_500_000_000L, null, 4_500_000_000L);
    assertThat(samples.get(3).missing().get(NodePart.CPU))
        .isEqualTo("row 3 has no value for \\\\H\\Processor(_Total)\\% Processor Time");
    // core 0 user: 10% × 1 s + 20% × 3 s + 40% × 0.5 s + 100% × 1 s = 1.9 s; core 1: 0.3 + 0 + 0.2 + 1 = 1.5 s
    assertThat(samples.get(4).cpu().cores().get(0).nanos(CpuMode.USER)).isEqualTo(1_900_000_000L);
    assertThat(samples.get(4).cpu().cores().get(1).nanos(CpuMode.USER)).isEqualTo(1_500_000_000L);
    // System: 1000 × 1 + 2000 × 3 + 4000 × 0.5 + 0 × 1 context switches
    assertThat(samples).extracting(s -> s.system().contextSwitches())
        .containsExactly(0L, 1000L, 7000L, 9000L, 9000L);
    assertThat(samples.get(2).system().processes()).isEqualTo(102);
    // 08:00:04 local, UTC = local + 420 min; booted an hour and 4 s before
    assertThat(samples.get(2).timestamp()).isEqualTo(Instant.parse("2026-11-21T15:00:04Z"));
    assertThat(samples.get(2).system().bootTime()).isEqualTo(Instant.parse("2026-11-21T14:00:00Z"));
    assertThat(samples).extracting(NodeSample::monotonicNanos)
        .containsExactly(0L, 1_000_000_000L, 4_000_000_000L, 4_500_000_000L, 5_500_000_000L);
  }

  @Test
  void idleIsDerivedFromProcessorTimeAndMemoryIsServedWithoutThePhysicalSize(@TempDir Path tmp) throws IOException {
    Path file =
        Files.writeString(
            tmp.resolve("typeperf.csv"),
            """
            "(PDH-CSV 4.0) (","\\\\H\\Processor(0)\\% Processor Time","\\\\H\\Memory\\Available Bytes","\\\\H\\Memory\\Committed Bytes","\\\\H\\Memory\\Commit Limit"
            "01/01/2026 00:00:00.000"," ","1000","2000","3000"
            "01/01/2026 00:00:02.000","25","1100","2100","3000"
            "01/01/2026 00:00:06.000","50","1200"," ","3000"
            """);
    List<NodeSample> samples =
        RealPerfmonLogsTest.drain(
            ReplayNodeSource.open(file, Double.POSITIVE_INFINITY, null, ReplayNodeSource.Timeline.RECORDED, fixedClock()));

    // idle = (100 - 25)% × 2 s + (100 - 50)% × 4 s = 1.5 s + 2 s; busy 0.5 s + 2 s: together the 6 s span
    assertThat(samples).extracting(s -> s.cpu().cores().get(0).nanos(CpuMode.IDLE))
        .containsExactly(0L, 1_500_000_000L, 3_500_000_000L);
    assertThat(samples.get(2).cpu().usageCoreNanos()).isEqualTo(2_500_000_000L);
    NodeMemory memory = samples.get(2).memory();
    assertThat(memory.totalBytes()).isNull();
    assertThat(memory.workingSetBytes()).isNull();
    assertThat(memory.availableBytes()).isEqualTo(1200L);
    assertThat(memory.committedBytes()).as("blank in that row").isNull();
    assertThat(memory.commitLimitBytes()).isEqualTo(3000L);
    assertThat(samples.get(2).missing()).doesNotContainKey(NodePart.MEMORY);
  }

  @Test
  void pacesAtTheRecordedSpeed() throws IOException {
    MutableClock clock = new MutableClock();
    ReplayNodeSource source = ReplayNodeSource.open(log(), 1, null, ReplayNodeSource.Timeline.RECORDED, clock);

    assertThat(source.sample().monotonicNanos()).isZero();
    clock.advance(Duration.ofMillis(999));
    assertThat(source.sample().monotonicNanos()).as("row 1 is not due yet: row 0 again").isZero();
    clock.advance(Duration.ofMillis(1));
    assertThat(source.sample().monotonicNanos()).isEqualTo(1_000_000_000L);
    clock.advance(Duration.ofMillis(3_600));
    assertThat(source.sample().monotonicNanos()).as("rows 2 and 3 are due; the latest is returned")
        .isEqualTo(4_500_000_000L);
    clock.advance(Duration.ofSeconds(60));
    assertThat(source.sample().monotonicNanos()).isEqualTo(5_500_000_000L);
    assertThatThrownBy(source::sample)
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.END_OF_LOG));
  }

  @Test
  void theReplayTimelineStampsEachRowWhenItIsDue() throws IOException {
    MutableClock clock = new MutableClock();
    Instant start = clock.instant();
    ReplayNodeSource source = ReplayNodeSource.open(log(), 4, null, ReplayNodeSource.Timeline.REPLAY, clock);

    assertThat(source.sample().timestamp()).isEqualTo(start);
    clock.advance(Duration.ofMillis(1_100));
    NodeSample due = source.sample();
    assertThat(due.monotonicNanos()).as("logged offset kept for rates").isEqualTo(4_000_000_000L);
    assertThat(due.timestamp()).as("4 log seconds at speed 4 fall 1 s into the replay").isEqualTo(start.plusSeconds(1));
  }

  @Test
  void pacesFasterWithASpeedFactor() throws IOException {
    MutableClock clock = new MutableClock();
    ReplayNodeSource source = ReplayNodeSource.open(log(), 4, null, ReplayNodeSource.Timeline.RECORDED, clock);

    source.sample();
    clock.advance(Duration.ofSeconds(1));
    assertThat(source.sample().monotonicNanos()).as("4 log seconds in 1 s").isEqualTo(4_000_000_000L);
  }

  @Test
  void aRowWithNoPartThrowsAndReplayContinues(@TempDir Path tmp) throws IOException {
    Path file =
        Files.writeString(
            tmp.resolve("blank.csv"),
            """
            "(PDH-CSV 4.0) (","\\\\H\\System\\Processes"
            "01/01/2026 00:00:00.000","5"
            "01/01/2026 00:00:01.000"," "
            "01/01/2026 00:00:02.000","7"
            """);
    ReplayNodeSource source = ReplayNodeSource.open(file, Double.POSITIVE_INFINITY, null, ReplayNodeSource.Timeline.RECORDED, fixedClock());

    assertThat(source.sample().system().processes()).isEqualTo(5);
    assertThatThrownBy(source::sample)
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.NOT_FOUND))
        .hasMessageContaining("row 1");
    assertThat(source.sample().system().processes()).isEqualTo(7);
    assertThat(source.rowCount()).isEqualTo(3);
  }

  @Test
  void refusesMissingFilesLogsWithoutRowsAndBadSpeeds(@TempDir Path tmp) throws IOException {
    Path empty = Files.writeString(tmp.resolve("empty.csv"), "\"(PDH-CSV 4.0) (\",\"\\\\H\\System\\Processes\"\r\n");

    assertThatThrownBy(() -> ReplayNodeSource.open(tmp.resolve("absent.csv"), 1, null, ReplayNodeSource.Timeline.RECORDED, fixedClock()))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.NOT_FOUND));
    assertThatThrownBy(() -> ReplayNodeSource.open(empty, 1, null, ReplayNodeSource.Timeline.RECORDED, fixedClock()))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.MALFORMED))
        .hasMessageContaining("no data row");
    assertThatThrownBy(() -> ReplayNodeSource.open(log(), 0, null, ReplayNodeSource.Timeline.RECORDED, fixedClock()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * relog keeps {@code LogicalDisk(*)} as Windows names the instances: lettered volumes, a volume without a letter
   * and {@code _Total}. Replay serves the space of the lettered ones, mounted at their root, as the PDH source does
   * ({@code PdhLogicalDisk}), so that a volume's space and its I/O carry the same name.
   */
  @Test
  void volumesAreTheLetteredInstancesMountedAtTheirRoot(@TempDir Path tmp) throws IOException {
    String[] instances = {"C:", "HarddiskVolume1", "_Total"};
    StringBuilder header = new StringBuilder("\"(PDH-CSV 4.0) (\"");
    StringBuilder row = new StringBuilder("\"01/01/2026 00:00:00.000\"");
    for (String instance : instances) {
      header.append(",\"\\\\H\\LogicalDisk(").append(instance).append(")\\Free Megabytes\"");
      header.append(",\"\\\\H\\LogicalDisk(").append(instance).append(")\\% Free Space\"");
      row.append(",\"512\",\"25\"");
    }
    Path file = Files.writeString(tmp.resolve("relog.csv"), header + "\r\n" + row + "\r\n");

    List<NodeSample> samples =
        RealPerfmonLogsTest.drain(
            ReplayNodeSource.open(file, Double.POSITIVE_INFINITY, null, ReplayNodeSource.Timeline.RECORDED, fixedClock()));

    assertThat(samples.get(0).filesystems())
        .singleElement()
        .satisfies(
            fs -> {
              assertThat(fs.device()).isEqualTo("C:");
              assertThat(fs.mountpoint()).isEqualTo("C:\\");
              assertThat(fs.availableBytes()).isEqualTo(512L * 1024 * 1024);
              assertThat(fs.capacityBytes()).isEqualTo(4L * 512 * 1024 * 1024);
            });
  }

  private static Clock fixedClock() {
    return Clock.fixed(Instant.parse("2026-11-21T00:00:00Z"), ZoneOffset.UTC);
  }

  /** A clock the test moves by hand. */
  static final class MutableClock extends Clock {
    private Instant now = Instant.parse("2026-11-21T00:00:00Z");

    void advance(Duration by) {
      now = now.plus(by);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("not needed by the tests");
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
