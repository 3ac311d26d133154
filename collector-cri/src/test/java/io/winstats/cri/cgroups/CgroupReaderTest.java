package io.winstats.cri.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupReaderTest {
  private static final String PATH = "/kubepods/burstable/pod1234/" + CgroupTrees.ID;

  @TempDir Path tmp;

  @Test
  void readsEveryV1PartWithCadvisorsMeanings() {
    Path root = tmp.resolve("cgroup");
    Path proc = tmp.resolve("proc");
    Path dev = tmp.resolve("dev");
    CgroupTrees.v1Container(root, PATH, 4242);
    CgroupTrees.process(proc, 4242, "1048576");
    CgroupTrees.process(proc, 4247, "1024");
    CgroupTrees.device(dev, "254:0", "vda");
    // The unified hierarchy of a hybrid host carries PSI for the cgroups that exist there too.
    CgroupTrees.write(
        root.resolve("unified" + PATH + "/cpu.pressure"),
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=42\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=40\n");

    CgroupReader reader = new CgroupReader(root, proc, dev);
    CgroupStats s = reader.read(PATH);

    assertThat(reader.version()).isEqualTo(CgroupVersion.V1);
    assertThat(s.cpu()).isEqualTo(new CgroupCpu(3_140_000_000L, 270_000_000L, 120, 45, 2_250_000_000L));
    // use_hierarchy=1: the total_* keys, as cAdvisor's setMemoryStats reads them; pgfault is the cgroup's own.
    assertThat(s.memory())
        .isEqualTo(new CgroupMemory(1048576, 2097152, 4096, 8192L, null, 65536L, 7L, 5242880L, 15, 16, 2L));
    assertThat(s.io()).containsExactly(new BlockDeviceIo("/dev/vda", 254, 0, 40960, 1048576, 10, 256));
    // Lowest pid's soft limit; pids.max "max" is cAdvisor's 0 (infinity).
    assertThat(s.processes()).isEqualTo(new CgroupProcesses(2, 3L, 0L, 4, 2, 1048576L));
    assertThat(s.cpuPressure()).isNotNull();
    assertThat(s.cpuPressure().some().totalMicros()).isEqualTo(42);
    assertThat(s.memoryPressure()).isNull();
    assertThat(s.ioPressure()).isNull();
  }

  /**
   * {@code memory.use_hierarchy} is read once per cgroup, not every round, and read again only after the cgroup left
   * the set {@link CgroupReader#retainOnly} keeps (a cgroup created again at the same path).
   */
  @Test
  void useHierarchyIsReadOncePerCgroupUntilItIsNoLongerRead() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v1Container(root, PATH, 4242);
    CgroupReader reader = new CgroupReader(root, tmp.resolve("proc"), tmp.resolve("dev"));
    long hierarchicalCache = 1048576;
    long ownCache = 11;
    assertThat(reader.read(PATH).memory().cacheBytes()).isEqualTo(hierarchicalCache);

    CgroupTrees.write(root.resolve("memory" + PATH + "/memory.use_hierarchy"), "0\n");
    reader.retainOnly(Set.of(PATH));
    assertThat(reader.read(PATH).memory().cacheBytes()).as("still the first reading").isEqualTo(hierarchicalCache);

    reader.retainOnly(Set.of());
    assertThat(reader.read(PATH).memory().cacheBytes()).as("read again once forgotten").isEqualTo(ownCache);
  }

  /** Unlimited swap ("max") has no limit, and without swap accounting there is neither usage nor limit: absent. */
  @Test
  void v2SwapLimitIsAbsentWhenUnlimitedOrNotAccounted() throws Exception {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v2Cgroup(root, PATH, 77);
    Path dir = root.resolve(PATH.substring(1));
    CgroupReader reader = new CgroupReader(root, tmp.resolve("proc"), tmp.resolve("dev"));

    java.nio.file.Files.writeString(dir.resolve("memory.swap.max"), "max\n");
    assertThat(reader.read(PATH).memory().swapBytes()).isEqualTo(8192L);
    assertThat(reader.read(PATH).memory().swapLimitBytes()).isNull();

    java.nio.file.Files.writeString(dir.resolve("memory.swap.max"), "4096\n");
    java.nio.file.Files.delete(dir.resolve("memory.swap.current"));
    assertThat(reader.read(PATH).memory().swapBytes()).isNull();
    assertThat(reader.read(PATH).memory().swapLimitBytes()).as("no swap accounting: not read").isNull();
  }

  @Test
  void readsEveryV2PartWithCadvisorsMeanings() {
    Path root = tmp.resolve("cgroup");
    Path proc = tmp.resolve("proc");
    Path dev = tmp.resolve("dev");
    CgroupTrees.v2Cgroup(root, PATH, 77);
    CgroupTrees.process(proc, 77, "unlimited");

    CgroupReader reader = new CgroupReader(root, proc, dev);
    CgroupStats s = reader.read(PATH);

    assertThat(reader.version()).isEqualTo(CgroupVersion.V2);
    assertThat(s.cpu()).isEqualTo(new CgroupCpu(3_140_000_000L, 270_000_000L, 120, 45, 2_250_000_000L));
    // failcnt is memory.events "max", as runc's fs2 maps it; swap is memory.swap.current, its limit memory.swap.max.
    assertThat(s.memory())
        .isEqualTo(new CgroupMemory(1048576, 2097152, 4096, 8192L, 1048576L, 65536L, 7L, 5242880L, 15, 16, 2L));
    // No /sys/dev/block entry: the device keeps its numbers as its name.
    assertThat(s.io()).containsExactly(new BlockDeviceIo("254:0", 254, 0, 40960, 1048576, 10, 256));
    assertThat(s.processes()).isEqualTo(new CgroupProcesses(1, 1L, 1024L, 2, 1, -1L));
    assertThat(s.cpuPressure())
        .isEqualTo(
            new Pressure(new PressureLine(1.5, 0.75, 0.1, 1234567), new PressureLine(0.5, 0.25, 0.05, 234567)));
    assertThat(s.memoryPressure().full().totalMicros()).isEqualTo(1000);
    assertThat(s.ioPressure().some().totalMicros()).isEqualTo(5000);
  }

  @Test
  void aMissingCgroupIsAbsentPartsNeverZeros() {
    CgroupReader reader = new CgroupReader(tmp.resolve("cgroup"), tmp.resolve("proc"), tmp.resolve("dev"));

    CgroupStats s = reader.read(PATH);

    assertThat(s.cpu()).isNull();
    assertThat(s.memory()).isNull();
    assertThat(s.io()).isEmpty();
    assertThat(s.processes()).isNull();
    assertThat(s.cpuPressure()).isNull();
  }

  @Test
  void procPressureWithoutAFullLine() {
    // /proc/pressure/cpu before Linux 5.13 has only "some".
    Pressure p = Pressure.parse("some avg10=83.24 avg60=61.16 avg300=25.95 total=103600009\n");

    assertThat(p.some()).isEqualTo(new PressureLine(83.24, 61.16, 25.95, 103600009));
    assertThat(p.full()).isNull();
  }
}
