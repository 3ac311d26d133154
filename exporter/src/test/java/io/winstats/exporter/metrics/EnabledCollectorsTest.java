package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.NodePlatform;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What runs follows each collector row: turned on, made for the node's kind, and what it reads running too. The rules
 * are checked over every row and on named rows, so a new row is checked without an edit here.
 */
class EnabledCollectorsTest {
  /** windows_exporter's collectors, one row each: {@code --collector.windows.NAME}. */
  private static final List<Collector> WINDOWS_EXPORTERS =
      Arrays.stream(Collector.values()).filter(c -> c.flagName().startsWith("windows.")).toList();

  @Test
  void theDefaultsAreTheRowsOnByDefault() {
    for (Collector c : Collector.values()) {
      assertThat(EnabledCollectors.defaults().isOn(c)).as(c.flagName()).isEqualTo(c.onByDefault());
    }
    assertThat(List.of(Collector.CRI, Collector.CGROUP, Collector.NODE, Collector.CONTAINER))
        .allMatch(Collector::onByDefault);
    assertThat(WINDOWS_EXPORTERS).hasSizeGreaterThanOrEqualTo(8).allMatch(Collector::onByDefault);
  }

  @ParameterizedTest
  @EnumSource(NodePlatform.class)
  void everyCollectorOnRunsThoseMadeForTheNodesKindInRowOrder(NodePlatform platform) {
    List<Collector> running = EnabledCollectors.ALL.running(platform);
    for (Collector c : Collector.values()) {
      assertThat(running.contains(c)).as("%s on a %s node", c.flagName(), platform).isEqualTo(c.runsOn(platform));
    }
    assertThat(running).as("in row order").isSortedAccordingTo(Enum::compareTo);
    assertThat(EnabledCollectors.ALL.runningNames(platform))
        .isEqualTo(running.stream().map(Collector::flagName).toList());
  }

  @Test
  void eachRowRunsOnTheNodeKindsItNames() {
    EnabledCollectors all = EnabledCollectors.ALL;
    assertThat(all.runningNames(NodePlatform.LINUX)).containsSubsequence("cri", "cgroup", "node");
    assertThat(all.runningNames(NodePlatform.LINUX))
        .doesNotContain("container")
        .noneMatch(n -> n.startsWith("windows."));
    assertThat(all.runningNames(NodePlatform.WINDOWS)).containsSubsequence("cri", "node", "container");
    assertThat(all.runningNames(NodePlatform.WINDOWS)).doesNotContain("cgroup");
    assertThat(all.running(NodePlatform.WINDOWS)).containsAll(WINDOWS_EXPORTERS);
  }

  @Test
  void aRowRunsOnlyWhenTheRowsItNeedsRun() {
    for (NodePlatform platform : NodePlatform.values()) {
      for (Collector c : Collector.values()) {
        for (Collector needed : c.needs()) {
          assertThat(EnabledCollectors.allBut(needed).runs(c, platform))
              .as("%s on a %s node without %s", c.flagName(), platform, needed.flagName())
              .isFalse();
        }
      }
    }
    assertThat(Arrays.stream(Collector.values()).filter(c -> !c.needs().isEmpty()))
        .as("some row needs another")
        .isNotEmpty();
  }

  @Test
  void windowsExportersCollectorsNeedTheNodeCollectorAndRunEachAlone() {
    for (Collector c : WINDOWS_EXPORTERS) {
      assertThat(c.needs()).as(c.flagName()).containsExactly(Collector.NODE);
      assertThat(c.runsOn(NodePlatform.LINUX)).as(c.flagName()).isFalse();
    }
    assertThat(EnabledCollectors.allBut(Collector.NODE).running(NodePlatform.WINDOWS))
        .doesNotContainAnyElementsOf(WINDOWS_EXPORTERS)
        .contains(Collector.CRI, Collector.CONTAINER);
    EnabledCollectors noPhysicalDisk = EnabledCollectors.allBut(Collector.WINDOWS_PHYSICAL_DISK);
    assertThat(noPhysicalDisk.runs(Collector.WINDOWS_PHYSICAL_DISK, NodePlatform.WINDOWS)).isFalse();
    assertThat(noPhysicalDisk.runs(Collector.WINDOWS_LOGICAL_DISK, NodePlatform.WINDOWS)).isTrue();
  }

  @Test
  void aCollectorWhoseSourceIsOffDoesNotRun() {
    assertThat(Collector.CGROUP.needs()).containsExactly(Collector.CRI);
    assertThat(Collector.CONTAINER.needs()).containsExactly(Collector.CRI);
    EnabledCollectors noCri = EnabledCollectors.allBut(Collector.CRI);

    assertThat(noCri.isOn(Collector.CGROUP)).isTrue();
    assertThat(noCri.runs(Collector.CGROUP, NodePlatform.LINUX)).as("cgroups are read after a CRI round").isFalse();
    assertThat(noCri.runningNames(NodePlatform.LINUX)).contains("node").doesNotContain("cri", "cgroup");
    assertThat(noCri.runningNames(NodePlatform.WINDOWS)).contains("node").doesNotContain("cri", "container");
    assertThat(noCri.running(NodePlatform.WINDOWS)).containsAll(WINDOWS_EXPORTERS);
    assertThat(new EnabledCollectors(Set.of()).runningNames(NodePlatform.LINUX)).isEmpty();
  }
}
