package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MetricsRendererTest {
  private final AtomicLong liveRenders = new AtomicLong();
  private final AtomicLong nanos = new AtomicLong();

  private MetricsRenderer renderer(Duration liveTtl) {
    PrometheusRegistry live = new PrometheusRegistry();
    live.register(
        () ->
            MetricSnapshots.of(
                GaugeSnapshot.builder()
                    .name("renders")
                    .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(liveRenders.incrementAndGet()).build())
                    .build()));
    return new MetricsRenderer(new PrometheusRegistry(), live, () -> 1, liveTtl, nanos::get);
  }

  private static String body(MetricsRenderer.Rendered r) {
    return StandardCharsets.UTF_8.decode(r.parts()[1]).toString();
  }

  @Test
  void theLivePartIsReusedWithinItsTtlAndRenderedAgainAfter() {
    MetricsRenderer renderer = renderer(Duration.ofSeconds(1));
    assertThat(body(renderer.render(null, false))).contains("renders 1.0");
    nanos.addAndGet(999_999_999L);
    assertThat(body(renderer.render(null, false))).contains("renders 1.0");
    nanos.addAndGet(1);
    assertThat(body(renderer.render(null, false))).contains("renders 2.0");
  }

  @Test
  void eachFormatAndEncodingHasItsOwnLivePart() {
    MetricsRenderer renderer = renderer(Duration.ofSeconds(1));
    renderer.render(null, false);
    renderer.render(null, true);
    renderer.render("application/openmetrics-text; version=1.0.0", false);
    assertThat(liveRenders.get()).isEqualTo(3);
  }

  @Test
  void aZeroTtlRendersOnEveryScrape() {
    MetricsRenderer renderer = renderer(Duration.ZERO);
    renderer.render(null, false);
    renderer.render(null, false);
    assertThat(liveRenders.get()).isEqualTo(2);
  }
}
