package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.binding.LogicalDiskBinding.LogicalDiskCounter;
import io.winstats.perfcounters.binding.MemoryBinding.MemoryCounter;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding.NetworkInterfaceCounter;
import io.winstats.perfcounters.binding.PhysicalDiskBinding.PhysicalDiskCounter;
import io.winstats.perfcounters.binding.ProcessorBinding.ProcessorInformationCounter;
import io.winstats.perfcounters.binding.SystemBinding.SystemCounter;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.counters.InstanceValue;
import io.winstats.perfcounters.counters.CounterHealth;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.ValueOrigin;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.ProcessCounter;
import io.winstats.perfcounters.pdh.jna.JnaPdhLibrary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.slf4j.event.Level;

/**
 * {@link PdhNodeSource} through {@link FakePdhLibrary} fed with the synthetic fixture
 * {@code fixtures/pdh/synthetic-4cpu} (made up for the tests, not recorded on Windows).
 */
class PdhNodeSourceTest {
  /** Stands in for the kubelet's root directory: its volume is read live. */
  @TempDir Path kubeletRoot;

  private static final Instant NOW = Instant.parse("2025-01-15T10:00:05Z");
  private static final String FIXTURE = "fixtures/pdh/synthetic-4cpu/sample-1.tsv";

  private static final String USER = ProcessorInformationCounter.USER_TIME.path().toString();
  private static final String PRIVILEGED = ProcessorInformationCounter.PRIVILEGED_TIME.path().toString();
  private static final String RX_BYTES = NetworkInterfaceCounter.BYTES_RECEIVED.path().toString();
  private static final String TX_BYTES = NetworkInterfaceCounter.BYTES_SENT.path().toString();
  private static final String AVAILABLE = MemoryCounter.AVAILABLE_BYTES.path().toString();
  private static final String IDLE_DISK = LogicalDiskCounter.IDLE_TIME.path().toString();
  private static final String READ_TIME = LogicalDiskCounter.DISK_READ_TIME.path().toString();
  private static final String AVG_READ_TIME = LogicalDiskCounter.AVG_DISK_SEC_PER_READ.path().toString();
  private static final String NIC = "Microsoft Hyper-V Network Adapter";
  private static final String RX_ERRORS = NetworkInterfaceCounter.PACKETS_RECEIVED_ERRORS.path().toString();
  private static final int INVALID = PdhStatus.PDH_CSTATUS_INVALID_DATA.code();

  private final FakePdhLibrary fake = new FakePdhLibrary().load(FIXTURE);

  /** Every counter the source adds: an English path that parses back to itself, and never the legacy Processor object. */
  @Test
  void declaredCounterSetsAreWellFormedAndDistinct() {
    List<PerfCounter> all = PdhNodeSource.counters(WorkingSetDefinition.KUBELET);

    // Every counter the catalogue declares is added; a new enum constant is added without an edit here, and one left
    // out is named.
    Set<PerfCounter> declared = new LinkedHashSet<>();
    Stream.of(
            ProcessorInformationCounter.values(),
            MemoryCounter.values(),
            ProcessCounter.values(),
            NetworkInterfaceCounter.values(),
            LogicalDiskCounter.values(),
            PhysicalDiskCounter.values(),
            SystemCounter.values())
        .forEach(values -> declared.addAll(List.of(values)));
    Set<PerfCounter> notAdded = new LinkedHashSet<>(declared);
    all.forEach(notAdded::remove);
    assertThat(notAdded)
        .as("declared counters the PDH source does not add")
        .isEmpty();
    assertThat(all).extracting(d -> d.path().toString()).doesNotHaveDuplicates();
    for (PerfCounter d : all) {
      assertThat(CounterPath.parse(d.path().toString())).isEqualTo(d.path());
      assertThat(d.object()).isNotEqualTo("Processor");
    }
    assertThat(ProcessorInformationCounter.USER_TIME.path().toString())
        .isEqualTo("\\Processor Information(*)\\% User Time");
    assertThat(ProcessCounter.WORKING_SET_PRIVATE.path().toString()).isEqualTo("\\Process(_Total)\\Working Set - Private");
    assertThat(MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES.path().toString())
        .isEqualTo("\\Memory\\Free & Zero Page List Bytes");
    assertThat(SystemCounter.SYSTEM_UP_TIME.path().toString()).isEqualTo("\\System\\System Up Time");
  }
  private final CapturingLogger log = new CapturingLogger();
  private final AtomicLong nanos = new AtomicLong(1_000);
  private final List<PdhNodeSource> opened = new ArrayList<>();

  @AfterEach
  void closeSources() {
    opened.forEach(PdhNodeSource::close);
  }

  private PdhNodeSource open(List<CustomCounter> custom, Duration deadline) {
    return open(custom, deadline, Clock.fixed(NOW, ZoneOffset.UTC));
  }

  private PdhNodeSource open(Clock clock) {
    return open(List.of(), Duration.ofSeconds(30), clock);
  }

  private PdhNodeSource open(List<CustomCounter> custom, Duration deadline, Clock clock) {
    PdhSourceOptions options =
        FakeSourceOptions.of(deadline, WorkingSetDefinition.KUBELET, kubeletRoot, nanos::incrementAndGet, log);
    PdhNodeSource source = new PdhNodeSource(fake, clock, custom, options);
    opened.add(source);
    return source;
  }

  private PdhNodeSource open() {
    return open(List.of(), Duration.ofSeconds(30));
  }

  private static CoreCpuTime core(NodeSample s, String name) {
    return s.cpu().cores().stream().filter(c -> c.core().equals(name)).findFirst().orElseThrow();
  }

  private static NetworkInterfaceCounters nic(NodeSample s, String name) {
    return s.interfaces().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void cpuIsTheExactSumOfRawUserAndPrivilegedTimesOverCoresWithAggregatesDropped() {
    NodeSample s = open().sample();

    assertThat(s.origin()).isEqualTo(ValueOrigin.RAW);
    assertThat(s.missing()).isEmpty();
    assertThat(s.cpu().cores()).extracting(CoreCpuTime::core).containsExactly("0,0", "0,1", "1,0", "1,1");
    // user 1e6+2e6+3e6+4e6, privileged 5e5+6e5+7e5+8e5 (100 ns ticks) -> x100 ns; the _Total rows would add more.
    assertThat(s.cpu().usageCoreNanos()).isEqualTo((10_000_000L + 2_600_000L) * 100L);
    assertThat(s.cpu().logicalCores()).isEqualTo(4);
    CoreCpuTime c = core(s, "1,0");
    assertThat(c.nanos(CpuMode.USER)).isEqualTo(300_000_000L);
    assertThat(c.nanos(CpuMode.PRIVILEGED)).isEqualTo(70_000_000L);
    assertThat(c.nanos(CpuMode.IDLE)).isEqualTo(620_000_000L);
    assertThat(c.nanos(CpuMode.INTERRUPT)).isEqualTo(3_000_000L);
    assertThat(c.nanos(CpuMode.DPC)).isEqualTo(300_000L);
  }

  @Test
  void cpuAdvancesByTheRawDeltaNotByAnIntegratedPercentage() {
    PdhNodeSource source = open();
    long first = source.sample().cpu().usageCoreNanos();
    fake.setItem(USER, "0,0", 1_000_000 + 7);
    fake.setItem(PRIVILEGED, "1,1", 800_000 + 5);
    long second = source.sample().cpu().usageCoreNanos();

    assertThat(second - first).isEqualTo(12 * 100L);
  }

  /**
   * PDH stamps collects in local time. Across a daylight-saving change (Berlin, 2025-03-30 01:00 UTC) and then a
   * change of the machine's time zone (Berlin to New York), its stamps jump by +1 h and −6 h; the sample times follow
   * the clock, 10 s apart.
   */
  @Test
  void timestampIsTheClockAtCollectionAcrossDaylightSavingAndZoneChanges() {
    SteppingClock clock = new SteppingClock(Instant.parse("2025-03-30T00:59:55Z"));
    fake.setLocalFileTime(FakePdhLibrary.localFileTime(LocalDateTime.parse("2025-03-30T01:59:55")));
    PdhNodeSource source = open(clock);
    NodeSample beforeDst = source.sample();

    clock.advance(Duration.ofSeconds(10));
    fake.setLocalFileTime(FakePdhLibrary.localFileTime(LocalDateTime.parse("2025-03-30T03:00:05")));
    NodeSample afterDst = source.sample();

    clock.advance(Duration.ofSeconds(10));
    fake.setLocalFileTime(FakePdhLibrary.localFileTime(LocalDateTime.parse("2025-03-29T21:00:15")));
    NodeSample afterZoneChange = source.sample();

    assertThat(beforeDst.timestamp()).isEqualTo(Instant.parse("2025-03-30T00:59:55Z"));
    assertThat(afterDst.timestamp()).isEqualTo(Instant.parse("2025-03-30T01:00:05Z"));
    assertThat(afterZoneChange.timestamp()).isEqualTo(Instant.parse("2025-03-30T01:00:15Z"));
    assertThat(afterZoneChange.monotonicNanos()).isGreaterThan(afterDst.monotonicNanos());
  }

  /** PerfProc disabled: the absent Process object is tried again after 60 s, 120 s, 240 s, then every 240 s. */
  @Test
  void anAbsentObjectIsRetriedWithAGrowingBackoffThatSuccessResets() {
    String workingSet = "PdhAddEnglishCounterW " + ProcessCounter.WORKING_SET_PRIVATE.path();
    fake.removeObject("Process");
    SteppingClock clock = new SteppingClock(NOW);
    PdhSourceOptions options =
        new PdhSourceOptions(
            Duration.ofSeconds(30),
            Duration.ofSeconds(30),
            Duration.ofSeconds(60),
            Duration.ofSeconds(240),
            nanos::incrementAndGet,
            v -> "NTFS",
            WorkingSetDefinition.KUBELET,
            kubeletRoot,
            log);
    PdhNodeSource source = new PdhNodeSource(fake, clock, List.of(), options);
    opened.add(source);
    List<Long> retriedAtSeconds = new ArrayList<>();
    long adds = fake.count(workingSet);
    for (long t = 0; t <= 900; t += 30) {
      source.sample();
      if (fake.count(workingSet) > adds) {
        retriedAtSeconds.add(t);
        adds = fake.count(workingSet);
      }
      clock.advance(Duration.ofSeconds(30));
    }
    assertThat(retriedAtSeconds).containsExactly(60L, 180L, 420L, 660L, 900L);

    fake.restoreObject("Process");
    clock.advance(Duration.ofSeconds(210));
    assertThat(source.sample().memory().workingSetBytes()).isEqualTo(2_147_483_648L);
  }

  @Test
  void memoryFollowsKubeletSemantics() {
    NodeSample s = open().sample();

    assertThat(s.memory().totalBytes()).isEqualTo(17_179_869_184L);
    // The rest of the same GlobalMemoryStatusEx call (FakePdhLibrary's MEMORYSTATUSEX), as memory.go:364-384@v0.31.8
    // reads it: ullAvailPhys and ullTotalVirtual.
    assertThat(s.memory().physicalFreeBytes()).isEqualTo(9_126_805_504L);
    assertThat(s.memory().processMemoryLimitBytes()).isEqualTo(140_737_488_224_256L);
    assertThat(s.memory().workingSetBytes()).isEqualTo(2_147_483_648L);
    assertThat(s.memory().usageBytes()).isEqualTo(6_442_450_944L);
    assertThat(s.memory().committedBytes()).isEqualTo(6_442_450_944L);
    assertThat(s.memory().commitLimitBytes()).isEqualTo(10_737_418_240L);
    assertThat(s.memory().availableBytes()).isEqualTo(4_294_967_296L);
    assertThat(s.memory().cacheBytes()).isEqualTo(536_870_912L);
    assertThat(s.memory().freeBytes()).isEqualTo(1_073_741_824L);
    assertThat(s.memory().pageFaults()).isEqualTo(123_456L);
    assertThat(s.memory().majorPageFaults()).isNull();
    assertThat(s.memory().swapTotalBytes()).isNull();
    assertThat(s.memory().swapPageOperations()).isEqualTo(789L);
    assertThat(s.memory().modifiedPageListBytes()).isEqualTo(134_217_728L);
    assertThat(s.memory().standbyCacheCoreBytes()).isEqualTo(268_435_456L);
    assertThat(s.memory().standbyCacheNormalPriorityBytes()).isEqualTo(2_147_483_648L);
    assertThat(s.memory().standbyCacheReserveBytes()).isEqualTo(805_306_368L);
  }

  @Test
  void duplicateInstanceNamesGetAnOccurrenceSuffix() {
    NodeSample s = open().sample();

    assertThat(s.interfaces()).extracting(NetworkInterfaceCounters::name).containsExactly(NIC, NIC + "#1");
    assertThat(nic(s, NIC).rxBytes()).isEqualTo(4_294_967_000L);
    assertThat(nic(s, NIC + "#1").rxBytes()).isEqualTo(1_000L);
    assertThat(nic(s, NIC + "#1").txPackets()).isEqualTo(40L);
  }

  @Test
  void networkBandwidthQueueAndUnknownProtocolAreTheRawValues() {
    // net/types.go:45-53@v0.31.8 reads Current Bandwidth, Output Queue Length and Packets Received Unknown; the
    // collector serves them as read (net.go:348-417@v0.31.8), the bandwidth in bits here, divided by 8 in the exporter.
    NodeSample s = open().sample();

    assertThat(nic(s, NIC).currentBandwidthBits()).isEqualTo(10_000_000_000L);
    assertThat(nic(s, NIC + "#1").currentBandwidthBits()).isEqualTo(1_000_000_000L);
    assertThat(nic(s, NIC).outputQueuePackets()).isEqualTo(2L);
    assertThat(nic(s, NIC + "#1").outputQueuePackets()).isEqualTo(0L);
    assertThat(nic(s, NIC).rxUnknownProtocol()).isEqualTo(5L);
    assertThat(nic(s, NIC + "#1").rxUnknownProtocol()).isEqualTo(1L);
  }

  @Test
  void thirtyTwoBitNetworkCounterIsCarriedAcrossItsWrap() {
    PdhNodeSource source = open();
    source.sample();
    // Bytes Received/sec is a 32-bit PERF_COUNTER_COUNTER in the fixture: 4294967000 -> 200 is a wrap of 496 bytes.
    fake.setItems(
        RX_BYTES,
        List.of(
            item(NIC, 200, fake.item(RX_BYTES, NIC).secondValue()),
            item(NIC, 1_500, fake.item(RX_BYTES, NIC).secondValue())));
    // Bytes Sent/sec is 64-bit and passes through.
    fake.setItem(TX_BYTES, NIC, 5_000_000_100L);
    NodeSample s = source.sample();

    assertThat(nic(s, NIC).rxBytes()).isEqualTo(4_294_967_000L + 496L);
    assertThat(nic(s, NIC + "#1").rxBytes()).isEqualTo(1_500L);
    assertThat(nic(s, NIC).txBytes()).isEqualTo(5_000_000_100L);
  }

  private static PdhLibrary.RawCounterItem item(String instance, long first, long second) {
    return new PdhLibrary.RawCounterItem(instance, new PdhLibrary.RawCounter(0, 0, first, second, 0));
  }

  @Test
  void volumesComeFromPercentFreeSpaceWithoutTotalAndUnletteredVolumes() {
    NodeSample s = open().sample();

    assertThat(s.filesystems()).extracting(FilesystemUsage::device).containsExactly("C:", "D:");
    FilesystemUsage c = s.filesystems().get(0);
    assertThat(c.mountpoint()).isEqualTo("C:\\");
    assertThat(c.fsType()).isEqualTo("NTFS");
    assertThat(c.capacityBytes()).isEqualTo(102_400L << 20);
    assertThat(c.availableBytes()).isEqualTo(51_200L << 20);
    assertThat(c.usedBytes()).isEqualTo(51_200L << 20);
    assertThat(c.inodes()).isNull();
  }

  @Test
  void diskCountersAreCumulativeAndBusyTimeGrowsByElapsedMinusIdle() {
    PdhNodeSource source = open();
    NodeSample first = source.sample();
    DiskIoCounters c = first.disks().stream().filter(d -> d.device().equals("C:")).findFirst().orElseThrow();
    assertThat(first.disks()).extracting(DiskIoCounters::device).containsExactly("C:", "D:", "HarddiskVolume1");
    assertThat(c.readBytes()).isEqualTo(1_000_000L);
    assertThat(c.reads()).isEqualTo(100L);
    // % Disk Read Time's FirstValue: 5,000,000 x 100 ns.
    assertThat(c.readTimeNanos()).isEqualTo(500_000_000L);
    assertThat(c.writeTimeNanos()).isEqualTo(700_000_000L);
    assertThat(c.ioTimeNanos()).isZero();
    assertThat(c.queueLength()).isEqualTo(2L);

    // 10 s elapsed (1e8 x 100 ns), 9.9 s of it idle -> 0.1 s busy.
    fake.setItem(IDLE_DISK, "C:", 0, 90_000_000L + 99_000_000L, 100_000_000L + 100_000_000L);
    fake.setItem(READ_TIME, "C:", 0, 5_000_000L + 10_000_000L, 20_000_000L);
    DiskIoCounters later =
        source.sample().disks().stream().filter(d -> d.device().equals("C:")).findFirst().orElseThrow();
    assertThat(later.ioTimeNanos()).isEqualTo(100_000_000L);
    assertThat(later.readTimeNanos()).isEqualTo(1_500_000_000L);
  }

  /**
   * W3: read and write time are the 64-bit {@code % Disk Read Time} / {@code % Disk Write Time} FirstValue x 100 ns, as
   * windows_exporter 0.31.8's {@code windows_logical_disk_read_seconds_total} (logical_disk.go:263-275,452-462@v0.31.8,
   * PERF_PRECISION_100NS_TIMER scaled by 1e-7 in internal/pdh/collector.go:421-424@v0.31.8): a volume busy reading for
   * 5,000 s more than 2^32 ticks at 10 MHz, which the 32-bit {@code Avg. Disk sec/Read} FirstValue would wrap more
   * than ten times over, is counted in full, and the average timer (left as it was) plays no part.
   */
  @Test
  void readAndWriteTimeAreThe64BitDiskTimeTimersNotThe32BitAverageTimers() {
    PdhNodeSource source = open();
    source.sample();
    fake.setItem(READ_TIME, "C:", 0, 5_000_000L + 50_000_000_000L, 50_010_000_000L);
    fake.setItem(AVG_READ_TIME, "C:", 0, 1L, 101L);

    DiskIoCounters c = source.sample().disks().stream().filter(d -> d.device().equals("C:")).findFirst().orElseThrow();

    assertThat(c.readTimeNanos()).isEqualTo((5_000_000L + 50_000_000_000L) * 100L);
    assertThat(c.writeTimeNanos()).as("% Disk Write Time as the fixture has it").isEqualTo(700_000_000L);
  }

  /**
   * W4: the 32-bit raw count {@code Packets Received Errors} set back to 0 by an adapter reset restarts the baseline;
   * counted as a wrap it would add 2^32 - 1 errors. Later errors count on from the total so far.
   */
  @Test
  void anAdapterResetOfA32BitErrorCountRestartsTheBaselineInsteadOfAddingAWrap() {
    PdhNodeSource source = open();
    assertThat(nic(source.sample()).rxErrors()).isEqualTo(1L);

    fake.setItem(RX_ERRORS, NIC, 0, 0L, 0L);
    assertThat(nic(source.sample()).rxErrors()).as("reset to 0: no 4.29 G errors").isEqualTo(1L);

    fake.setItem(RX_ERRORS, NIC, 0, 3L, 0L);
    assertThat(nic(source.sample()).rxErrors()).isEqualTo(4L);
  }

  private static NetworkInterfaceCounters nic(NodeSample s) {
    return s.interfaces().stream().filter(n -> n.name().equals(NIC)).findFirst().orElseThrow();
  }

  @Test
  void bootTimeIsCollectTimeMinusUpTime() {
    NodeSample s = open().sample();

    // The clock reads 10:00:05 at the collect; the fixture's up time is 3600 s.
    assertThat(s.system().bootTime()).isEqualTo(Instant.parse("2025-01-15T09:00:05Z"));
    assertThat(s.system().processes()).isEqualTo(150L);
    assertThat(s.system().threads()).isEqualTo(2_000L);
    assertThat(s.system().contextSwitches()).isEqualTo(999_999L);
    assertThat(s.system().processorQueueLength()).isEqualTo(3L);
    assertThat(s.system().maxProcesses()).isNull();
  }

  @Test
  void anInstanceWithInvalidStatusIsSkippedAndTheNodeTotalKeepsItsLastValue() {
    PdhNodeSource source = open();
    long first = source.sample().cpu().usageCoreNanos();
    fake.setItem(USER, "0,1", INVALID, 0, 0);
    fake.setItem(USER, "0,0", 1_000_000 + 10);
    NodeSample s = source.sample();

    assertThat(s.cpu().cores()).extracting(CoreCpuTime::core).containsExactly("0,0", "1,0", "1,1");
    assertThat(s.cpu().usageCoreNanos()).isEqualTo(first + 10 * 100L);
    assertThat(s.missing()).isEmpty();
    CounterHealth h = health(source, USER);
    assertThat(h.ok()).isTrue();
    assertThat(h.skippedInstances()).isEqualTo(1);
  }

  @Test
  void aNegativeSixtyFourBitValueIsSkippedAndDegradesOnlyThatValue() {
    PdhNodeSource source = open();
    fake.setItem(AVAILABLE, "", -5);
    fake.setItem(PRIVILEGED, "1,1", -1);
    NodeSample s = source.sample();

    assertThat(s.memory()).isNotNull();
    assertThat(s.memory().availableBytes()).isNull();
    assertThat(s.memory().committedBytes()).isEqualTo(6_442_450_944L);
    assertThat(s.cpu().cores()).extracting(CoreCpuTime::core).containsExactly("0,0", "0,1", "1,0");
    assertThat(health(source, AVAILABLE).status()).isEqualTo("PDH_CALC_NEGATIVE_VALUE");
    assertThat(s.missing()).isEmpty();
  }

  @Test
  void vanishedObjectDegradesItsPartThenRecoversByReAddingItsCounters() {
    PdhNodeSource source = open();
    assertThat(source.sample().interfaces()).hasSize(2);
    int queries = fake.openQueries();

    fake.removeObject("Network Interface");
    NodeSample degraded = source.sample();
    assertThat(degraded.interfaces()).isEmpty();
    assertThat(degraded.missing()).containsOnlyKeys(NodePart.NETWORK);
    assertThat(degraded.missing().get(NodePart.NETWORK)).contains("PDH_CSTATUS_NO_OBJECT");
    assertThat(degraded.cpu()).isNotNull();
    assertThat(health(source, RX_BYTES).ok()).isFalse();

    NodeSample stillGone = source.sample();
    assertThat(stillGone.missing()).containsKey(NodePart.NETWORK);

    fake.restoreObject("Network Interface");
    NodeSample recovered = source.sample();
    assertThat(recovered.missing()).isEmpty();
    assertThat(recovered.interfaces()).hasSize(2);
    assertThat(health(source, RX_BYTES).ok()).isTrue();
    assertThat(fake.openQueries()).isEqualTo(queries);
    assertThat(log.at(Level.WARN))
        .filteredOn(l -> l.contains("event=pdh_counter_failed path=" + RX_BYTES + " "))
        .hasSize(1)
        .allMatch(l -> l.contains("status=PDH_CSTATUS_NO_OBJECT"));
    assertThat(log.at(Level.INFO))
        .filteredOn(l -> l.contains("event=pdh_counter_recovered path=" + RX_BYTES + " "))
        .hasSize(1);
  }

  @Test
  void anObjectAbsentAtOpenIsAddedOnceItAppears() {
    fake.removeObject("LogicalDisk");
    PdhNodeSource source = open();
    NodeSample before = source.sample();
    assertThat(before.missing()).containsOnlyKeys(NodePart.FILESYSTEM, NodePart.DISK_IO);
    assertThat(before.missing().get(NodePart.FILESYSTEM)).contains("PDH_CSTATUS_NO_OBJECT");

    fake.restoreObject("LogicalDisk");
    NodeSample after = source.sample();
    assertThat(after.missing()).isEmpty();
    assertThat(after.filesystems()).hasSize(2);
  }

  @Test
  void aFailedCollectDegradesOnlyItsObjectAndRecovers() {
    PdhNodeSource source = open();
    fake.failCollect("System", PdhStatus.PDH_NO_DATA);
    NodeSample s = source.sample();
    assertThat(s.missing()).containsOnlyKeys(NodePart.SYSTEM);
    assertThat(s.missing().get(NodePart.SYSTEM)).contains("PDH_NO_DATA");

    fake.failCollect("System", null);
    assertThat(source.sample().system()).isNotNull();
  }

  /** The kubelet's root filesystem comes from the volume itself, not from LogicalDisk's lagging MiB values. */
  @Test
  void kubeletRootFilesystemIsReadLiveFromItsVolume() throws IOException {
    NodeSample s = open().sample();

    FilesystemUsage root = s.kubeletRootFs();
    assertThat(root).isNotNull();
    assertThat(root.capacityBytes()).isEqualTo(Files.getFileStore(kubeletRoot).getTotalSpace());
    assertThat(root.availableBytes()).isBetween(0L, root.capacityBytes());
    assertThat(root.usedBytes()).isEqualTo(root.capacityBytes() - root.availableBytes());
    assertThat(s.filesystems()).extracting(FilesystemUsage::device).contains("C:");
  }

  @Test
  void anUnreadableKubeletRootIsAbsentAndLoggedOnce() {
    PdhSourceOptions options = open().options().withKubeletRootDirectory(kubeletRoot.resolve("absent"));
    PdhNodeSource source = new PdhNodeSource(fake, Clock.fixed(NOW, ZoneOffset.UTC), List.of(), options);
    opened.add(source);

    assertThat(source.sample().kubeletRootFs()).isNull();
    assertThat(source.sample().kubeletRootFs()).isNull();
    assertThat(log.at(Level.WARN)).filteredOn(l -> l.contains("event=kubelet_root_fs_unreadable")).hasSize(1);
  }

  /** Task Manager's figure on request: total − Available Bytes, with or without the Process object. */
  @Test
  void physicalWorkingSetIsTotalMinusAvailableBytes() {
    fake.removeObject("Process");
    PdhSourceOptions options = open().options().withWorkingSet(WorkingSetDefinition.PHYSICAL);
    PdhNodeSource source = new PdhNodeSource(fake, Clock.fixed(NOW, ZoneOffset.UTC), List.of(), options);
    opened.add(source);

    NodeSample s = source.sample();

    assertThat(s.memory().workingSetBytes()).isEqualTo(17_179_869_184L - 4_294_967_296L);
    assertThat(s.memory().availableBytes()).isEqualTo(4_294_967_296L);
  }

  /**
   * The physical definition needs no {@code \Process(_Total)} counter, the expensive one (a process list through PDH
   * took 30–50 ms where the registry read took 1–2 ms, oshi#1001): the source neither adds it nor collects its query.
   */
  @Test
  void physicalWorkingSetNeverQueriesTheProcessObject() {
    String workingSet = ProcessCounter.WORKING_SET_PRIVATE.path().toString();
    PdhSourceOptions options =
        FakeSourceOptions.of(
            Duration.ofSeconds(30), WorkingSetDefinition.PHYSICAL, kubeletRoot, nanos::incrementAndGet, log);
    PdhNodeSource source = new PdhNodeSource(fake, Clock.fixed(NOW, ZoneOffset.UTC), List.of(), options);
    opened.add(source);

    NodeSample s = source.sample();
    source.sample();

    assertThat(fake.calls()).noneMatch(c -> c.contains("\\Process("));
    assertThat(fake.countersInQueries()).doesNotContain(workingSet);
    assertThat(fake.count("PdhOpenQueryW")).isEqualTo(6);
    assertThat(source.health()).extracting(CounterHealth::path).doesNotContain(workingSet);
    assertThat(s.missing()).isEmpty();
    assertThat(s.memory().workingSetBytes()).isEqualTo(17_179_869_184L - 4_294_967_296L);
  }

  /** PerfProc disabled: the Process object is unknown, and only the figures from its working set go. */
  @Test
  void memoryStaysWithoutTheProcessObjectAndOnlyTheWorkingSetIsAbsent() {
    fake.removeObject("Process");
    NodeSample s = open().sample();

    assertThat(s.missing()).doesNotContainKey(NodePart.MEMORY);
    assertThat(s.memory()).isNotNull();
    assertThat(s.memory().workingSetBytes()).isNull();
    assertThat(s.memory().totalBytes()).isEqualTo(17_179_869_184L);
    assertThat(s.memory().availableBytes()).isEqualTo(4_294_967_296L);
    assertThat(s.memory().committedBytes()).isEqualTo(6_442_450_944L);
    assertThat(s.memory().commitLimitBytes()).isEqualTo(10_737_418_240L);
    assertThat(s.memory().pageFaults()).isEqualTo(123_456L);
  }

  @Test
  void memoryIsMissingWhenNoMemoryCounterCanBeRead() {
    fake.removeObject("Process");
    fake.removeObject("Memory");
    NodeSample s = open().sample();

    assertThat(s.memory()).isNull();
    assertThat(s.missing().get(NodePart.MEMORY)).contains("Working Set - Private").contains("PDH_CSTATUS_NO_OBJECT");
  }

  @Test
  void corruptedCounterRegistryLogsOneLineWithTheRebuildRecipe() {
    fake.removeObject("Processor Information");
    fake.removeObject("Memory");
    PdhNodeSource source = open();
    NodeSample s = source.sample();
    source.sample();

    assertThat(s.missing()).containsKeys(NodePart.CPU);
    assertThat(s.memory()).isNotNull();
    assertThat(s.memory().availableBytes()).isNull();
    assertThat(s.interfaces()).hasSize(2);
    List<String> errors = log.at(Level.ERROR);
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0))
        .contains("event=pdh_counter_registry_corrupt")
        .contains("objects=Processor Information,Memory")
        .contains("status=PDH_CSTATUS_NO_OBJECT")
        .contains("lodctr /R")
        .contains("System32")
        .contains("SysWOW64")
        .contains("winmgmt /RESYNCPERF");
  }

  @Test
  void aHealthyHostLogsNoRegistryLine() {
    open().sample();

    assertThat(log.at(Level.ERROR)).isEmpty();
    assertThat(log.at(Level.WARN)).isEmpty();
  }

  @Test
  void aHungCollectTimesOutAndTheSourceRecoversOnTheNextCall() throws Exception {
    PdhNodeSource source = open(List.of(), Duration.ofMillis(200));
    source.sample();

    fake.hangCollect();
    assertThatThrownBy(source::sample)
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.TIMEOUT));
    fake.awaitCollectEntered();
    fake.releaseCollect();
    fake.awaitHungCollectLeft();

    NodeSample s = source.sample();
    assertThat(s.cpu()).isNotNull();
    assertThat(s.missing()).isEmpty();
  }

  @Test
  void everyPdhCallRunsOnOneDedicatedThread() {
    PdhNodeSource source = open();
    source.sample();
    source.sample();
    source.close();

    assertThat(fake.threads()).containsExactly("winstats-pdh-sampler");
    assertThat(fake.count("PdhOpenQueryW")).isEqualTo(7);
  }

  @Test
  void closeClosesEveryQueryAndFreesTheLibrary() {
    PdhNodeSource source = open();
    source.sample();
    source.close();
    source.close();

    assertThat(fake.openQueries()).isZero();
    assertThat(fake.closed()).isTrue();
    assertThatThrownBy(source::sample).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void nothingReadableIsAReadFailure() {
    for (String object :
        List.of(
            "Processor Information", "Memory", "Process", "Network Interface", "LogicalDisk", "PhysicalDisk", "System")) {
      fake.removeObject(object);
    }
    PdhNodeSource source = open();

    assertThatThrownBy(source::sample)
        .isInstanceOfSatisfying(
            NodeSourceException.class,
            e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.READ_FAILED));
    assertThat(source.health()).isNotEmpty().noneMatch(CounterHealth::ok);
  }

  @Test
  void customCountersReportBadPathsAtOpenAndValuesForTheRest() {
    String switches = "\\System\\Context Switches/sec";
    String packets = "\\Network Interface(*)\\Packets Sent/sec";
    String bad = "\\System\\No Such Counter";
    String malformed = "\\System\\Bad(Path";
    fake.failAdd(malformed, PdhStatus.PDH_CSTATUS_BAD_COUNTERNAME);
    CustomCounter rate = new CustomCounter(switches, "ctx_switch_rate", CustomCounter.Type.GAUGE, Map.of(), null);
    CustomCounter sent =
        new CustomCounter(packets, "nic_packets_sent_total", CustomCounter.Type.COUNTER, Map.of("a", "b"), "nic");
    CustomCounter missing = new CustomCounter(bad, "nope", CustomCounter.Type.GAUGE, Map.of(), null);
    CustomCounter refused = new CustomCounter(malformed, "nope2", CustomCounter.Type.GAUGE, Map.of(), null);
    PdhNodeSource source = open(List.of(rate, sent, missing, refused), Duration.ofSeconds(30));

    assertThat(health(source, bad).status()).isEqualTo("PDH_CSTATUS_NO_COUNTER");
    assertThat(health(source, malformed).status()).isEqualTo("PDH_CSTATUS_BAD_COUNTERNAME");
    NodeSample first = source.sample();
    assertThat(first.missing()).isEmpty();
    Map<CustomCounter, List<InstanceValue>> v1 = source.customValues();
    assertThat(v1).containsOnlyKeys(rate, sent);
    assertThat(v1.get(rate)).as("a rate needs two samples").isEmpty();
    assertThat(v1.get(sent)).containsExactly(new InstanceValue(NIC, 400), new InstanceValue(NIC + "#1", 40));

    PdhLibrary.RawCounter old = fake.item(switches, "");
    fake.setItem(switches, "", 0, old.firstValue() + 5_000, old.secondValue() + 10_000_000L);
    source.sample();
    assertThat(source.customValues().get(rate)).containsExactly(new InstanceValue("", 5_000.0));
    // A malformed path is not retried; a missing counter is.
    assertThat(fake.count("PdhAddEnglishCounterW " + malformed)).isEqualTo(1);
    assertThat(fake.count("PdhAddEnglishCounterW " + bad)).isGreaterThan(1);
  }

  @Test
  @DisabledOnOs(OS.WINDOWS)
  void openingTheRealSourceWithoutPdhIsAReadFailure() {
    assertThatThrownBy(
            () ->
                PdhNodeSource.open(
                    new JnaPdhLibrary(),
                    Clock.systemUTC(),
                    List.of(),
                    WorkingSetDefinition.KUBELET,
                    PdhNodeSource.DEFAULT_KUBELET_ROOT_DIRECTORY))
        .isInstanceOfSatisfying(
            NodeSourceException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.READ_FAILED);
              assertThat(e.getCause()).isInstanceOf(UnsatisfiedLinkError.class);
            });
  }

  private static CounterHealth health(PdhNodeSource source, String path) {
    return source.health().stream().filter(h -> h.path().equals(path)).findFirst().orElseThrow();
  }


}
