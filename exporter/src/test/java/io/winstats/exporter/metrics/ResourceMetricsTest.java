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
import java.util.Map;
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
    ContainerSample app = windowsContainer("c-app", "app", new MemoryUsage(t, 40_000_000L, null, null, null, null, null, 120_000_000L));
    ContainerSample side = windowsContainer("c-side", "side", new MemoryUsage(t, 10_000_000L, null, 30_000_000L, null, null, null, null));
    PodSample pod =
        new PodSample(new PodRef("web", "shop", "uid-web"), "sb-web", t.minusSeconds(60), Map.of(), false,
            new CpuUsage(t, 2_000_000_000L, null), new MemoryUsage(t, 50_000_000L, null, null, null, null, null, null),
            null, null, List.of(app, side));
    NodeSample node = SampleFixtures.windowsNode(t, 10_000_000_000L, 25_000_000_000L);
    Snapshot snapshot = new Snapshot(3, node, null, new RuntimeSample(t, "containerd 2.1", List.of(pod), null, List.of()), null);

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
    return new ContainerSample(id, name, 0, "mcr.microsoft.com/windows/nanoserver:ltsc2022", SampleFixtures.T0,
        ContainerSample.State.RUNNING, Map.of(), new CpuUsage(SampleFixtures.T1, 1_000_000_000L, null), memory, null, null, null);
  }
}
