package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.StorageIo;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SampleFixtures;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What windows-containers.prom (ExpositionGoldenTest) does not show: a pod whose runtime did not say, and the figures
 * only containerd's task metrics and HNS give.
 */
class WindowsContainerSeriesTest {

  /**
   * The runtime did not answer the verbose PodSandboxStatus (or not with containerd's config): the container is still
   * available, without a {@code hostprocess} label, and keeps its other series.
   */
  @Test
  void aPodOfUnknownKindKeepsItsSeriesWithoutTheLabel() throws IOException {
    RuntimeSample r = SampleFixtures.windowsRuntime();
    List<PodSample> unknown =
        r.pods().stream()
            .map(p -> p.toBuilder().hostProcess(null).build())
            .toList();

    String text = ExpositionGoldenTest.text(WindowsContainerSeries.build(r.toBuilder().pods(unknown).build()));

    assertThat(text)
        .contains(
            "windows_container_available{container=\"burn\",container_id=\"containerd://c-burn\",namespace=\"default\","
                + "pod=\"burner\"} 1.0",
            "windows_container_cpu_usage_seconds_total{container=\"burn\",")
        .doesNotContain("hostprocess");
  }

  /**
   * windows_container_count counts what HCS lists as running containers (container.go:319-393@v0.31.8, query
   * {@code {"Types":["Container"]}} at hcs.go:30-34@v0.31.8): each non-HostProcess pod's sandbox (the pause container)
   * and its running containers. A HostProcess pod's containers are job objects, absent from HCS, so 0.31 counts
   * none of them (windows_exporter issue 964).
   */
  @Test
  void theCountIsHcsRunningContainersSandboxesIncludedHostProcessLeftOut() throws IOException {
    RuntimeSample r = SampleFixtures.windowsRuntime();
    assertThat(r.pods()).extracting(PodSample::hostProcess).containsExactly(false, true);

    assertThat(ExpositionGoldenTest.text(WindowsContainerSeries.build(r)))
        .contains("# TYPE windows_container_count gauge", "# HELP windows_container_count Number of containers",
            "windows_container_count 2.0");

    List<PodSample> unknown = r.pods().stream().map(p -> p.toBuilder().hostProcess(null).build()).toList();
    assertThat(ExpositionGoldenTest.text(WindowsContainerSeries.build(r.toBuilder().pods(unknown).build())))
        .as("a pod whose kind the runtime did not say is counted as HCS's (the default kind)")
        .contains("windows_container_count 4.0");

    List<PodSample> exited =
        unknown.stream()
            .map(p -> p.toBuilder().containers(p.containers().stream()
                .map(c -> c.toBuilder().state(ContainerSample.State.EXITED).build()).toList()).build())
            .toList();
    assertThat(ExpositionGoldenTest.text(WindowsContainerSeries.build(r.toBuilder().pods(exited).build())))
        .as("HCS lists only State Running (container.go:334-336@v0.31.8); the sandboxes still run")
        .contains("windows_container_count 2.0");
  }

  /** 0.31 serves 0 when HCS lists none (container.go:320-324@v0.31.8), nothing when HCS does not answer. */
  @Test
  void theCountIsZeroWithoutPodsAndAbsentWithoutARuntimeSample() throws IOException {
    RuntimeSample none = SampleFixtures.windowsRuntime().toBuilder().pods(List.of()).build();

    assertThat(ExpositionGoldenTest.text(WindowsContainerSeries.build(none))).contains("windows_container_count 0.0");
    assertThat(ExpositionGoldenTest.text(WindowsContainerSeries.build((RuntimeSample) null)))
        .doesNotContain("windows_container_count");
  }

  /** The burner pod with task-metric figures on its container and HNS packet counts on its endpoint. */
  private static RuntimeSample withTaskFigures() {
    RuntimeSample r = SampleFixtures.windowsRuntime();
    List<PodSample> pods =
        r.pods().stream()
            .map(
                p -> {
                  if (!p.ref().name().equals("burner")) {
                    return p;
                  }
                  List<ContainerSample> containers =
                      p.containers().stream()
                          .map(
                              c ->
                                  c.toBuilder()
                                      .cpu(new CpuUsage(SampleFixtures.T1, 8_000_000_000L, null, 6_000_000_000L,
                                          2_000_000_000L))
                                      .memory(MemoryUsage.builder(SampleFixtures.T1).workingSetBytes(100L)
                                          .usageBytes(150L).commitBytes(150L).commitPeakBytes(180L).build())
                                      .storage(new StorageIo(SampleFixtures.T1, 40, 163_840, 10, 81_920))
                                      .build())
                          .toList();
                  return p.toBuilder()
                      .containers(containers)
                      .network(new NetworkUsage(SampleFixtures.T1, List.of(
                          InterfaceUsage.builder("ep-1").rxBytes(1000L).txBytes(2000L).rxPacketsDropped(1L)
                              .txPacketsDropped(2L).rxPackets(10L).txPackets(20L).build())))
                      .build();
                })
            .toList();
    return r.toBuilder().pods(pods).build();
  }

  @Test
  void taskMetricFiguresAreServedUnderWindowsExportersNames() throws IOException {
    String text = ExpositionGoldenTest.text(WindowsContainerSeries.build(withTaskFigures()));

    String burn = "{container=\"burn\",container_id=\"containerd://c-burn\",namespace=\"default\",pod=\"burner\"}";
    assertThat(text)
        .contains(
            "# TYPE windows_container_cpu_usage_seconds_kernelmode gauge",
            "windows_container_cpu_usage_seconds_kernelmode" + burn + " 2.0",
            "windows_container_cpu_usage_seconds_usermode" + burn + " 6.0",
            "windows_container_memory_usage_commit_peak_bytes" + burn + " 180.0",
            "windows_container_storage_read_count_normalized_total" + burn + " 40.0",
            "windows_container_storage_read_size_bytes_total" + burn + " 163840.0",
            "windows_container_storage_write_count_normalized_total" + burn + " 10.0",
            "windows_container_storage_write_size_bytes_total" + burn + " 81920.0",
            "windows_container_network_receive_packets_total{container=\"burn\",container_id=\"containerd://c-burn\","
                + "interface=\"EP-1\",namespace=\"default\",pod=\"burner\"} 10.0",
            "windows_container_network_transmit_packets_total{container=\"burn\",");
  }

  @Test
  void taskMetricFiguresAreServedUnderCadvisorsNamesOnAWindowsNodeOnly() throws IOException {
    Snapshot snapshot = new Snapshot(1, null, null, withTaskFigures(), null);

    String windows = ExpositionGoldenTest.text(CadvisorSeriesCollector.series(snapshot, NodePlatform.WINDOWS));
    String linux = ExpositionGoldenTest.text(CadvisorSeriesCollector.series(snapshot, NodePlatform.LINUX));

    assertThat(windows)
        .contains(
            "# TYPE container_cpu_user_seconds_total counter",
            "container_cpu_user_seconds_total{container=\"burn\",",
            "container_cpu_system_seconds_total{container=\"burn\",",
            "container_memory_max_usage_bytes{container=\"burn\",",
            "container_fs_reads_total{container=\"burn\",",
            "container_fs_reads_bytes_total{container=\"burn\",",
            "container_fs_writes_total{container=\"burn\",",
            "container_fs_writes_bytes_total{container=\"burn\",",
            "container_network_receive_packets_total{container=\"\",",
            "container_network_transmit_packets_total{container=\"\",");
    assertThat(CadvisorSeriesCollector.families(NodePlatform.WINDOWS).stream().map(d -> d.getPrometheusName()))
        .contains("container_cpu_user_seconds", "container_fs_reads_bytes", "container_memory_max_usage_bytes");
    assertThat(CadvisorSeriesCollector.families(NodePlatform.LINUX).stream().map(d -> d.getPrometheusName()))
        .as("the cgroup collector's on Linux").doesNotContain("container_cpu_user_seconds", "container_fs_reads");
    assertThat(linux).doesNotContain("container_cpu_user_seconds_total", "container_fs_reads");
  }
}
