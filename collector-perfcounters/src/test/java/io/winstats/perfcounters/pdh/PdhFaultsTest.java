package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.WorkingSetDefinition;

import io.winstats.perfcounters.binding.MemoryBinding.MemoryCounter;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding.NetworkInterfaceCounter;
import io.winstats.perfcounters.binding.ProcessorBinding.ProcessorInformationCounter;
import io.winstats.perfcounters.counters.CounterHealth;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counter faults that {@link PdhNodeSourceTest} does not already walk through to recovery, through {@link
 * FakePdhLibrary} and the synthetic fixture: invalid data and negative values that heal, a second sample while PDH is
 * still hung, and an instance renamed under a sampler that already knew the name. docs/RELIABILITY.md lists which test
 * covers which fault.
 */
class PdhFaultsTest {
  /** Stands in for the kubelet's root directory: its volume is read live. */
  @TempDir Path kubeletRoot;

  private static final Instant NOW = Instant.parse("2025-01-15T10:00:05Z");
  private static final String FIXTURE = "fixtures/pdh/synthetic-4cpu/sample-1.tsv";
  private static final String USER = ProcessorInformationCounter.USER_TIME.path().toString();
  private static final String AVAILABLE = MemoryCounter.AVAILABLE_BYTES.path().toString();
  private static final String NIC = "Microsoft Hyper-V Network Adapter";
  private static final int INVALID = PdhStatus.PDH_CSTATUS_INVALID_DATA.code();

  private final FakePdhLibrary fake = new FakePdhLibrary().load(FIXTURE);
  private final CapturingLogger log = new CapturingLogger();
  private final AtomicLong nanos = new AtomicLong(1_000);
  private final List<PdhNodeSource> opened = new ArrayList<>();

  @AfterEach
  void closeSources() {
    fake.releaseCollect();
    opened.forEach(PdhNodeSource::close);
  }

  private PdhNodeSource open(Duration deadline) {
    PdhSourceOptions options =
        FakeSourceOptions.of(deadline, WorkingSetDefinition.KUBELET, kubeletRoot, nanos::incrementAndGet, log);
    PdhNodeSource source = new PdhNodeSource(fake, Clock.fixed(NOW, ZoneOffset.UTC), List.of(), options);
    opened.add(source);
    return source;
  }

  private static CounterHealth health(PdhNodeSource source, String path) {
    return source.health().stream().filter(h -> h.path().equals(path)).findFirst().orElseThrow();
  }

  @Test
  void aCoreWithInvalidDataComesBackAndTheNodeTotalNeverDrops() {
    PdhNodeSource source = open(Duration.ofSeconds(30));
    long first = source.sample().cpu().usageCoreNanos();

    fake.setItem(USER, "0,1", INVALID, 0, 0);
    NodeSample degraded = source.sample();
    assertThat(degraded.cpu().cores()).extracting(CoreCpuTime::core).doesNotContain("0,1");
    assertThat(degraded.cpu().usageCoreNanos()).isEqualTo(first);

    fake.setItem(USER, "0,1", 0, 2_000_000 + 50, 133814088000000000L);
    NodeSample healed = source.sample();
    assertThat(healed.cpu().cores()).extracting(CoreCpuTime::core).containsExactly("0,0", "0,1", "1,0", "1,1");
    assertThat(healed.cpu().usageCoreNanos()).isEqualTo(first + 50 * 100L);
    assertThat(healed.missing()).isEmpty();
    assertThat(health(source, USER).skippedInstances()).isZero();
  }

  @Test
  void aNegativeValueHealsOnTheNextGoodReading() {
    PdhNodeSource source = open(Duration.ofSeconds(30));
    fake.setItem(AVAILABLE, "", -5);
    assertThat(source.sample().memory().availableBytes()).isNull();
    assertThat(health(source, AVAILABLE).ok()).isFalse();

    fake.setItem(AVAILABLE, "", 4_000_000_000L);
    NodeSample healed = source.sample();
    assertThat(healed.memory().availableBytes()).isEqualTo(4_000_000_000L);
    assertThat(health(source, AVAILABLE).ok()).isTrue();
  }

  /** A hung PdhCollectQueryData: later samples time out at once instead of queueing behind it, then recover. */
  @Test
  void whilePdhStaysHungEverySampleTimesOutWithinItsDeadlineAndNothingQueues() throws Exception {
    PdhNodeSource source = open(Duration.ofMillis(200));
    source.sample();
    long collectsBefore = fake.count("PdhCollectQueryData");

    fake.hangCollect();
    for (int i = 0; i < 3; i++) {
      long start = System.nanoTime();
      assertThatThrownBy(source::sample)
          .isInstanceOfSatisfying(
              NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.TIMEOUT));
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }
    fake.awaitCollectEntered();
    assertThat(fake.count("PdhCollectQueryData"))
        .as("collects started: only the hung one")
        .isEqualTo(collectsBefore + 1);

    fake.releaseCollect();
    fake.awaitHungCollectLeft();
    NodeSample s = source.sample();
    assertThat(s.cpu()).isNotNull();
    assertThat(s.missing()).isEmpty();
  }

  /**
   * {@code PdhAddEnglishCounterW} succeeded, then {@code PdhGetCounterInfoW} failed: without the counter's type its raw
   * value cannot be read (the size bit decides the wrap), so the source does not track the counter, and it removes it
   * with {@code PdhRemoveCounter} rather than leave it in the query (Microsoft Learn, {@code PdhAddEnglishCounterW}:
   * the add puts the counter in the query; {@code PdhRemoveCounter}: removes it). A later attempt adds it once more,
   * and the query then holds it exactly once.
   */
  @Test
  void aCounterWhoseTypeLookupFailsIsRemovedFromTheQueryAndAddedAgainLater() {
    fake.failCounterInfo(AVAILABLE, PdhStatus.PDH_MEMORY_ALLOCATION_FAILURE);
    PdhNodeSource source = open(Duration.ofSeconds(30));

    assertThat(fake.countersInQueries()).doesNotContain(AVAILABLE).contains(MemoryCounter.COMMITTED_BYTES.path().toString());
    assertThat(fake.calls()).contains("PdhRemoveCounter " + AVAILABLE);
    assertThat(health(source, AVAILABLE).ok()).isFalse();
    assertThat(health(source, AVAILABLE).call()).isEqualTo("PdhGetCounterInfoW");
    assertThat(source.sample().memory().availableBytes()).isNull();

    fake.failCounterInfo(AVAILABLE, null);
    NodeSample recovered = source.sample();

    assertThat(fake.countersInQueries()).filteredOn(AVAILABLE::equals).hasSize(1);
    assertThat(recovered.memory().availableBytes()).isEqualTo(4_294_967_296L);
    assertThat(health(source, AVAILABLE).ok()).isTrue();
  }

  /**
   * Two adapters share a name (PDH shows the second as {@code name#1}); the first is removed and PDH renames the
   * second to the plain name. Only network series change: {@code name#1} ends, and {@code name} carries the other
   * adapter's counters from then on. A 64-bit counter shows the switch as a decrease (a counter reset for rate()); a
   * 32-bit counter cannot tell a switch from a wrap, so the switch sample adds (new - old) mod 2^32 once, then exact
   * deltas follow. CPU, memory, disks and the health of every counter are untouched.
   */
  @Test
  void aRenamedInstanceTouchesOnlyItsOwnSeries() throws IOException {
    PdhNodeSource source = open(Duration.ofSeconds(30));
    NodeSample before = source.sample();
    NetworkInterfaceCounters first = nic(before, NIC);
    assertThat(before.interfaces()).extracting(NetworkInterfaceCounters::name).containsExactly(NIC, NIC + "#1");

    for (NetworkInterfaceCounter d : NetworkInterfaceCounter.values()) {
      String path = d.path().toString();
      PdhLibrary.RawCounter second = fixtureItems(path).get(1);
      fake.setItems(
          path,
          List.of(
              new PdhLibrary.RawCounterItem(
                  NIC, new PdhLibrary.RawCounter(0, 0, second.firstValue() + 100, second.secondValue(), 0))));
    }
    NodeSample renamed = source.sample();

    assertThat(renamed.interfaces()).extracting(NetworkInterfaceCounters::name).containsExactly(NIC);
    NetworkInterfaceCounters now = nic(renamed, NIC);
    assertThat(now.txBytes()).as("64-bit: passes through, a visible reset").isEqualTo(2_000L + 100);
    assertThat(now.rxBytes())
        .as("32-bit: one step of (new - old) mod 2^32")
        .isEqualTo(first.rxBytes() + ((1_000L + 100 - 4_294_967_000L) & 0xFFFF_FFFFL));
    assertThat(renamed.cpu()).isEqualTo(before.cpu());
    assertThat(renamed.memory()).isEqualTo(before.memory());
    assertThat(renamed.disks()).isEqualTo(before.disks());
    assertThat(renamed.missing()).isEmpty();
    assertThat(source.health()).allMatch(CounterHealth::ok);

    String rx = NetworkInterfaceCounter.BYTES_RECEIVED.path().toString();
    fake.setItems(
        rx,
        List.of(new PdhLibrary.RawCounterItem(NIC, new PdhLibrary.RawCounter(0, 0, 1_000L + 100 + 7, 0, 0))));
    assertThat(nic(source.sample(), NIC).rxBytes()).as("exact deltas after the switch").isEqualTo(now.rxBytes() + 7);
  }

  private static NetworkInterfaceCounters nic(NodeSample s, String name) {
    return s.interfaces().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
  }

  /** The raw items of one counter path in the fixture, in file order (the fake keeps them by path, not by position). */
  private static List<PdhLibrary.RawCounter> fixtureItems(String path) throws IOException {
    try (InputStream in = PdhFaultsTest.class.getClassLoader().getResourceAsStream(FIXTURE)) {
      List<PdhLibrary.RawCounter> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\\R")) {
        String[] f = line.split("\t");
        if (f[0].equals("item") && f[1].equalsIgnoreCase(path)) {
          out.add(new PdhLibrary.RawCounter(0, 0, Long.parseLong(f[4]), Long.parseLong(f[5]), 0));
        }
      }
      return out;
    }
  }
}
