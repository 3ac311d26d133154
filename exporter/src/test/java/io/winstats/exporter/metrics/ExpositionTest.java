package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.exporter.testing.PrometheusText;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SampleFixtures;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Which families each Prometheus endpoint serves, for each node kind and collector switch. */
class ExpositionTest {
  private static final Exposition.Build BUILD = new Exposition.Build("1.0", "abc", "2026-11-26");

  /** A Linux node with pods and their cgroups, or a Windows node with pods. */
  private static Snapshot snapshot(NodePlatform platform) {
    if (platform == NodePlatform.LINUX) {
      return CadvisorContractTest.linuxSnapshot(io.winstats.cri.cgroups.CgroupVersion.V2);
    }
    return new Snapshot(
        3,
        SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
        null,
        ExpositionGoldenTest.windowsPods(),
        null);
  }

  private static Set<String> served(MetricsRenderer renderer) {
    StringBuilder text = new StringBuilder();
    for (ByteBuffer part : renderer.render(null, false).parts()) {
      text.append(StandardCharsets.UTF_8.decode(part));
    }
    Set<String> names = new TreeSet<>();
    PrometheusText.parse(text.toString()).forEach(s -> names.add(s.name()));
    return names;
  }

  private static Exposition exposition(NodePlatform platform, EnabledCollectors collectors) {
    Snapshot snapshot = snapshot(platform);
    return new Exposition(() -> snapshot, platform, collectors, BUILD, false, FamilyFilter.ALL, Clock.systemUTC());
  }

  @Test
  void everyCollectorOnServesTheNodesOwnExporterSeries() {
    try (Exposition linux = exposition(NodePlatform.LINUX, EnabledCollectors.ALL);
        Exposition windows = exposition(NodePlatform.WINDOWS, EnabledCollectors.ALL)) {
      assertThat(served(linux.metrics()))
          .contains("node_cpu_seconds_total", "container_cpu_usage_seconds_total", "container_memory_cache",
              "winstats_exporter_build_info")
          .noneMatch(n -> n.startsWith("windows_"));
      assertThat(served(windows.metrics()))
          .contains("windows_cpu_time_total", "windows_container_available", "container_processes")
          .noneMatch(n -> n.startsWith("node_") || n.equals("container_memory_cache"));
      assertThat(served(linux.cadvisor())).contains("container_memory_cache").noneMatch(n -> n.startsWith("node_"));
    }
  }

  @Test
  void aCollectorSwitchedOffIsNotRegistered() {
    try (Exposition linux = exposition(NodePlatform.LINUX, EnabledCollectors.allBut(Collector.CGROUP, Collector.NODE));
        Exposition windows = exposition(NodePlatform.WINDOWS, EnabledCollectors.allBut(Collector.CONTAINER))) {
      Set<String> linuxMetrics = served(linux.metrics());
      assertThat(linuxMetrics)
          .as("no cgroup and no node_exporter series")
          .contains("container_cpu_usage_seconds_total", "machine_cpu_cores")
          .noneMatch(n -> n.startsWith("node_"))
          .doesNotContain("container_memory_cache", "container_processes");
      assertThat(served(linux.cadvisor())).doesNotContain("container_memory_cache");
      assertThat(served(windows.metrics())).contains("windows_cpu_time_total").noneMatch(n -> n.startsWith("windows_container_"));
    }
  }

  @Test
  void eachOfWindowsExportersCollectorsIsSwitchedAlone() {
    try (Exposition all = exposition(NodePlatform.WINDOWS, EnabledCollectors.ALL);
        Exposition noCpuNoDisk =
            exposition(
                NodePlatform.WINDOWS,
                EnabledCollectors.allBut(Collector.WINDOWS_CPU, Collector.WINDOWS_PHYSICAL_DISK));
        Exposition noNode = exposition(NodePlatform.WINDOWS, EnabledCollectors.allBut(Collector.NODE))) {
      Set<String> everything = served(all.metrics());
      assertThat(everything).contains("windows_cpu_time_total", "windows_cs_logical_processors",
          "windows_physical_disk_reads_total", "windows_memory_available_bytes", "windows_logical_disk_free_bytes");
      Set<String> some = served(noCpuNoDisk.metrics());
      assertThat(some)
          .noneMatch(n -> n.startsWith("windows_cpu_") || n.startsWith("windows_physical_disk_"))
          .doesNotContain("windows_cs_logical_processors")
          .contains("windows_memory_available_bytes", "windows_logical_disk_free_bytes", "windows_net_bytes_total",
              "windows_system_threads", "windows_container_available");
      assertThat(everything).as("only those two collectors' families are gone")
          .containsAll(some)
          .allMatch(n -> some.contains(n) || n.startsWith("windows_cpu_") || n.startsWith("windows_physical_disk_")
              || n.equals("windows_cs_logical_processors"));
      assertThat(served(noNode.metrics()))
          .as("the node collector off turns every windows_exporter node collector off, not container")
          .allMatch(n -> !n.startsWith("windows_") || n.startsWith("windows_container_"))
          .contains("windows_container_available");
    }
  }

  /**
   * Why the cgroup collector is registered only on a Linux node: container_processes, the CPU split, the memory
   * peak and the fs I/O families are declared by both collectors on a Windows node (there from the runtime's task
   * metrics), and a registry refuses a family two collectors declare, as it would refuse any other duplicate.
   */
  @Test
  void aRegistryRefusesAFamilyTwoCollectorsDeclare() {
    Snapshot snapshot = snapshot(NodePlatform.WINDOWS);
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(new CadvisorSeriesCollector(() -> snapshot, NodePlatform.WINDOWS));

    assertThatThrownBy(() -> registry.register(new CgroupSeriesCollector(() -> snapshot)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageMatching(
            "(?s).*container_(processes|cpu_user_seconds|cpu_system_seconds|memory_max_usage_bytes|fs_\\w+).*");
    assertThat(List.of(CadvisorSeriesCollector.families(NodePlatform.LINUX), CgroupSeriesCollector.FAMILIES))
        .as("on a Linux node only the cgroup collector declares it")
        .satisfiesExactly(
            cadvisor -> assertThat(cadvisor).noneMatch(f -> f.getPrometheusName().equals("container_processes")),
            cgroup -> assertThat(cgroup).anyMatch(f -> f.getPrometheusName().equals("container_processes")));
  }
}
