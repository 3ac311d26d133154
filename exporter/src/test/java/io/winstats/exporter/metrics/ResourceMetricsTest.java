package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.exporter.testing.PrometheusText;
import io.winstats.summary.SampleFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
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
}
