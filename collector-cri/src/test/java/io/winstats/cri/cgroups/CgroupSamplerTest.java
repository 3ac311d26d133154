package io.winstats.cri.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Linux only, for {@link CgroupReaderTest}'s reasons. */
@EnabledOnOs(OS.LINUX)
class CgroupSamplerTest {
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-23T12:00:00Z"), ZoneOffset.UTC);
  private static final String OTHER = "a".repeat(64);

  @TempDir Path tmp;

  private final AtomicLong nanos = new AtomicLong();

  private CgroupSampler sampler() {
    return new CgroupSampler(
        new CgroupReader(tmp.resolve("cgroup"), tmp.resolve("proc"), tmp.resolve("sys")),
        Duration.ofMinutes(1),
        nanos::get,
        CLOCK);
  }

  @Test
  void findsCgroupfsContainersAndTheirPodByRuntimeId() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v1Container(root, "/kubepods/podu1/" + CgroupTrees.ID, 10);
    CgroupTrees.v1Container(root, "/kubepods/podu1/" + CgroupTrees.SANDBOX, 11);
    CgroupTrees.v1Container(root, "/kubepods/podu1", 12);

    CgroupSample s = sampler().sample(List.of(CgroupTrees.SANDBOX), List.of(CgroupTrees.ID));

    assertThat(s.containers()).containsOnlyKeys(CgroupTrees.ID);
    assertThat(s.containers().get(CgroupTrees.ID).path()).isEqualTo("/kubepods/podu1/" + CgroupTrees.ID);
    assertThat(s.pods()).containsOnlyKeys(CgroupTrees.SANDBOX);
    assertThat(s.pods().get(CgroupTrees.SANDBOX).path()).isEqualTo("/kubepods/podu1");
    assertThat(s.missing()).isEmpty();
    assertThat(s.timestamp()).isEqualTo(CLOCK.instant());
  }

  /** The pod's interfaces are the pause process's net/dev (the sandbox's own cgroup); none without a process. */
  @Test
  void readsThePodsNetworkThroughThePauseProcess() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v2Cgroup(root, "/kubepods/podu1/" + CgroupTrees.SANDBOX, 11);
    CgroupTrees.v2Cgroup(root, "/kubepods/podu1", 12);
    CgroupTrees.write(
        tmp.resolve("proc/11/net/dev"),
        "Inter-|   Receive                                                |  Transmit\n"
            + " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls"
            + " carrier compressed\n"
            + "    lo:       0       0    0    0    0     0          0         0        0       0    0    0    0     0"
            + "       0          0\n"
            + "  eth0:    1166      13    1    2    0     0          0         0      542       7    3    4    0     0"
            + "       0          0\n");

    CgroupSample s = sampler().sample(List.of(CgroupTrees.SANDBOX), List.of());

    assertThat(s.podNetworks().get(CgroupTrees.SANDBOX))
        .containsExactly(
            NetDevInterface.builder("lo").build(),
            NetDevInterface.builder("eth0")
                .rxBytes(1166)
                .rxPackets(13)
                .rxErrors(1)
                .rxDropped(2)
                .txBytes(542)
                .txPackets(7)
                .txErrors(3)
                .txDropped(4)
                .build());

    CgroupTrees.write(root.resolve("kubepods/podu1/" + CgroupTrees.SANDBOX + "/cgroup.procs"), "");
    assertThat(sampler().sample(List.of(CgroupTrees.SANDBOX), List.of()).podNetworks()).isEmpty();
  }

  /** The kubelet's pods system container is the cgroup above the pod cgroups, kubepods (cgroupfs driver). */
  @Test
  void readsTheKubepodsCgroupAboveThePods() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v1Container(root, "/kubepods/besteffort/podu1/" + CgroupTrees.SANDBOX, 11);
    CgroupTrees.v1Container(root, "/kubepods/besteffort/podu1", 12);
    CgroupTrees.v1Container(root, "/kubepods", 13);

    CgroupSample s = sampler().sample(List.of(CgroupTrees.SANDBOX), List.of());

    KubepodsCgroup kubepods = s.kubepods();
    assertThat(kubepods).isNotNull();
    assertThat(kubepods.stats().path()).isEqualTo("/kubepods");
    assertThat(kubepods.stats().memory().rssBytes()).as("total_rss").isEqualTo(2097152);
    assertThat(kubepods.memoryUsage()).as("no memory.usage_in_bytes in this tree").isNull();
  }

  /**
   * The kubepods cgroup's usage, working set and limit, which no CRI call gives: v1 {@code memory.usage_in_bytes}
   * less {@code total_inactive_file} (512 in the tree), and {@code memory.limit_in_bytes} (the node allocatable the
   * kubelet sets on it).
   */
  @Test
  void readsTheKubepodsMemoryUsageOnV1() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v1Container(root, "/kubepods/besteffort/podu1/" + CgroupTrees.SANDBOX, 11);
    CgroupTrees.v1Container(root, "/kubepods/besteffort/podu1", 12);
    CgroupTrees.v1Container(root, "/kubepods", 13);
    CgroupTrees.write(root.resolve("memory/kubepods/memory.usage_in_bytes"), "10485760\n");
    CgroupTrees.write(root.resolve("memory/kubepods/memory.limit_in_bytes"), "33554432\n");

    CgroupMemoryUsage usage = sampler().sample(List.of(CgroupTrees.SANDBOX), List.of()).kubepods().memoryUsage();

    assertThat(usage).isEqualTo(new CgroupMemoryUsage(10485760, 10485760 - 512, 33554432L));
    assertThat(usage.availableBytes()).isEqualTo(33554432L - (10485760 - 512));
  }

  /** v2: {@code memory.current} less {@code inactive_file}; {@code memory.max} of {@code max} is no limit. */
  @Test
  void readsTheKubepodsMemoryUsageOnV2() {
    Path root = tmp.resolve("cgroup");
    String pod = "/kubepods.slice/kubepods-podu1.slice";
    CgroupTrees.v2Cgroup(root, "/kubepods.slice", 13);
    CgroupTrees.v2Cgroup(root, pod, 12);
    CgroupTrees.v2Cgroup(root, pod + "/cri-containerd-" + CgroupTrees.SANDBOX + ".scope", 11);
    CgroupTrees.write(root.resolve("kubepods.slice/memory.current"), "4194304\n");
    CgroupTrees.write(root.resolve("kubepods.slice/memory.max"), "max\n");

    CgroupSample s = sampler().sample(List.of(CgroupTrees.SANDBOX), List.of());

    assertThat(s.kubepods()).as("kubepods.slice above %s", s.pods()).isNotNull();
    assertThat(s.kubepods().memoryUsage()).isEqualTo(new CgroupMemoryUsage(4194304, 4194304 - 512, null));
    assertThat(s.kubepods().memoryUsage().availableBytes()).as("no limit, no availableBytes").isNull();
  }

  /** Pod cgroups not under a kubelet's kubepods (a runtime driven without a kubelet) give no pods container. */
  @Test
  void noKubepodsCgroupOutsideTheKubeletsRoot() {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v1Container(root, "/winstats-it/podu1/" + CgroupTrees.SANDBOX, 11);
    CgroupTrees.v1Container(root, "/winstats-it/podu1", 12);
    CgroupTrees.v1Container(root, "/winstats-it", 13);

    assertThat(sampler().sample(List.of(CgroupTrees.SANDBOX), List.of()).kubepods()).isNull();
    assertThat(sampler().sample(List.of(), List.of()).kubepods()).isNull();
  }

  @Test
  void findsSystemdScopes() {
    Path root = tmp.resolve("cgroup");
    String slice = "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-podu1.slice";
    CgroupTrees.v2Cgroup(root, slice + "/cri-containerd-" + CgroupTrees.ID + ".scope", 10);
    CgroupTrees.v2Cgroup(root, slice + "/cri-containerd-" + CgroupTrees.SANDBOX + ".scope", 11);
    CgroupTrees.v2Cgroup(root, slice, 12);

    CgroupSample s = sampler().sample(List.of(CgroupTrees.SANDBOX), List.of(CgroupTrees.ID));

    assertThat(s.version()).isEqualTo(CgroupVersion.V2);
    assertThat(s.containers().get(CgroupTrees.ID).path())
        .isEqualTo(slice + "/cri-containerd-" + CgroupTrees.ID + ".scope");
    assertThat(s.pods().get(CgroupTrees.SANDBOX).path()).isEqualTo(slice);
    assertThat(s.kubepods()).as("no kubepods.slice directory of its own in this tree").isNull();
  }

  @Test
  void walksTheHierarchyOnlyForNewIdsAndAtMostOnceAMinuteForMissingOnes() throws Exception {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v1Container(root, "/kubepods/podu1/" + CgroupTrees.ID, 10);
    CgroupSampler sampler = sampler();

    sampler.sample(List.of(), List.of(CgroupTrees.ID));
    sampler.sample(List.of(), List.of(CgroupTrees.ID));
    assertThat(sampler.scans()).isEqualTo(1);

    CgroupSample withNew = sampler.sample(List.of(), List.of(CgroupTrees.ID, OTHER));
    assertThat(sampler.scans()).isEqualTo(2);
    assertThat(withNew.missing()).containsExactly(OTHER + ": no cgroup");

    sampler.sample(List.of(), List.of(CgroupTrees.ID, OTHER));
    assertThat(sampler.scans()).as("a known-missing id waits for the rescan interval").isEqualTo(2);

    CgroupTrees.v1Container(root, "/kubepods/podu1/" + OTHER, 13);
    nanos.addAndGet(Duration.ofMinutes(1).toNanos());
    CgroupSample later = sampler.sample(List.of(), List.of(CgroupTrees.ID, OTHER));
    assertThat(sampler.scans()).isEqualTo(3);
    assertThat(later.containers()).containsOnlyKeys(CgroupTrees.ID, OTHER);
  }

  @Test
  void aRemovedCgroupIsMissingAndLookedUpAgain() throws Exception {
    Path root = tmp.resolve("cgroup");
    CgroupTrees.v1Container(root, "/kubepods/podu1/" + CgroupTrees.ID, 10);
    CgroupSampler sampler = sampler();
    sampler.sample(List.of(), List.of(CgroupTrees.ID));

    deleteTree(root.resolve("memory/kubepods/podu1/" + CgroupTrees.ID));
    CgroupSample s = sampler.sample(List.of(), List.of(CgroupTrees.ID));

    assertThat(s.containers()).isEmpty();
    assertThat(s.missing()).containsExactly(CgroupTrees.ID + ": cgroup removed");
  }

  /**
   * The kernel removes a v1 container's cgroup one controller directory at a time, so a round can find some of its
   * controllers and not others. An hour of rounds (360 at 10 s) with the container's tree removed part-way six times,
   * a different part each time, for 30 rounds, then made again: no round throws, the other container is read in
   * every round with the same figures, the removed one is missing (never read half) while any part is gone, and it
   * is back within the rescan interval of its return.
   */
  @Test
  void aTreeRemovedPartWayForAnHourOfRoundsCostsOnlyThatContainer() throws Exception {
    Path root = tmp.resolve("cgroup");
    String path = "/kubepods/podu1/" + CgroupTrees.ID;
    CgroupTrees.v1Container(root, path, 10);
    CgroupTrees.v1Container(root, "/kubepods/podu1/" + OTHER, 12);
    CgroupSampler sampler = sampler();
    CgroupSample whole = sampler.sample(List.of(), List.of(CgroupTrees.ID, OTHER));
    assertThat(whole.containers()).containsOnlyKeys(CgroupTrees.ID, OTHER);
    List<List<String>> parts =
        List.of(
            List.of("memory"), List.of("cpu", "cpuacct"), List.of("pids"), List.of("blkio"),
            List.of("memory", "pids", "blkio"), List.of("cpu", "cpuacct", "memory", "pids", "blkio"));
    int rounds = 0;
    int partial = 0;
    for (List<String> gone : parts) {
      for (String controller : gone) {
        deleteTree(root.resolve(controller).resolve(path.substring(1)));
      }
      for (int i = 0; i < 30; i++) {
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        CgroupSample s = sampler.sample(List.of(), List.of(CgroupTrees.ID, OTHER));
        rounds++;
        assertThat(s.containers().get(OTHER))
            .as("the other container's figures")
            .isEqualTo(whole.containers().get(OTHER));
        CgroupStats removed = s.containers().get(CgroupTrees.ID);
        if (removed == null) {
          assertThat(s.missing()).as("%s gone", gone).singleElement().asString().startsWith(CgroupTrees.ID + ": ");
        } else {
          // Read with the controllers still there: each figure is the whole one's or absent, never another value.
          assertThat(changedParts(removed, whole.containers().get(CgroupTrees.ID)))
              .as("%s gone, round %d: parts read with another value", gone, i).isEmpty();
          assertThat(removed).as("%s gone: not read whole", gone).isNotEqualTo(whole.containers().get(CgroupTrees.ID));
          partial++;
        }
      }
      CgroupTrees.v1Container(root, path, 10);
      int backAt = 0;
      for (int i = 1; i <= 30; i++) {
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        CgroupSample s = sampler.sample(List.of(), List.of(CgroupTrees.ID, OTHER));
        rounds++;
        if (backAt == 0 && s.containers().containsKey(CgroupTrees.ID)) {
          backAt = i;
          assertThat(s.containers().get(CgroupTrees.ID)).isEqualTo(whole.containers().get(CgroupTrees.ID));
        }
      }
      assertThat(backAt).as("%s made again: back within the one-minute rescan (6 rounds) and a round", gone)
          .isBetween(1, 7);
    }
    assertThat(rounds).isEqualTo(360);
    System.out.println("CgroupSamplerTest: rounds read part-way " + partial + " of " + parts.size() * 30);
  }

  /** The record components of {@code read} that are neither absent nor those of {@code whole}. */
  private static List<String> changedParts(Record read, Record whole) throws Exception {
    List<String> changed = new java.util.ArrayList<>();
    for (java.lang.reflect.RecordComponent c : read.getClass().getRecordComponents()) {
      Object value = c.getAccessor().invoke(read);
      boolean absent = value == null || value instanceof java.util.Collection<?> list && list.isEmpty();
      if (!absent && !value.equals(c.getAccessor().invoke(whole))) {
        changed.add(c.getName());
      }
    }
    return changed;
  }

  @Test
  void idsFromDirectoryNames() {
    assertThat(CgroupLocator.idOf(CgroupTrees.ID)).isEqualTo(CgroupTrees.ID);
    assertThat(CgroupLocator.idOf("cri-containerd-" + CgroupTrees.ID + ".scope")).isEqualTo(CgroupTrees.ID);
    assertThat(CgroupLocator.idOf("crio-" + CgroupTrees.ID + ".scope")).isEqualTo(CgroupTrees.ID);
    assertThat(CgroupLocator.idOf("kubepods-besteffort-pod" + "1".repeat(32) + ".slice")).isNull();
    assertThat(CgroupLocator.idOf("x" + CgroupTrees.ID)).isNull();
  }

  private static void deleteTree(Path dir) throws Exception {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
