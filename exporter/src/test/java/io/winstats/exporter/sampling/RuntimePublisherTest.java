package io.winstats.exporter.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.summary.SampleFixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuntimePublisherTest {
  private static CgroupSample cgroups(Instant at) {
    return new CgroupSample(at, CgroupVersion.V2, Map.of(), Map.of(), List.of(), new NodePressure(null, null, null));
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
}
