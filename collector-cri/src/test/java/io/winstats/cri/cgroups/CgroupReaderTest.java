package io.winstats.cri.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.GoldenText;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Linux only, as the cgroup reader is (the daemon starts it on Linux nodes with a /sys/fs/cgroup): the fixture trees
 * hold what only a Linux filesystem can, such as /proc/PID/fd links named {@code socket:[12345]}, and the reader's
 * cgroup paths are Linux paths.
 */
@EnabledOnOs(OS.LINUX)
class CgroupReaderTest {
  private static final String PATH = "/kubepods/burstable/pod1234/" + CgroupTrees.ID;
  private static final Path GOLDEN = Path.of("src", "test", "resources", "golden", "cgroups");

  @TempDir Path tmp;

  private final AtomicLong nanos = new AtomicLong();

  /** A reader whose limits are kept for one minute of {@link #nanos}. */
  private CgroupReader reader(Path root) {
    return new CgroupReader(root, tmp.resolve("proc"), tmp.resolve("sys"), Duration.ofMinutes(1), nanos::get);
  }

  /**
   * The whole reading of the full v1 tree ({@link CgroupTrees#v1Container}) is its golden, one figure per line ({@link
   * FigureLines}; {@code -Dgolden.update=true} rewrites it), so that a new key in the tree changes the golden; the
   * assertions after it hold the figures whose source is a choice among the tree's keys.
   */
  @Test
  void readsEveryV1PartWithCadvisorsMeanings() throws IOException {
    Path root = tmp.resolve("cgroup");
    Path proc = tmp.resolve("proc");
    Path sys = tmp.resolve("sys");
    CgroupTrees.v1Container(root, PATH, 4242);
    CgroupTrees.process(proc, 4242, "1048576");
    CgroupTrees.process(proc, 4247, "1024");
    CgroupTrees.device(sys, "254:0", "vda", "none");
    // The unified hierarchy of a hybrid host carries PSI for the cgroups that exist there too, and /proc/pressure.
    CgroupTrees.write(
        root.resolve("unified" + PATH + "/cpu.pressure"),
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=42\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=40\n");
    CgroupTrees.write(
        proc.resolve("pressure/cpu"),
        "some avg10=0.00 avg60=0.00 avg300=0.00 total=7\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=5\n");

    CgroupReader reader = new CgroupReader(root, proc, sys);
    CgroupStats s = reader.read(PATH);

    assertThat(reader.version()).isEqualTo(CgroupVersion.V1);
    GoldenText.assertMatches(GOLDEN.resolve("v1-container.txt"), FigureLines.of(s));
    // use_hierarchy=1: the total_* keys, as cAdvisor's setMemoryStats reads them; pgfault is the cgroup's own.
    assertThat(s.memory().cacheBytes()).as("total_cache, not cache").isEqualTo(1048576);
    assertThat(s.memory().pgfault()).as("pgfault, not total_pgfault").isEqualTo(15);
    // Lowest pid's soft limit; pids.max "max" is cAdvisor's 0 (infinity).
    assertThat(s.processes().maxOpenFilesSoft()).isEqualTo(1048576L);
    assertThat(s.processes().threadsMax()).isZero();
    // The fixture's hybrid unified mount has cpu.pressure: not read, as the kubelet and cAdvisor report PSI on v2 only.
    assertThat(s.cpuPressure()).isNull();
    assertThat(s.memoryPressure()).isNull();
    assertThat(s.ioPressure()).isNull();
    assertThat(reader.nodePressure()).as("no node PSI on v1 either").isEqualTo(NodePressure.NONE);
  }

  /**
   * {@code memory.use_hierarchy} is read once per cgroup, not every round, and read again only after the cgroup left
   * the set {@link CgroupReader#retainOnly} keeps (a cgroup created again at the same path).
   */
  @Test
  void useHierarchyIsReadOncePerCgroupUntilItIsNoLongerRead() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v1Container(root, PATH, 4242);
    CgroupReader reader = new CgroupReader(root, tmp.resolve("proc"), tmp.resolve("sys"));
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
    CgroupReader reader = new CgroupReader(root, tmp.resolve("proc"), tmp.resolve("sys"));

    java.nio.file.Files.writeString(dir.resolve("memory.swap.max"), "max\n");
    assertThat(reader.read(PATH).memory().swapBytes()).isEqualTo(8192L);
    assertThat(reader.read(PATH).memory().swapLimitBytes()).isNull();

    java.nio.file.Files.writeString(dir.resolve("memory.swap.max"), "4096\n");
    java.nio.file.Files.delete(dir.resolve("memory.swap.current"));
    assertThat(reader.read(PATH).memory().swapBytes()).isNull();
    assertThat(reader.read(PATH).memory().swapLimitBytes()).as("no swap accounting: not read").isNull();
  }

  /** The whole reading of the full v2 tree ({@link CgroupTrees#v2Cgroup}) is its golden, as the v1 tree's. */
  @Test
  void readsEveryV2PartWithCadvisorsMeanings() throws IOException {
    Path root = tmp.resolve("cgroup");
    Path proc = tmp.resolve("proc");
    CgroupTrees.v2Cgroup(root, PATH, 77);
    CgroupTrees.process(proc, 77, "unlimited");

    CgroupReader reader = new CgroupReader(root, proc, tmp.resolve("sys"));
    CgroupStats s = reader.read(PATH);

    assertThat(reader.version()).isEqualTo(CgroupVersion.V2);
    GoldenText.assertMatches(GOLDEN.resolve("v2-cgroup.txt"), FigureLines.of(s));
    // failcnt is memory.events "max", as runc's fs2 maps it; swap is memory.swap.current, its limit memory.swap.max.
    assertThat(s.memory().failcnt()).as("max, not oom or oom_kill").isEqualTo(7L);
    assertThat(s.memory().swapBytes()).isEqualTo(8192L);
    assertThat(s.memory().swapLimitBytes()).isEqualTo(1048576L);
    // No /sys/dev/block entry: the device keeps its numbers as its name.
    assertThat(s.io()).extracting(BlockDeviceIo::device).containsExactly("254:0");
    assertThat(s.processes().maxOpenFilesSoft()).as("an unlimited soft limit").isEqualTo(-1L);
  }

  /**
   * Naming a device first seen reads its {@code uevent}, another kernel file: done after {@code io.stat} is parsed.
   * Before the split the name was read mid-parse into the same buffer, and the devices after the first new one were
   * lost in the round that first saw them.
   */
  @Test
  void v2DevicesSeenForTheFirstTimeAreAllNamedAndKept() {
    Path root = tmp.resolve("cgroup");
    Path sys = tmp.resolve("sys");
    CgroupTrees.v2Cgroup(root, PATH, 77);
    CgroupTrees.write(
        root.resolve(PATH.substring(1)).resolve("io.stat"),
        "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0\n8:16 rbytes=5 wbytes=6 rios=7 wios=8 dbytes=0 dios=0\n");
    CgroupTrees.device(sys, "8:0", "sda", "none");
    CgroupTrees.device(sys, "8:16", "sdb", "none");

    CgroupStats s = new CgroupReader(root, tmp.resolve("proc"), sys).read(PATH);

    assertThat(s.io())
        .containsExactly(
            BlockDeviceIo.builder("/dev/sda")
                .major(8)
                .readBytes(1)
                .writeBytes(2)
                .reads(3)
                .writes(4)
                .build(), BlockDeviceIo.builder("/dev/sdb")
                    .major(8)
                    .minor(16)
                    .readBytes(5)
                    .writeBytes(6)
                    .reads(7)
                    .writes(8)
                    .build());
  }

  @Test
  void aMissingCgroupIsAbsentPartsNeverZeros() {
    CgroupReader reader = new CgroupReader(tmp.resolve("cgroup"), tmp.resolve("proc"), tmp.resolve("sys"));

    CgroupStats s = reader.read(PATH);

    assertThat(s.cpu()).isNull();
    assertThat(s.memory()).isNull();
    assertThat(s.io()).isEmpty();
    assertThat(s.processes()).isNull();
    assertThat(s.cpuPressure()).isNull();
  }

  /**
   * cAdvisor's spec reads {@code memory.soft_limit_in_bytes} as the reservation and {@code
   * memory.memsw.limit_in_bytes} as the swap limit on v1 (lib/container/common/helpers.go); both absent without the
   * files (no swap accounting: no memsw).
   */
  @Test
  void v1ReservationAndSwapLimitComeFromTheMemoryCgroup() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v1Container(root, PATH, 4242);
    CgroupTrees.write(root.resolve("memory" + PATH + "/memory.soft_limit_in_bytes"), "33554432\n");
    CgroupTrees.write(root.resolve("memory" + PATH + "/memory.memsw.limit_in_bytes"), "9223372036854771712\n");

    assertThat(reader(root).read(PATH).spec()).isEqualTo(new CgroupSpec(33_554_432L, 9_223_372_036_854_771_712L));
    assertThat(reader(root).read("/kubepods/other").spec()).isEqualTo(CgroupSpec.NONE);
  }

  /**
   * v2: {@code memory.min} is the reservation (cAdvisor), {@code memory.swap.max} the swap limit, {@code max} the
   * largest.
   */
  @Test
  void v2ReservationIsMemoryMinAndSwapLimitIsSwapMax() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v2Cgroup(root, PATH, 77);
    CgroupTrees.write(root.resolve(PATH.substring(1) + "/memory.min"), "0\n");
    CgroupTrees.write(root.resolve(PATH.substring(1) + "/memory.swap.max"), "max\n");

    assertThat(reader(root).read(PATH).spec()).isEqualTo(new CgroupSpec(0L, Long.MAX_VALUE));
  }

  /**
   * The hugetlb controller's usage and peak per page size the host has, named as runc names them; the {@code .rsvd}
   * files where the kernel has them (runc prefers them), the plain ones elsewhere.
   */
  @Test
  void v1HugePagesPerSizeFromTheHugetlbController() {
    Path root = tmp.resolve("cgroup");
    Path sys = tmp.resolve("sys");
    CgroupTrees.v1Container(root, PATH, 4242);
    CgroupTrees.hugePagePool(sys, 2048, 16);
    CgroupTrees.hugePagePool(sys, 1_048_576, 0);
    Path hugetlb = root.resolve("hugetlb" + PATH);
    CgroupTrees.write(hugetlb.resolve("hugetlb.2MB.usage_in_bytes"), "4194304\n");
    CgroupTrees.write(hugetlb.resolve("hugetlb.2MB.max_usage_in_bytes"), "8388608\n");
    CgroupTrees.write(hugetlb.resolve("hugetlb.1GB.rsvd.usage_in_bytes"), "0\n");
    CgroupTrees.write(hugetlb.resolve("hugetlb.1GB.rsvd.max_usage_in_bytes"), "1073741824\n");
    CgroupTrees.write(hugetlb.resolve("hugetlb.1GB.usage_in_bytes"), "5\n");

    assertThat(reader(root).read(PATH).hugetlb())
        .containsExactly(new HugePages("1GB", 0, 1_073_741_824L), new HugePages("2MB", 4_194_304, 8_388_608L));
  }

  @Test
  void v2HugePagesHaveUsageButNoPeak() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v2Cgroup(root, PATH, 77);
    CgroupTrees.hugePagePool(tmp.resolve("sys"), 2048, 16);
    CgroupTrees.write(root.resolve(PATH.substring(1) + "/hugetlb.2MB.current"), "2097152\n");

    assertThat(reader(root).read(PATH).hugetlb()).containsExactly(new HugePages("2MB", 2_097_152, null));
  }

  /**
   * Without a huge page pool (and no overcommit) no cgroup's usage can move: read with the limits, once a minute; with
   * a pool, every round.
   */
  @Test
  void hugePagesAreReadEveryRoundOnlyWhileTheHostHasAPool() {
    Path root = tmp.resolve("cgroup");
    Path sys = tmp.resolve("sys");
    CgroupTrees.v1Container(root, PATH, 4242);
    CgroupTrees.hugePagePool(sys, 2048, 0);
    Path usage = root.resolve("hugetlb" + PATH + "/hugetlb.2MB.usage_in_bytes");
    CgroupTrees.write(usage, "0\n");
    CgroupReader reader = reader(root);
    assertThat(reader.read(PATH).hugetlb()).containsExactly(new HugePages("2MB", 0, null));

    CgroupTrees.write(usage, "2097152\n");
    assertThat(reader.read(PATH).hugetlb()).as("no pool: kept").containsExactly(new HugePages("2MB", 0, null));
    nanos.addAndGet(Duration.ofMinutes(1).toNanos());
    assertThat(reader.read(PATH).hugetlb()).containsExactly(new HugePages("2MB", 2_097_152, null));

    CgroupTrees.hugePagePool(sys, 2048, 8);
    reader.retainOnly(Set.of(PATH)); // the host's facts are read again after a minute too
    CgroupTrees.write(usage, "4194304\n");
    assertThat(reader.read(PATH).hugetlb())
        .as("a pool: every round")
        .containsExactly(new HugePages("2MB", 4_194_304, null));
  }

  /**
   * Limits are read when a cgroup is first seen and again a minute later, not every round; the open-files limit also
   * when the lowest pid changes (another process became the cgroup's root).
   */
  @Test
  void limitsAreReadAgainAfterAMinuteOrWhenTheLowestPidChanges() {
    Path root = tmp.resolve("cgroup");
    Path proc = tmp.resolve("proc");
    CgroupTrees.v1Container(root, PATH, 4242);
    CgroupTrees.process(proc, 4242, "1048576");
    CgroupTrees.process(proc, 4247, "1024");
    Path memory = root.resolve("memory" + PATH);
    CgroupTrees.write(memory.resolve("memory.soft_limit_in_bytes"), "1000\n");
    CgroupReader reader = reader(root);
    CgroupStats first = reader.read(PATH);
    assertThat(first.spec().memoryReservationBytes()).isEqualTo(1000L);
    assertThat(first.processes().threadsMax()).isZero();
    assertThat(first.processes().maxOpenFilesSoft()).isEqualTo(1_048_576L);

    CgroupTrees.write(memory.resolve("memory.soft_limit_in_bytes"), "2000\n");
    CgroupTrees.write(root.resolve("pids" + PATH + "/pids.max"), "64\n");
    CgroupTrees.write(root.resolve("pids" + PATH + "/pids.current"), "9\n");
    CgroupStats kept = reader.read(PATH);
    assertThat(kept.spec().memoryReservationBytes()).as("kept").isEqualTo(1000L);
    assertThat(kept.processes().threadsMax()).as("kept").isZero();
    assertThat(kept.processes().threads()).as("a statistic: every round").isEqualTo(9L);

    CgroupTrees.write(root.resolve("pids" + PATH + "/cgroup.procs"), "4247\n");
    assertThat(reader.read(PATH).processes().maxOpenFilesSoft()).as("a new lowest pid").isEqualTo(1024L);

    nanos.addAndGet(Duration.ofMinutes(1).toNanos());
    CgroupStats later = reader.read(PATH);
    assertThat(later.spec().memoryReservationBytes()).isEqualTo(2000L);
    assertThat(later.processes().threadsMax()).isEqualTo(64L);
  }

  /**
   * v1 block IO as runc reads it: BFQ's files first where BFQ schedules a device (the throttle layer of Linux 6.x
   * counts only throttled cgroups), the throttle layer's otherwise. Without BFQ in use its files are not opened.
   */
  @Test
  void v1BlockIoComesFromBfqWhereBfqSchedulesADevice() {
    Path root = tmp.resolve("cgroup");
    Path sys = tmp.resolve("sys");
    CgroupTrees.v1Container(root, PATH, 4242);
    Path blkio = root.resolve("blkio");
    CgroupTrees.write(blkio.resolve("blkio.bfq.io_serviced_recursive"), "Total 0\n");
    CgroupTrees.write(blkio.resolve("blkio.throttle.io_serviced_recursive"), "Total 0\n");
    CgroupTrees.write(blkio.resolve(PATH.substring(1) + "/blkio.bfq.io_serviced_recursive"),
        "8:0 Read 3\n8:0 Write 4\n8:0 Sync 7\n8:0 Async 0\n8:0 Discard 0\n8:0 Total 7\nTotal 7\n");
    CgroupTrees.write(blkio.resolve(PATH.substring(1) + "/blkio.bfq.io_service_bytes_recursive"),
        "8:0 Read 12288\n8:0 Write 16384\n8:0 Sync 28672\n8:0 Async 0\n8:0 Discard 0\n8:0 Total 28672\n"
            + "Total 28672\n");

    CgroupTrees.device(sys, "8:0", "sda", "bfq");
    assertThat(reader(root).read(PATH).io()).containsExactly(BlockDeviceIo.builder("/dev/sda")
        .major(8)
        .readBytes(12288)
        .writeBytes(16384)
        .reads(3)
        .writes(4)
        .build());

    CgroupTrees.device(sys, "8:0", "sda", "none");
    assertThat(reader(root).read(PATH).io())
        .as("BFQ schedules nothing: the throttle layer")
        .containsExactly(BlockDeviceIo.builder("254:0")
            .major(254)
            .readBytes(40960)
            .writeBytes(1048576)
            .reads(10)
            .writes(256)
            .build());
  }

  /** A cgroup without IO has an empty first policy file; the next policy is asked, as runc does. */
  @Test
  void v1BlockIoFallsThroughAnEmptyPolicy() {
    Path root = tmp.resolve("cgroup");
    Path sys = tmp.resolve("sys");
    CgroupTrees.v1Container(root, PATH, 4242);
    CgroupTrees.device(sys, "8:0", "sda", "bfq");
    Path blkio = root.resolve("blkio");
    CgroupTrees.write(blkio.resolve("blkio.bfq.io_serviced_recursive"), "Total 0\n");
    CgroupTrees.write(blkio.resolve(PATH.substring(1) + "/blkio.bfq.io_serviced_recursive"), "Total 0\n");

    assertThat(reader(root).read(PATH).io()).hasSize(1).allSatisfy(d -> assertThat(d.writeBytes()).isEqualTo(1048576));
  }

  /** The pause process's pid is kept: one read of net/dev per round, cgroup.procs again only when it is gone. */
  @Test
  void thePodsFirstPidIsKeptUntilItsNetDevIsGone() {
    Path root = tmp.resolve("cgroup");
    Path proc = tmp.resolve("proc");
    CgroupTrees.v2Cgroup(root, PATH, 11);
    String netDev =
        "Inter-|   Receive |  Transmit\n face |bytes packets errs drop fifo frame compressed multicast|bytes packets"
            + " errs drop fifo colls carrier compressed\n"
            + "  eth0:    1166      13    0    1    0     0          0         0      542       7    0    2    0     0"
            + "       0          0\n";
    CgroupTrees.write(proc.resolve("11/net/dev"), netDev);
    CgroupReader reader = reader(root);
    assertThat(reader.network(PATH)).extracting(NetDevInterface::name).containsExactly("eth0");

    CgroupTrees.write(root.resolve(PATH.substring(1) + "/cgroup.procs"), "12\n");
    assertThat(reader.network(PATH)).as("pid 11 kept while its net/dev reads").isNotNull();

    CgroupTrees.write(proc.resolve("12/net/dev"), netDev.replace("1166", "2000"));
    try {
      java.nio.file.Files.delete(proc.resolve("11/net/dev"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThat(reader.network(PATH)).extracting(NetDevInterface::rxBytes).containsExactly(2000L);
  }

  @Test
  void procPressureWithoutAFullLine() {
    // /proc/pressure/cpu before Linux 5.13 has only "some".
    Pressure p = Pressure.parse("some avg10=83.24 avg60=61.16 avg300=25.95 total=103600009\n");

    assertThat(p.some()).isEqualTo(new PressureLine(83.24, 61.16, 25.95, 103600009));
    assertThat(p.full()).isNull();
  }
}
