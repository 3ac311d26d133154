package io.winstats.perfcounters.procfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.ValueOrigin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class ProcfsNodeSourceTest {

  private static final Instant NOW = Instant.parse("2026-11-21T09:06:31Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  @TempDir Path rootFs;

  private ProcfsNodeSource source(Path procRoot) {
    return new ProcfsNodeSource(procRoot, rootFs, 100, CLOCK, () -> 42L);
  }

  @Test
  void readsEveryPartOfTheCapturedTree() {
    NodeSample sample = source(ProcfsFixtures.root(ProcfsFixtures.VM)).sample();

    assertThat(sample.missing()).isEmpty();
    assertThat(sample.timestamp()).isEqualTo(NOW);
    assertThat(sample.monotonicNanos()).isEqualTo(42L);
    assertThat(sample.origin()).isEqualTo(ValueOrigin.RAW);
    assertThat(sample.cpu().usageCoreNanos()).isEqualTo(158_070_000_000L);
    assertThat(sample.memory().workingSetBytes()).isEqualTo(588632L * 1024);
    assertThat(sample.memory().pageFaults()).isEqualTo(3704680L);
    assertThat(sample.interfaces()).hasSize(4);
    assertThat(sample.disks()).singleElement().extracting(d -> d.device()).isEqualTo("vda");
    assertThat(sample.system())
        .isEqualTo(
            NodeSystem.builder(2)
                .bootTime(Instant.ofEpochSecond(1795251410L))
                .threads(116L)
                .maxProcesses(32768L)
                .contextSwitches(580520L)
                .processorQueueLength(4L)
                .load1(1.06)
                .load5(0.45)
                .load15(0.20)
                .build());
    // the fixture's only real filesystem is "/" on /dev/vda, resolved under the root filesystem path (here @TempDir)
    FilesystemUsage root = sample.filesystems().get(0);
    assertThat(sample.filesystems()).hasSize(1);
    assertThat(root.mountpoint()).isEqualTo("/");
    assertThat(root.device()).isEqualTo("/dev/vda");
    assertThat(root.fsType()).isEqualTo("ext4");
    assertThat(root.capacityBytes()).isPositive();
    assertThat(root.usedBytes()).isLessThanOrEqualTo(root.capacityBytes());
    assertThat(root.availableBytes()).isLessThanOrEqualTo(root.capacityBytes());
    // statvfs of the filesystem holding the root filesystem path (here the test's temporary directory); none off Linux
    if (OS.LINUX.isCurrentOs()) {
      Statvfs.Inodes inodes = Statvfs.inodes(rootFs);
      assertThat(root.inodes()).isEqualTo(inodes.total()).isPositive();
      assertThat(root.inodesFree()).isBetween(0L, inodes.total());
    } else {
      assertThat(root.inodes()).isNull();
    }
  }

  @Test
  void aBrokenPartIsMissingWithItsReasonAndTheRestIsReturned(@TempDir Path tmp) throws IOException {
    Path proc = ProcfsFixtures.copy(ProcfsFixtures.VM, tmp.resolve("proc"));
    Files.writeString(proc.resolve("meminfo"), "MemTotal: 10 kB\n");
    Files.delete(proc.resolve("diskstats"));
    Files.writeString(proc.resolve("net/dev"), "\u0000\u0001garbage");

    NodeSample sample = source(proc).sample();

    assertThat(sample.missing()).containsOnlyKeys(NodePart.MEMORY, NodePart.DISK_IO, NodePart.NETWORK);
    assertThat(sample.missing().get(NodePart.MEMORY)).startsWith("malformed:").contains("no MemFree line");
    assertThat(sample.missing().get(NodePart.DISK_IO)).startsWith("not_found:").contains("diskstats");
    assertThat(sample.missing().get(NodePart.NETWORK)).startsWith("malformed:").contains("no header");
    assertThat(sample.memory()).isNull();
    assertThat(sample.disks()).isEmpty();
    assertThat(sample.interfaces()).isEmpty();
    assertThat(sample.cpu()).isNotNull();
    assertThat(sample.system()).isNotNull();
    assertThat(sample.filesystems()).hasSize(1);
  }

  @Test
  void anUnreadableVmstatLeavesMemoryPresentWithoutPageFaults(@TempDir Path tmp) throws IOException {
    Path proc = ProcfsFixtures.copy(ProcfsFixtures.VM, tmp.resolve("proc"));
    Files.delete(proc.resolve("vmstat"));

    NodeSample sample = source(proc).sample();

    assertThat(sample.missing()).isEmpty();
    assertThat(sample.memory().pageFaults()).isNull();
  }

  @Test
  void aBrokenStatTakesCpuAndSystem(@TempDir Path tmp) throws IOException {
    Path proc = ProcfsFixtures.copy(ProcfsFixtures.VM, tmp.resolve("proc"));
    Files.writeString(proc.resolve("stat"), "cpu0 1 2 3 4\n");

    NodeSample sample = source(proc).sample();

    assertThat(sample.missing()).containsOnlyKeys(NodePart.CPU, NodePart.SYSTEM);
    assertThat(sample.missing().get(NodePart.SYSTEM)).contains("no aggregate 'cpu' line");
  }

  @Test
  void aMissingPidMaxTakesSystemOnly(@TempDir Path tmp) throws IOException {
    Path proc = ProcfsFixtures.copy(ProcfsFixtures.VM, tmp.resolve("proc"));
    Files.delete(proc.resolve("sys/kernel/pid_max"));

    NodeSample sample = source(proc).sample();

    assertThat(sample.missing()).containsOnlyKeys(NodePart.SYSTEM);
    assertThat(sample.system()).isNull();
  }

  @Test
  void threadsMaxIsReadWhereTheKernelHasIt(@TempDir Path tmp) throws IOException {
    Path proc = ProcfsFixtures.copy(ProcfsFixtures.VM, tmp.resolve("proc"));
    assertThat(source(proc).sample().system().maxThreads()).as("the captured VM has no threads-max file").isNull();
    Files.writeString(proc.resolve("sys/kernel/threads-max"), "15503\n");

    NodeSystem system = source(proc).sample().system();

    assertThat(system.maxThreads()).isEqualTo(15503L);
    assertThat(system.maxProcesses()).isEqualTo(32768L);
  }

  @Test
  void nothingReadableThrows(@TempDir Path tmp) throws IOException {
    Path proc = Files.createDirectories(tmp.resolve("proc"));
    Files.writeString(proc.resolve("stat"), "garbage\n");

    assertThatThrownBy(() -> source(proc).sample())
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.READ_FAILED))
        .hasMessageContaining("no part could be read");
  }

  @Test
  void openRefusesADirectoryThatIsNotProcfs(@TempDir Path tmp) {
    assertThatThrownBy(() -> ProcfsNodeSource.open(tmp, rootFs, CLOCK, System::nanoTime))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.NOT_FOUND));
  }

  @Test
  void openTakesClockTicksFromGetconfOrFallsBackTo100() {
    ProcfsNodeSource source =
        ProcfsNodeSource.open(ProcfsFixtures.root(ProcfsFixtures.VM), rootFs, CLOCK, System::nanoTime);

    // getconf prints 100 on x86 and arm Linux; where getconf is absent the fallback is 100 as well
    assertThat(source.clockTicksPerSecond()).isEqualTo(100);
    assertThat(source.name()).isEqualTo("procfs");
  }

  @Test
  void inAContainerFilesystemsComeFromTheHostMountTableResolvedUnderTheHostRoot() throws IOException {
    Path tree = ProcfsFixtures.root("container-host-view");
    Path hostRoot = tree.resolve("root");
    ProcfsNodeSource source = ProcfsNodeSource.openHost(tree.resolve("proc"), hostRoot, CLOCK, () -> 7L);

    NodeSample sample = source.sample();

    assertThat(sample.filesystems())
        .as("the host's / and /data, not the container's overlay; /mnt/backup has no directory under the root")
        .extracting(FilesystemUsage::device, FilesystemUsage::mountpoint, FilesystemUsage::fsType)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("/dev/vda1", "/", "ext4"),
            org.assertj.core.groups.Tuple.tuple("/dev/vdb1", "/data", "xfs"));
    assertThat(sample.filesystems().get(1).capacityBytes())
        .isEqualTo(Files.getFileStore(hostRoot.resolve("data")).getTotalSpace());
    assertThat(sample.missing()).doesNotContainKey(NodePart.FILESYSTEM);
  }

  @Test
  void withoutAHostMountTableFilesystemsAreMissingWithTheReason(@TempDir Path proc) throws IOException {
    Files.copy(ProcfsFixtures.root(ProcfsFixtures.VM).resolve("stat"), proc.resolve("stat"));
    ProcfsNodeSource source = ProcfsNodeSource.openHost(proc, rootFs, CLOCK, () -> 7L);

    NodeSample sample = source.sample();

    assertThat(sample.filesystems()).isEmpty();
    assertThat(sample.missing().get(NodePart.FILESYSTEM)).contains("1/mounts");
  }
}
