package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.util.List;
import java.util.ArrayList;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.PodSample;
import io.winstats.cri.PodSampleBuilder;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.StorageIo;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.CpuUsage;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.SampleFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.testing.GoldenText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import java.util.stream.Stream;

/** The wire text of each series family, pinned by golden files ({@code -Dgolden.update=true} rewrites them). */
class ExpositionGoldenTest {
  static final Snapshot HEALTHY =
      new Snapshot(
          7,
          SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
          SampleFixtures.linuxNode(SampleFixtures.T0, 0, 20_000_000_000L),
          SampleFixtures.runtime(),
          null);
  static final Snapshot RUNTIME_DOWN =
      new Snapshot(
          8,
          SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
          null,
          null,
          "unavailable");

  @Test
  void cadvisorSeries() throws IOException {
    assertGolden("cadvisor.prom", CadvisorSeriesCollector.series(HEALTHY, NodePlatform.LINUX));
  }

  @Test
  void cadvisorSeriesWhileTheRuntimeIsDown() throws IOException {
    assertGolden("cadvisor-runtime-down.prom", CadvisorSeriesCollector.series(RUNTIME_DOWN, NodePlatform.LINUX));
  }

  @Test
  void resourceMetrics() throws IOException {
    assertGolden("resource.prom", ResourceMetrics.build(HEALTHY));
  }

  @Test
  void nodeExporterSeries() throws IOException {
    assertGolden("node-exporter.prom", NodeExporterSeries.build(HEALTHY.node()));
  }

  @Test
  void windowsExporterSeries() throws IOException {
    assertGolden(
        "windows-exporter.prom",
        WindowsExporterSeries.build(SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L)));
  }

  @Test
  void windowsContainerSeries() throws IOException {
    assertGolden("windows-containers.prom", WindowsContainerSeries.build(windowsPods()));
  }

  @Test
  void podEphemeralStorageSeries() throws IOException {
    assertGolden("pod-ephemeral-storage.prom", PodEphemeralStorageSeries.series(HEALTHY));
  }

  /**
   * The cgroup series of the cAdvisor contract's cgroup fixture of each version ({@link
   * CadvisorContractTest#linuxSnapshot}): together they serve every family the cgroup tables declare, so that
   * dashboards' {@code EmittedSeries} knows each served name from them.
   */
  @ParameterizedTest
  @EnumSource(CgroupVersion.class)
  void cgroupSeries(CgroupVersion version) throws IOException {
    assertGolden(
        "cgroup-" + version.name().toLowerCase(Locale.ROOT) + ".prom",
        CgroupSeriesCollector.series(CadvisorContractTest.linuxSnapshot(version)));
  }

  @Test
  void aWindowsNodeWithoutThePhysicalMemorySizeKeepsItsOtherMemorySeries() throws IOException {
    NodeSample replayed =
        SampleFixtures.withoutPhysicalMemorySize(
            SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L));
    Snapshot snapshot = new Snapshot(9, replayed, null, null, null);

    String windows = text(WindowsExporterSeries.build(replayed));
    String cadvisor = text(CadvisorSeriesCollector.series(snapshot, NodePlatform.LINUX));
    String resource = text(ResourceMetrics.build(snapshot));

    assertThat(windows).contains("windows_memory_available_bytes 9.0E9", "windows_memory_commit_limit 2.0E10")
        .doesNotContain("windows_memory_physical_total_bytes", "windows_os_visible_memory_bytes");
    assertThat(cadvisor).doesNotContain("machine_memory_bytes", "container_memory_working_set_bytes")
        .contains("container_memory_usage_bytes{");
    assertThat(resource).doesNotContain("node_memory_working_set_bytes").contains("node_cpu_usage_seconds_total");
  }

  @Test
  void theCadvisorCollectorRendersOncePerVersion() {
    Snapshot[] current = {HEALTHY};
    CadvisorSeriesCollector collector = new CadvisorSeriesCollector(() -> current[0], NodePlatform.LINUX);
    MetricSnapshots first = collector.collect();
    assertThat(collector.collect()).isSameAs(first);
    current[0] = RUNTIME_DOWN;
    assertThat(collector.collect()).isNotSameAs(first);
  }

  static String text(MetricSnapshots snapshots) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, snapshots);
    return out.toString(StandardCharsets.UTF_8);
  }

  private static void assertGolden(String name, MetricSnapshots snapshots) throws IOException {
    GoldenText.assertMatches(Path.of("src/test/resources/golden/prometheus", name), text(snapshots));
  }

  /**
   * The Windows fixture's two pods, with a Windows network endpoint (dropped packets, no errors) on the burner and an
   * exited init container on the sleeper, which no series shows.
   */
  static RuntimeSample windowsPods() {
    RuntimeSample r = SampleFixtures.windowsRuntime();
    List<PodSample> pods = new ArrayList<>();
    for (PodSample p : r.pods()) {
      PodSampleBuilder pod = p.toBuilder();
      if (p.ref().name().equals("burner")) {
        // HNS endpoint statistics: packets beside bytes and drops (the task source; CRI carries no packets).
        pod.network(
            new NetworkUsage(
                SampleFixtures.T1,
                List.of(InterfaceUsage.builder("3e7d9c1a-5b2f-4c8e-9d0a-1f2e3d4c5b6a")
                    .rxBytes(9_120L)
                    .txBytes(4_560L)
                    .rxPacketsDropped(3L)
                    .txPacketsDropped(0L)
                    .rxPackets(91L)
                    .txPackets(45L)
                    .build())));
        // Task metrics (containerd's Tasks.Metrics): the CPU split, the commit peak and storage I/O.
        pod.containers(
            p.containers().stream()
                .map(
                    c ->
                        c.cpu() == null || c.memory() == null
                            ? c
                            : c.toBuilder()
                                .cpu(
                                    new CpuUsage(
                                        c.cpu().timestamp(),
                                        c.cpu().usageCoreNanos(),
                                        c.cpu().usageNanoCores(),
                                        c.cpu().usageCoreNanos() / 4 * 3,
                                        c.cpu().usageCoreNanos() / 4))
                                .memory(
                                    MemoryUsage.builder(c.memory().timestamp())
                                        .workingSetBytes(c.memory().workingSetBytes())
                                        .usageBytes(c.memory().usageBytes())
                                        .commitBytes(c.memory().commitBytes())
                                        .commitPeakBytes(
                                            c.memory().usageBytes() == null ? null : c.memory().usageBytes() + 4096)
                                        .build())
                                .storage(new StorageIo(c.cpu().timestamp(), 120, 7_864_320, 35, 1_048_576))
                                .build())
                .toList());
      } else {
        ContainerSample init = SampleFixtures.exited("c-init", "init", 0, null);
        pod.containers(Stream.concat(p.containers().stream(), Stream.of(init)).toList());
      }
      pods.add(pod.build());
    }
    return r.toBuilder().pods(pods).build();
  }
}
