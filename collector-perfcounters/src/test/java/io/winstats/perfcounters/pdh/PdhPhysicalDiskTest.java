package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.binding.PhysicalDiskBinding.PhysicalDiskCounter;
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
 * {@code \PhysicalDisk(*)} through {@link FakePdhLibrary} with the synthetic-4cpu fixture (made up, not recorded): the
 * figures windows_exporter v0.31.8's physical_disk collector serves, read as its PDH collector reads them
 * ({@code internal/pdh/collector.go:380-382,415-437@v0.31.8}: {@code _Total} dropped, a {@code
 * PERF_PRECISION_100NS_TIMER} as FirstValue × 1e-7 s, any other type as FirstValue).
 */
class PdhPhysicalDiskTest {
  @TempDir Path kubeletRoot;

  private static final String FIXTURE = "fixtures/pdh/synthetic-4cpu/sample-1.tsv";
  private static final String AVG_READ = PhysicalDiskCounter.AVG_DISK_SEC_PER_READ.path().toString();
  private static final String READS = PhysicalDiskCounter.DISK_READS.path().toString();

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

  @AfterEach
  void close() {
    if (source != null) {
      source.close();
    }
  }

  @Test
  void everyDiskButTheTotalWithItsTwelveFigures() {
    NodeSample s = sample();

    assertThat(s.missing()).doesNotContainKey(NodePart.PHYSICAL_DISK);
    assertThat(s.physicalDisks()).extracting(PhysicalDiskCounters::instance).containsExactly("0 C:", "1 D:");
    assertThat(s.physicalDisks()).extracting(PhysicalDiskCounters::diskNumber).containsExactly("0", "1");
    // The fixture's raw values: counts as they are, 100 ns timers x 100 ns, average timers / 10 MHz.
    assertThat(s.physicalDisks().get(0))
        .isEqualTo(
            PhysicalDiskCounters.builder("0 C:")
                .readBytes(3_000_000)
                .writtenBytes(4_000_000)
                .reads(300)
                .writes(400)
                .readTimeNanos(2_000_000_000L)
                .writeTimeNanos(3_000_000_000L)
                .idleTimeNanos(90_000_000_000L)
                .splitIos(7)
                .queueLength(1)
                .readLatencyNanos(600_000_000L)
                .writeLatencyNanos(800_000_000L)
                .transferLatencyNanos(1_400_000_000L)
                .build());
  }

  @Test
  void countsAndTimersAdvanceByTheRawDelta() {
    PhysicalDiskCounters first = sample().physicalDisks().get(1);
    fake.advance(2);
    PhysicalDiskCounters second = sample().physicalDisks().get(1);

    assertThat(second.reads() - first.reads()).isEqualTo(2 * 50);
    assertThat(second.readBytes() - first.readBytes()).isEqualTo(2 * 500_000);
    // % Idle Time keeps the fixture's 99 % of its base: 1.98 s of 2 s.
    assertThat(second.idleTimeNanos() - first.idleTimeNanos()).isEqualTo(1_980_000_000L);
    assertThat(second.readLatencyNanos() - first.readLatencyNanos()).isEqualTo(2 * 50_000_000L);
  }

  /** The 32-bit FirstValue of an average timer wraps at 2^32 ticks; the total goes on by the increase. */
  @Test
  void anAverageTimersWrapIsCarried() {
    fake.setItem(AVG_READ, "0 C:", 0xFFFF_FF00L);
    long before = sample().physicalDisks().get(0).readLatencyNanos();
    fake.setItem(AVG_READ, "0 C:", 0x100L);
    long after = sample().physicalDisks().get(0).readLatencyNanos();

    assertThat(after - before).isEqualTo(0x200L * 100L);
  }

  /** A latency total PDH cannot give leaves that figure out, not the disk. */
  @Test
  void aLatencyTotalWithoutATimeBaseLeavesOnlyThatFigureOut() {
    fake.setType(AVG_READ, PerfCounterType.PERF_AVERAGE_TIMER, 0L);

    PhysicalDiskCounters disk = sample().physicalDisks().get(0);

    assertThat(disk.readLatencyNanos()).isNull();
    assertThat(disk.writeLatencyNanos()).isEqualTo(800_000_000L);
  }

  @Test
  void aNeededCounterThatFailsLeavesThePartOutNamingIt() {
    fake.failCollect(PhysicalDiskCounter.OBJECT, PdhStatus.PDH_CSTATUS_NO_OBJECT);

    NodeSample s = sample();

    assertThat(s.physicalDisks()).isEmpty();
    assertThat(s.missing().get(NodePart.PHYSICAL_DISK)).contains("\\PhysicalDisk(*)\\");
    assertThat(s.disks()).isNotEmpty();
  }

  @Test
  void aDiskMissingFromANeededCounterIsLeftOut() {
    fake.setItems(READS, List.of());

    NodeSample s = sample();

    assertThat(s.physicalDisks()).isEmpty();
    assertThat(s.missing()).doesNotContainKey(NodePart.PHYSICAL_DISK);
  }
}
