package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.exporter.testing.PrometheusText;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.SampleFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the kubelet's resource metrics collector (pkg/kubelet/metrics/collectors/resource_metrics.go) does. */
class ResourceMetricsTest {
  private static final List<PrometheusText> SERIES = series();

  private static List<PrometheusText> series() {
    try {
      return PrometheusText.parse(ExpositionGoldenTest.text(ResourceMetrics.build(ExpositionGoldenTest.HEALTHY)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void containerStartTimeKeepsItsFractionAndHasNoSampleTimestamp() {
    PrometheusText start = PrometheusText.select(SERIES, "container_start_time_seconds", "container", "burn").get(0);
    double expected = SampleFixtures.T0.getEpochSecond() + 0.25;
    assertThat(start.value()).isEqualTo(expected);
    assertThat(start.timestampMillis()).isNull();
  }

  @Test
  void theDeprecatedScrapeErrorIsHiddenAsFromKubelet130() {
    assertThat(SERIES).extracting(PrometheusText::name).doesNotContain("scrape_error").contains("resource_scrape_error");
  }

  /**
   * kubernetes#141651's memory usage series: the node's usage (commit on Windows), a Windows container's commit from
   * ListPodSandboxStats' commit_memory_bytes where usage_bytes is absent, and the pod's as the sum of its running
   * containers when containerd's pod total has none.
   */
  @Test
  void memoryUsageSeriesServeTheCommitOfWindowsContainersAndTheirPodSum() throws IOException {
    Instant t = SampleFixtures.T1;
    ContainerSample app =
        windowsContainer("c-app", "app", MemoryUsage.builder(t).workingSetBytes(40_000_000L).commitBytes(120_000_000L).build());
    ContainerSample side =
        windowsContainer("c-side", "side", MemoryUsage.builder(t).workingSetBytes(10_000_000L).usageBytes(30_000_000L).build());
    PodSample pod =
        PodSample.builder(new PodRef("web", "shop", "uid-web"), "sb-web")
            .createdAt(t.minusSeconds(60))
            .hostProcess(false)
            .cpu(new CpuUsage(t, 2_000_000_000L, null))
            .memory(MemoryUsage.builder(t).workingSetBytes(50_000_000L).build())
            .containers(List.of(app, side))
            .build();
    NodeSample node = SampleFixtures.windowsNode(t, 10_000_000_000L, 25_000_000_000L);
    RuntimeSample runtime = RuntimeSample.builder(t, "containerd 2.1").pods(List.of(pod)).build();
    Snapshot snapshot = new Snapshot(3, node, null, runtime, null);

    List<PrometheusText> series = PrometheusText.parse(ExpositionGoldenTest.text(ResourceMetrics.build(snapshot)));

    assertThat(PrometheusText.select(series, "container_memory_usage_bytes", "container", "app").get(0).value())
        .isEqualTo(120_000_000.0);
    assertThat(PrometheusText.select(series, "container_memory_usage_bytes", "container", "side").get(0).value())
        .isEqualTo(30_000_000.0);
    assertThat(PrometheusText.select(series, "pod_memory_usage_bytes", "pod", "web").get(0).value()).isEqualTo(150_000_000.0);
    assertThat(PrometheusText.select(series, "node_memory_usage_bytes").get(0).value())
        .isEqualTo((double) node.memory().usageBytes());
  }

  private static ContainerSample windowsContainer(String id, String name, MemoryUsage memory) {
    return ContainerSample.builder(id, name)
        .image("mcr.microsoft.com/windows/nanoserver:ltsc2022")
        .createdAt(SampleFixtures.T0)
        .state(ContainerSample.State.RUNNING)
        .cpu(new CpuUsage(SampleFixtures.T1, 1_000_000_000L, null))
        .memory(memory)
        .build();
  }
}
