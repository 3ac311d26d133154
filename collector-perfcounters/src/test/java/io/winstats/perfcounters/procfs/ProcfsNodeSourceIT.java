package io.winstats.perfcounters.procfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeSample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Invariants of the real {@code /proc} of the machine the build runs on. */
@EnabledOnOs(OS.LINUX)
class ProcfsNodeSourceIT {

  @Test
  void countersOfTheLiveHostNeverDecreaseAndStayConsistent() throws IOException {
    try (ProcfsNodeSource source = ProcfsNodeSource.open(Clock.systemUTC())) {
      NodeSample first = source.sample();
      NodeSample second = source.sample();
      long cpuLines = Files.readAllLines(Path.of("/proc/stat")).stream().filter(l -> l.matches("cpu\\d+ .*")).count();

      assertThat(first.missing()).isEmpty();
      assertThat(second.missing()).isEmpty();
      assertThat(second.monotonicNanos()).isGreaterThan(first.monotonicNanos());

      assertThat(second.cpu().usageCoreNanos()).isGreaterThanOrEqualTo(first.cpu().usageCoreNanos());
      assertThat(second.cpu().logicalCores()).isEqualTo(second.cpu().cores().size()).isEqualTo((int) cpuLines);
      // the JVM may be limited to fewer processors (affinity, cgroup quota), never to more than are online
      assertThat(Runtime.getRuntime().availableProcessors()).isLessThanOrEqualTo(second.cpu().logicalCores());
      Map<String, CoreCpuTime> before = byName(first.cpu().cores(), CoreCpuTime::core);
      for (CoreCpuTime core : second.cpu().cores()) {
        CoreCpuTime earlier = before.get(core.core());
        if (earlier != null) {
          for (CpuMode mode : CpuMode.values()) {
            assertThat(core.nanos(mode)).as("cpu%s %s", core.core(), mode).isGreaterThanOrEqualTo(earlier.nanos(mode));
          }
        }
      }

      assertThat(second.memory().workingSetBytes()).isLessThanOrEqualTo(second.memory().totalBytes());
      assertThat(second.memory().usageBytes()).isLessThanOrEqualTo(second.memory().totalBytes());
      assertThat(second.memory().availableBytes()).isLessThanOrEqualTo(second.memory().totalBytes());
      assertThat(second.memory().pageFaults()).isGreaterThanOrEqualTo(first.memory().pageFaults());

      Map<String, NetworkInterfaceCounters> nics = byName(first.interfaces(), NetworkInterfaceCounters::name);
      assertThat(second.interfaces()).extracting(NetworkInterfaceCounters::name).contains("lo");
      for (NetworkInterfaceCounters nic : second.interfaces()) {
        NetworkInterfaceCounters earlier = nics.get(nic.name());
        if (earlier != null) {
          assertThat(nic.rxBytes()).isGreaterThanOrEqualTo(earlier.rxBytes());
          assertThat(nic.txPackets()).isGreaterThanOrEqualTo(earlier.txPackets());
        }
      }
      Map<String, DiskIoCounters> disks = byName(first.disks(), DiskIoCounters::device);
      for (DiskIoCounters disk : second.disks()) {
        assertThat(disk.device()).doesNotMatch(DiskStats.IGNORED_DEVICES.pattern());
        DiskIoCounters earlier = disks.get(disk.device());
        if (earlier != null) {
          assertThat(disk.readBytes()).isGreaterThanOrEqualTo(earlier.readBytes());
          assertThat(disk.writeTimeNanos()).isGreaterThanOrEqualTo(earlier.writeTimeNanos());
        }
      }

      assertThat(second.filesystems()).isNotEmpty().allSatisfy(fs -> {
        assertThat(fs.usedBytes()).isLessThanOrEqualTo(fs.capacityBytes());
        assertThat(MountTable.IGNORED_FS_TYPES).doesNotContain(fs.fsType());
      });
      assertThat(second.system().processes()).isPositive();
      assertThat(second.system().threads()).isGreaterThanOrEqualTo(second.system().processes());
      assertThat(second.system().contextSwitches()).isGreaterThanOrEqualTo(first.system().contextSwitches());
      assertThat(second.system().bootTime()).isBefore(second.timestamp());
    }
  }

  private static <T> Map<String, T> byName(java.util.List<T> items, Function<T, String> name) {
    return items.stream().collect(Collectors.toMap(name, Function.identity()));
  }
}
