package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.summary.SampleFixtures;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What windows-containers.prom (ExpositionGoldenTest) does not show: a pod whose runtime did not say. */
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
}
