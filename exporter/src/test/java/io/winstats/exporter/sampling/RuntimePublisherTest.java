package io.winstats.exporter.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupProcesses;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.cri.cgroups.NetDevInterface;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.summary.SampleFixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

class RuntimePublisherTest {
  private static CgroupSample cgroups(Instant at) {
    return CgroupSample.builder(at, CgroupVersion.V2, new NodePressure(null, null, null)).build();
  }

  /**
   * The cgroup read (seconds on a loaded node) must not hold back the CRI round: while it runs, scrapes already see the
   * new round, with the previous round's cgroups; then the new cgroups land.
   */
  @Test
  void theRoundIsServedBeforeItsCgroupsAreRead() {
    SnapshotStore store = new SnapshotStore();
    RuntimeSample first = SampleFixtures.runtime();
    RuntimeSample second = first.toBuilder().timestamp(SampleFixtures.T1.plusSeconds(10)).filesystems(null).build();
    CgroupSample firstCgroups = cgroups(SampleFixtures.T1);
    CgroupSample secondCgroups = cgroups(SampleFixtures.T1.plusSeconds(10));
    List<Snapshot> seenWhileReading = new ArrayList<>();
    RuntimePublisher publisher =
        new RuntimePublisher(
            store,
            round -> {
              seenWhileReading.add(store.current());
              return round == first ? firstCgroups : secondCgroups;
            });

    publisher.accept(first);
    publisher.accept(second);

    assertThat(seenWhileReading).extracting(Snapshot::runtime).containsExactly(first, second);
    assertThat(seenWhileReading).extracting(Snapshot::cgroups).containsExactly(null, firstCgroups);
    assertThat(store.current().runtime()).isSameAs(second);
    assertThat(store.current().cgroups()).isSameAs(secondCgroups);
  }

  @Test
  void aFailedCgroupReadLosesThatRoundsCgroupSeriesOnly() {
    SnapshotStore store = new SnapshotStore();
    RuntimeSample round = SampleFixtures.runtime();
    new RuntimePublisher(store, r -> cgroups(SampleFixtures.T1)).accept(round);

    new RuntimePublisher(store, r -> null).accept(round);

    assertThat(store.current().runtime()).isSameAs(round);
    assertThat(store.current().cgroups()).isNull();
  }

  /**
   * A ListContainerStats round (the sleeper pod: no network, no process count) gets them from the cgroup round: eth0 of
   * the pod's net/dev, as containerd's getContainerNetIO reads eth0, at the cgroup read's time; the containers'
   * cgroup.procs summed. The pod that has them from the runtime (burner) keeps the runtime's.
   */
  @Test
  void aContainerStatsRoundGetsPodNetworkAndProcessesFromItsCgroups() {
    SnapshotStore store = new SnapshotStore();
    RuntimeSample round = SampleFixtures.runtime();
    Instant read = SampleFixtures.T1.plusMillis(150);
    CgroupStats sleep =
        CgroupStats.builder("/kubepods/poduid-sleeper/c-sleep").processes(processes(3)).build();
    CgroupSample cgroups =
        CgroupSample.builder(read, CgroupVersion.V1, new NodePressure(null, null, null))
            .containers(Map.of("c-sleep", sleep))
            .podNetworks(
                Map.of(
                    "sandbox-2",
                    List.of(
                        NetDevInterface.builder("lo").rxBytes(10).rxPackets(1).txBytes(10).txPackets(1).build(),
                        eth0(4_096))))
            .build();

    new RuntimePublisher(store, r -> cgroups).accept(round);

    RuntimeSample published = Objects.requireNonNull(store.current().runtime());
    PodSample sleeper = pod(published, "sleeper");
    NetworkUsage network = Objects.requireNonNull(sleeper.network());
    assertThat(network.timestamp()).isEqualTo(read);
    assertThat(network.interfaces())
        .containsExactly(
            InterfaceUsage.builder("eth0").rxBytes(4_096L).rxErrors(2L).txBytes(2_048L).txErrors(3L).build());
    assertThat(sleeper.processCount()).isEqualTo(3L);
    assertThat(pod(published, "burner")).isEqualTo(pod(round, "burner"));
    assertThat(store.current().cgroups()).isSameAs(cgroups);
  }

  /**
   * While a ListContainerStats round's cgroups are read, the round is served with the pod figures of the last cgroup
   * read, at that read's time, rather than without any: a summary served meanwhile kept every pod's network.
   */
  @Test
  void whileItsCgroupsAreReadARoundKeepsThePodFiguresOfTheLastRead() {
    SnapshotStore store = new SnapshotStore();
    RuntimeSample first = SampleFixtures.runtime();
    RuntimeSample second = first.toBuilder().timestamp(SampleFixtures.T1.plusSeconds(10)).build();
    Instant firstRead = SampleFixtures.T1.plusMillis(150);
    CgroupSample firstCgroups = sleeperCgroups(firstRead, 4_096, 3);
    CgroupSample secondCgroups = sleeperCgroups(firstRead.plusSeconds(10), 8_192, 2);
    List<PodSample> servedWhileReading = new ArrayList<>();
    RuntimePublisher publisher =
        new RuntimePublisher(
            store,
            round -> {
              servedWhileReading.add(pod(Objects.requireNonNull(store.current().runtime()), "sleeper"));
              return round == first ? firstCgroups : secondCgroups;
            });

    publisher.accept(first);
    publisher.accept(second);

    assertThat(servedWhileReading.get(0).network()).as("no cgroup read yet").isNull();
    PodSample meanwhile = servedWhileReading.get(1);
    assertThat(meanwhile.network()).as("the pod's network while the second round's cgroups are read").isNotNull();
    assertThat(Objects.requireNonNull(meanwhile.network()).timestamp()).isEqualTo(firstRead);
    assertThat(Objects.requireNonNull(meanwhile.network()).interfaces().get(0).rxBytes()).isEqualTo(4_096L);
    assertThat(meanwhile.processCount()).isEqualTo(3L);
    PodSample after = pod(Objects.requireNonNull(store.current().runtime()), "sleeper");
    assertThat(Objects.requireNonNull(after.network()).timestamp()).isEqualTo(firstRead.plusSeconds(10));
    assertThat(after.processCount()).isEqualTo(2L);
    assertThat(store.current().runtime().timestamp()).isEqualTo(second.timestamp());
  }

  /** The sleeper pod's cgroups read at {@code at}: {@code rxBytes} in on eth0, {@code processes} in its container. */
  private static CgroupSample sleeperCgroups(Instant at, long rxBytes, long processes) {
    CgroupStats sleep =
        CgroupStats.builder("/kubepods/poduid-sleeper/c-sleep")
            .processes(processes(processes))
            .build();
    return CgroupSample.builder(at, CgroupVersion.V1, new NodePressure(null, null, null))
        .containers(Map.of("c-sleep", sleep))
        .podNetworks(Map.of("sandbox-2", List.of(eth0(rxBytes))))
        .build();
  }

  /** {@code processes} processes and as many threads, 4 open files, no socket. */
  private static CgroupProcesses processes(long processes) {
    return CgroupProcesses.builder()
        .processes(processes)
        .threads(processes)
        .threadsMax(0L)
        .fileDescriptors(4)
        .maxOpenFilesSoft(1024L)
        .build();
  }

  /** The sleeper's eth0 with {@code rxBytes} received. */
  private static NetDevInterface eth0(long rxBytes) {
    return NetDevInterface.builder("eth0")
        .rxBytes(rxBytes)
        .rxPackets(40)
        .rxErrors(2)
        .rxDropped(1)
        .txBytes(2_048)
        .txPackets(20)
        .txErrors(3)
        .build();
  }

  private static PodSample pod(RuntimeSample round, String name) {
    return round.pods().stream().filter(p -> p.ref().name().equals(name)).findFirst().orElseThrow();
  }
}
