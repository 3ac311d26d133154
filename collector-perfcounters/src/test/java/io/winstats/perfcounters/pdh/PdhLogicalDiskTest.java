package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.binding.LogicalDiskBinding.LogicalDiskCounter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code \LogicalDisk(*)}'s I/O through {@link FakePdhLibrary} with the synthetic-4cpu fixture (made up, not
 * recorded): the figures windows_exporter v0.31.8's logical_disk collector serves, read as its PDH collector reads them
 * ({@code internal/pdh/collector.go:380-382,415-437@v0.31.8}: {@code _Total} dropped, a {@code
 * PERF_PRECISION_100NS_TIMER} as FirstValue × 1e-7 s, any other type, the {@code PERF_COUNTER_100NS_QUEUELEN_TYPE}
 * queue lengths among them, as FirstValue, which {@code internal/collector/logical_disk/logical_disk.go:409-421,
 * 493-512@v0.31.8} multiplies by 1e-7).
 */
class PdhLogicalDiskTest {
  @TempDir Path kubeletRoot;

  private static final String FIXTURE = "fixtures/pdh/synthetic-4cpu/sample-1.tsv";
  private static final String AVG_READ = LogicalDiskCounter.AVG_DISK_SEC_PER_READ.path().toString();
  private static final String READ_QUEUE = LogicalDiskCounter.AVG_DISK_READ_QUEUE_LENGTH.path().toString();
  private static final String SPLIT_IO = LogicalDiskCounter.SPLIT_IO.path().toString();

  private final FakePdhLibrary fake = new FakePdhLibrary().load(FIXTURE);
  private final AtomicLong nanos = new AtomicLong(1_000);
  private final CapturingLogger log = new CapturingLogger();
  private PdhNodeSource source;

  private NodeSample sample() {
    if (source == null) {
      PdhSourceOptions options =
          FakeSourceOptions.of(
              Duration.ofSeconds(30), WorkingSetDefinition.KUBELET, kubeletRoot, nanos::incrementAndGet, log);
      Clock clock = Clock.fixed(Instant.parse("2025-01-15T10:00:05Z"), ZoneOffset.UTC);
      source = new PdhNodeSource(fake, clock, List.of(), options);
    }
    return source.sample();
  }

  private static DiskIoCounters volume(NodeSample s, String name) {
    return s.disks().stream().filter(d -> d.device().equals(name)).findFirst().orElseThrow();
  }

  @AfterEach
  void close() {
    if (source != null) {
      source.close();
    }
  }

  @Test
  void everyVolumeButTheTotalWithEveryFigure() {
    NodeSample s = sample();

    assertThat(s.missing()).doesNotContainKey(NodePart.DISK_IO);
    assertThat(s.disks()).extracting(DiskIoCounters::device).containsExactly("C:", "D:", "HarddiskVolume1");
    // The fixture's raw values: counts as they are, 100 ns timers and queue integrals x 100 ns, average timers
    // / 10 MHz; the busy time starts at 0 where the source first sees the volume; no weighted I/O time on Windows.
    assertThat(volume(s, "C:"))
        .isEqualTo(
            DiskIoCounters.builder("C:")
                .readBytes(1_000_000)
                .writtenBytes(2_000_000)
                .reads(100)
                .writes(200)
                .readTimeNanos(500_000_000L)
                .writeTimeNanos(700_000_000L)
                .ioTimeNanos(0)
                .queueLength(2)
                .weightedIoTimeNanos(null)
                .idleTimeNanos(9_000_000_000L)
                .splitIos(3L)
                .readQueueNanos(600_000_000L)
                .writeQueueNanos(800_000_000L)
                .readLatencyNanos(500_000_000L)
                .writeLatencyNanos(700_000_000L)
                .transferLatencyNanos(1_200_000_000L)
                .build());
  }

  @Test
  void idleTimeQueuesSplitIosAndLatenciesAdvanceByTheRawDelta() {
    DiskIoCounters first = volume(sample(), "C:");
    fake.advance(2);
    DiskIoCounters second = volume(sample(), "C:");

    // % Idle Time keeps the fixture's 90 % of its base: 1.8 s of 2 s.
    assertThat(second.idleTimeNanos() - first.idleTimeNanos()).isEqualTo(1_800_000_000L);
    // A mean read queue of 0.6 and write queue of 0.8 for 2 s: 1.2 and 1.6 request-seconds.
    assertThat(second.readQueueNanos() - first.readQueueNanos()).isEqualTo(1_200_000_000L);
    assertThat(second.writeQueueNanos() - first.writeQueueNanos()).isEqualTo(1_600_000_000L);
    assertThat(second.splitIos() - first.splitIos()).isEqualTo(2 * 3);
    assertThat(second.readLatencyNanos() - first.readLatencyNanos()).isEqualTo(2 * 500_000_000L);
    assertThat(second.transferLatencyNanos() - first.transferLatencyNanos()).isEqualTo(2 * 1_200_000_000L);
  }

  /** The 32-bit FirstValue of an average timer wraps at 2^32 ticks; the total goes on by the increase. */
  @Test
  void anAverageTimersWrapIsCarried() {
    fake.setItem(AVG_READ, "C:", 0xFFFF_FF00L);
    long before = volume(sample(), "C:").readLatencyNanos();
    fake.setItem(AVG_READ, "C:", 0x100L);
    long after = volume(sample(), "C:").readLatencyNanos();

    assertThat(after - before).isEqualTo(0x200L * 100L);
  }

  /** A latency total PDH cannot give leaves that figure out, not the volume. */
  @Test
  void aLatencyTotalWithoutATimeBaseLeavesOnlyThatFigureOut() {
    fake.setType(AVG_READ, PerfCounterType.PERF_AVERAGE_TIMER, 0L);

    DiskIoCounters c = volume(sample(), "C:");

    assertThat(c.readLatencyNanos()).isNull();
    assertThat(c.writeLatencyNanos()).isEqualTo(700_000_000L);
  }

  /** An optional counter PDH cannot add (an older build's object) leaves its figure out, not the volume. */
  @Test
  void anOptionalCounterPdhCannotAddLeavesOnlyItsFigureOut() {
    fake.failAdd(SPLIT_IO, PdhStatus.PDH_CSTATUS_NO_COUNTER);
    fake.setItems(READ_QUEUE, List.of());

    NodeSample s = sample();

    assertThat(s.missing()).doesNotContainKey(NodePart.DISK_IO);
    DiskIoCounters c = volume(s, "C:");
    assertThat(c.splitIos()).isNull();
    assertThat(c.readQueueNanos()).isNull();
    assertThat(c.writeQueueNanos()).isEqualTo(800_000_000L);
    assertThat(c.reads()).isEqualTo(100);
  }
}
