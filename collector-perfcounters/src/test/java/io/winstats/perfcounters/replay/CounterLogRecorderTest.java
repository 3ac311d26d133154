package io.winstats.perfcounters.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.ValueOrigin;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records procfs-shaped samples built here, replays the file, and compares. Tolerance: ±1 in the figure's unit (byte,
 * packet, nanosecond, fault) for everything that goes through a rate and back, because a rate × interval integral is
 * rounded to a whole number; gauges and times must be equal. Replayed cumulative figures start at 0 at the first row,
 * so they are compared with the increase since the first recorded sample.
 */
class CounterLogRecorderTest {

  private static final Instant T0 = Instant.parse("2026-11-21T09:00:00.125Z");
  private static final long[] OFFSETS_MS = {0, 1_000, 3_500, 4_250, 14_250};
  private static final Instant BOOT = Instant.parse("2026-11-20T09:00:00Z");

  @TempDir Path dir;

  @Test
  void aRecordedLogReplaysTheSameFigures() throws IOException {
    List<NodeSample> recorded = new ArrayList<>();
    for (int i = 0; i < OFFSETS_MS.length; i++) {
      recorded.add(linuxSample(i));
    }
    Path file = record(recorded);

    List<NodeSample> replayed = replay(file);

    assertThat(replayed).hasSize(recorded.size());
    NodeSample base = recorded.get(0);
    for (int i = 0; i < recorded.size(); i++) {
      NodeSample original = recorded.get(i);
      NodeSample copy = replayed.get(i);
      // procfs-shaped samples have no physical disk (Windows' \PhysicalDisk), so the log has none to replay
      assertThat(copy.missing()).as("row %d", i).containsOnlyKeys(NodePart.PHYSICAL_DISK);
      assertThat(copy.origin()).isEqualTo(ValueOrigin.FORMATTED);
      assertThat(copy.timestamp()).isEqualTo(original.timestamp());
      assertThat(copy.monotonicNanos()).isEqualTo(OFFSETS_MS[i] * 1_000_000);

      assertThat(copy.cpu().logicalCores()).isEqualTo(2);
      assertThat(copy.cpu().usageCoreNanos())
          .isCloseTo(original.cpu().usageCoreNanos() - base.cpu().usageCoreNanos(), within(1L));
      for (int c = 0; c < 2; c++) {
        CoreCpuTime now = original.cpu().cores().get(c);
        CoreCpuTime then = base.cpu().cores().get(c);
        CoreCpuTime back = copy.cpu().cores().get(c);
        assertThat(back.core()).isEqualTo(now.core());
        assertThat(back.nanos(CpuMode.USER)).isCloseTo(diff(now, then, CpuMode.USER, CpuMode.NICE), within(1L));
        assertThat(back.nanos(CpuMode.PRIVILEGED))
            .isCloseTo(diff(now, then, CpuMode.SYSTEM, CpuMode.IRQ, CpuMode.SOFTIRQ), within(1L));
        assertThat(back.nanos(CpuMode.IDLE)).isCloseTo(diff(now, then, CpuMode.IDLE, CpuMode.IOWAIT), within(1L));
        assertThat(back.nanos(CpuMode.INTERRUPT)).isCloseTo(diff(now, then, CpuMode.IRQ), within(1L));
        assertThat(back.nanos(CpuMode.DPC)).isCloseTo(diff(now, then, CpuMode.SOFTIRQ), within(1L));
      }

      NodeMemory m = original.memory();
      NodeMemory r = copy.memory();
      assertThat(r.totalBytes()).isEqualTo(m.totalBytes());
      assertThat(r.availableBytes()).isEqualTo(m.availableBytes());
      assertThat(r.workingSetBytes()).isEqualTo(m.workingSetBytes());
      assertThat(r.usageBytes()).isEqualTo(m.usageBytes());
      assertThat(r.freeBytes()).isEqualTo(m.freeBytes());
      assertThat(r.cacheBytes()).isEqualTo(m.cacheBytes());
      assertThat(r.committedBytes()).isEqualTo(m.committedBytes());
      assertThat(r.commitLimitBytes()).isEqualTo(m.commitLimitBytes());
      assertThat(r.swapTotalBytes()).isEqualTo(m.swapTotalBytes());
      assertThat(r.swapFreeBytes()).isEqualTo(m.swapFreeBytes());
      assertThat(r.pageFaults()).isCloseTo(m.pageFaults() - base.memory().pageFaults(), within(1L));
      assertThat(r.majorPageFaults()).isCloseTo(m.majorPageFaults() - base.memory().majorPageFaults(), within(1L));

      assertThat(copy.interfaces()).extracting(NetworkInterfaceCounters::name).containsExactly("eth0", "lo");
      for (int n = 0; n < 2; n++) {
        NetworkInterfaceCounters now = original.interfaces().get(n);
        NetworkInterfaceCounters then = base.interfaces().get(n);
        NetworkInterfaceCounters back = copy.interfaces().get(n);
        assertThat(back.rxBytes()).isCloseTo(now.rxBytes() - then.rxBytes(), within(1L));
        assertThat(back.txBytes()).isCloseTo(now.txBytes() - then.txBytes(), within(1L));
        assertThat(back.rxPackets()).isCloseTo(now.rxPackets() - then.rxPackets(), within(1L));
        assertThat(back.txPackets()).isCloseTo(now.txPackets() - then.txPackets(), within(1L));
        assertThat(back.rxErrors()).isEqualTo(now.rxErrors());
        assertThat(back.txErrors()).isEqualTo(now.txErrors());
        assertThat(back.rxDropped()).isEqualTo(now.rxDropped());
        assertThat(back.txDropped()).isEqualTo(now.txDropped());
      }

      FilesystemUsage fs = original.filesystems().get(0);
      FilesystemUsage fsBack = copy.filesystems().get(0);
      assertThat(fsBack.mountpoint()).isEqualTo("/");
      assertThat(fsBack.capacityBytes()).isCloseTo(fs.capacityBytes(), within(1L));
      assertThat(fsBack.availableBytes()).isCloseTo(fs.availableBytes(), within(1L));
      assertThat(fsBack.usedBytes()).as("capacity − available; the original's used is capacity − unallocated")
          .isCloseTo(fs.capacityBytes() - fs.availableBytes(), within(2L));

      DiskIoCounters d = original.disks().get(0);
      DiskIoCounters d0 = base.disks().get(0);
      DiskIoCounters dBack = copy.disks().get(0);
      assertThat(dBack.device()).isEqualTo("vda");
      assertThat(dBack.readBytes()).isCloseTo(d.readBytes() - d0.readBytes(), within(1L));
      assertThat(dBack.writtenBytes()).isCloseTo(d.writtenBytes() - d0.writtenBytes(), within(1L));
      assertThat(dBack.reads()).isCloseTo(d.reads() - d0.reads(), within(1L));
      assertThat(dBack.writes()).isCloseTo(d.writes() - d0.writes(), within(1L));
      assertThat(dBack.readTimeNanos()).isCloseTo(d.readTimeNanos() - d0.readTimeNanos(), within(1L));
      assertThat(dBack.writeTimeNanos()).isCloseTo(d.writeTimeNanos() - d0.writeTimeNanos(), within(1L));
      assertThat(dBack.ioTimeNanos()).isCloseTo(d.ioTimeNanos() - d0.ioTimeNanos(), within(1L));
      assertThat(dBack.queueLength()).isEqualTo(d.queueLength());

      NodeSystem s = original.system();
      NodeSystem sBack = copy.system();
      assertThat(sBack.bootTime()).isEqualTo(s.bootTime());
      assertThat(sBack.processes()).isEqualTo(s.processes());
      assertThat(sBack.threads()).isEqualTo(s.threads());
      assertThat(sBack.maxProcesses()).isEqualTo(s.maxProcesses());
      assertThat(sBack.processorQueueLength()).isEqualTo(s.processorQueueLength());
      assertThat(sBack.contextSwitches())
          .isCloseTo(s.contextSwitches() - base.system().contextSwitches(), within(1L));
      assertThat(sBack.load1()).isEqualTo(s.load1());
      assertThat(sBack.load5()).isEqualTo(s.load5());
      assertThat(sBack.load15()).isEqualTo(s.load15());
    }
  }

  @Test
  void writesAUtcBannerEnglishPathsAndBlankFirstRates() {
    StringWriter out = new StringWriter();
    try (CounterLogRecorder recorder = new CounterLogRecorder(out, "node1")) {
      recorder.record(linuxSample(0));
      recorder.record(linuxSample(1));
    }
    String[] lines = out.toString().split("\r\n");

    assertThat(lines).hasSize(3);
    List<String> header = PdhCsv.records(lines[0]).get(0);
    assertThat(header.get(0)).isEqualTo("(PDH-CSV 4.0) (Coordinated Universal Time)(0)");
    assertThat(header)
        .contains(
            "\\\\node1\\Processor(0)\\% User Time",
            "\\\\node1\\Processor(_Total)\\% Processor Time",
            "\\\\node1\\Memory\\Available Bytes",
            "\\\\node1\\Winstats Node\\Physical Memory Bytes",
            "\\\\node1\\Network Adapter(eth0)\\Bytes Received/sec",
            "\\\\node1\\LogicalDisk(/)\\% Free Space",
            "\\\\node1\\LogicalDisk(vda)\\Disk Read Bytes/sec",
            "\\\\node1\\System\\Processes");
    List<String> first = PdhCsv.records(lines[1]).get(0);
    List<String> second = PdhCsv.records(lines[2]).get(0);
    int userTime = header.indexOf("\\\\node1\\Processor(0)\\% User Time");
    int available = header.indexOf("\\\\node1\\Memory\\Available Bytes");
    assertThat(first.get(0)).isEqualTo("11/21/2026 09:00:00.125");
    assertThat(first.get(userTime)).isEqualTo(" ");
    assertThat(first.get(available)).isEqualTo(Long.toString(linuxSample(0).memory().availableBytes()));
    // core 0 user + nice grew 0.31 s in 1 s
    assertThat(second.get(userTime)).isEqualTo("31");
  }

  @Test
  void aResetLeavesABlankCellAndTheReplayedPartIsMissingForThatRow() throws IOException {
    List<NodeSample> recorded = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      recorded.add(linuxSample(i));
    }
    // the interface was re-created between samples 1 and 2: its counters start again from small values
    NodeSample reset = recorded.get(2);
    List<NetworkInterfaceCounters> nics = new ArrayList<>(reset.interfaces());
    nics.set(0, NetworkInterfaceCounters.builder("eth0").rxBytes(10).txBytes(10).rxPackets(1).txPackets(1).build());
    recorded.set(2, withInterfaces(reset, nics));

    List<NodeSample> replayed = replay(record(recorded));

    assertThat(replayed.get(2).missing()).containsOnlyKeys(NodePart.NETWORK, NodePart.PHYSICAL_DISK);
    assertThat(replayed.get(2).missing().get(NodePart.NETWORK))
        .isEqualTo("row 2 has no value for \\\\node1\\Network Adapter(eth0)\\Bytes Received/sec");
    assertThat(replayed.get(2).cpu()).isNotNull();
  }

  // ------------------------------------------------------------ helpers

  private Path record(List<NodeSample> samples) throws IOException {
    return CounterLogRoundTrip.record(dir.resolve("recorded.csv"), "node1", samples);
  }

  private static List<NodeSample> replay(Path file) {
    return CounterLogRoundTrip.replay(file);
  }

  private static long diff(CoreCpuTime now, CoreCpuTime then, CpuMode... modes) {
    long sum = 0;
    for (CpuMode mode : modes) {
      sum += now.nanos(mode) - then.nanos(mode);
    }
    return sum;
  }

  /** A sample shaped like ProcfsNodeSource's, with counters growing in proportion to the elapsed time. */
  static NodeSample linuxSample(int i) {
    long ms = OFFSETS_MS[i];
    long ns = ms * 1_000_000;
    double[][] shares = {
      {0.30, 0.01, 0.10, 0.50, 0.04, 0.01, 0.02, 0.02},
      {0.05, 0.00, 0.03, 0.90, 0.00, 0.00, 0.01, 0.01},
    };
    CpuMode[] modes = {
      CpuMode.USER, CpuMode.NICE, CpuMode.SYSTEM, CpuMode.IDLE, CpuMode.IOWAIT, CpuMode.IRQ, CpuMode.SOFTIRQ,
      CpuMode.STEAL
    };
    List<CoreCpuTime> cores = new ArrayList<>();
    long busy = 0;
    for (int c = 0; c < 2; c++) {
      Map<CpuMode, Long> nanos = new EnumMap<>(CpuMode.class);
      for (int m = 0; m < modes.length; m++) {
        long value = 3_600_000_000_000L * (c + 1) + Math.round(shares[c][m] * ns);
        nanos.put(modes[m], value);
        if (modes[m] != CpuMode.IDLE && modes[m] != CpuMode.IOWAIT) {
          busy += value;
        }
      }
      cores.add(new CoreCpuTime(Integer.toString(c), nanos));
    }
    NodeCpu cpu = new NodeCpu(2, busy, cores);
    NodeMemory memory =
        NodeMemory.builder()
            .totalBytes(25_276_502_016L)
            .availableBytes(24_580_116_480L - i * 4096L)
            .workingSetBytes(602_759_168L + i * 8192L)
            .usageBytes(703_414_272L + i * 8192L)
            .freeBytes(24_573_087_744L - i * 8192L)
            .cacheBytes(195_964_928L)
            .committedBytes(459_792_384L + i)
            .commitLimitBytes(12_638_248_960L)
            .pageFaults(3_704_680L + 7 * ms)
            .majorPageFaults(1_326L + ms / 500)
            .swapTotalBytes(0L)
            .swapFreeBytes(0L)
            .build();
    List<NetworkInterfaceCounters> nics =
        List.of(
            NetworkInterfaceCounters.builder("eth0")
                .rxBytes(127_005_001L + 1_234 * ms)
                .txBytes(561_612L + 99 * ms)
                .rxPackets(4_615L + ms)
                .txPackets(4_118L + ms / 2)
                .rxErrors(i)
                .rxDropped(2 * i)
                .build(),
            NetworkInterfaceCounters.builder("lo")
                .rxBytes(3_193L + ms / 10)
                .txBytes(3_193L + ms / 10)
                .rxPackets(29L + ms / 100)
                .txPackets(29L + ms / 100)
                .build());
    List<FilesystemUsage> filesystems =
        List.of(
            FilesystemUsage.builder("/dev/vda", "/", "ext4")
                .capacityBytes(270_553_174_016L)
                .availableBytes(85_071_765_504L - i * 1_000_003L)
                .usedBytes(23_872_499_712L + i * 1_000_003L)
                .build());
    List<DiskIoCounters> disks =
        List.of(
            DiskIoCounters.builder("vda")
                .readBytes(1_705_960_448L + 4096 * ms)
                .writtenBytes(886_427_648L + 512 * ms)
                .reads(50_275L + ms / 4)
                .writes(10_508L + ms / 8)
                .readTimeNanos(29_464_000_000L + 3 * ns / 10)
                .writeTimeNanos(6_494_000_000L + ns / 20)
                .ioTimeNanos(8_880_000_000L + ns / 3)
                .queueLength(i % 3)
                .build());
    NodeSystem system =
        NodeSystem.builder(72 + i)
            .bootTime(BOOT)
            .threads(116L + i)
            .maxProcesses(32_768L)
            .contextSwitches(580_520L + 150 * ms)
            .processorQueueLength(1L + i)
            .load1(1.06 + i)
            .load5(0.45)
            .load15(0.2)
            .build();
    return NodeSample.builder(T0.plusMillis(ms), 7_000_000_000_000L + ns)
        .origin(ValueOrigin.RAW)
        .cpu(cpu)
        .memory(memory)
        .interfaces(nics)
        .filesystems(filesystems)
        .disks(disks)
        .system(system)
        .build();
  }

  private static NodeSample withInterfaces(NodeSample s, List<NetworkInterfaceCounters> interfaces) {
    return s.toBuilder().interfaces(interfaces).build();
  }
}
