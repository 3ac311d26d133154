package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.NodePlatform;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What runs follows each collector row: turned on, made for the node's kind, and what it reads running too. */
class EnabledCollectorsTest {
  @Test
  void everyCollectorOnRunsThoseMadeForTheNodesKind() {
    assertThat(EnabledCollectors.defaults()).isEqualTo(EnabledCollectors.ALL);
    assertThat(EnabledCollectors.ALL.runningNames(NodePlatform.LINUX)).containsExactly("cri", "cgroup", "node");
    assertThat(EnabledCollectors.ALL.runningNames(NodePlatform.WINDOWS))
        .containsExactly(
            "cri", "node", "windows.cpu", "windows.memory", "windows.net", "windows.logical_disk",
            "windows.physical_disk", "windows.system", "windows.os", "windows.service", "container");
  }

  @Test
  void windowsExportersCollectorsRunOnlyWithTheNodeCollectorAndEachAlone() {
    assertThat(EnabledCollectors.allBut(Collector.NODE).runningNames(NodePlatform.WINDOWS))
        .containsExactly("cri", "container");
    EnabledCollectors noPhysicalDisk = EnabledCollectors.allBut(Collector.WINDOWS_PHYSICAL_DISK);
    assertThat(noPhysicalDisk.runs(Collector.WINDOWS_PHYSICAL_DISK, NodePlatform.WINDOWS)).isFalse();
    assertThat(noPhysicalDisk.runs(Collector.WINDOWS_LOGICAL_DISK, NodePlatform.WINDOWS)).isTrue();
    assertThat(EnabledCollectors.ALL.runs(Collector.WINDOWS_CPU, NodePlatform.LINUX)).isFalse();
  }

  @Test
  void aCollectorWhoseSourceIsOffDoesNotRun() {
    EnabledCollectors noCri = EnabledCollectors.allBut(Collector.CRI);

    assertThat(noCri.isOn(Collector.CGROUP)).isTrue();
    assertThat(noCri.runs(Collector.CGROUP, NodePlatform.LINUX)).as("cgroups are read after a CRI round").isFalse();
    assertThat(noCri.runningNames(NodePlatform.LINUX)).containsExactly("node");
    assertThat(noCri.runningNames(NodePlatform.WINDOWS))
        .containsExactly(
            "node", "windows.cpu", "windows.memory", "windows.net", "windows.logical_disk", "windows.physical_disk",
            "windows.system", "windows.os", "windows.service");
    assertThat(new EnabledCollectors(Set.of()).runningNames(NodePlatform.LINUX)).isEmpty();
  }
}
