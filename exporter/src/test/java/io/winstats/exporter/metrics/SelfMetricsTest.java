package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SelfMetricsTest {

  @Test
  void theSamplingIntervalIsAGaugeInSeconds() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new SelfMetrics(registry, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC)).samplingInterval(Duration.ofMillis(2_500));

    assertThat(registry.scrape()).contains("winstats_exporter_sampling_interval_seconds 2.5");
  }

  @Test
  void buildInfoNamesTheNodesOs() throws IOException {
    String text = ExpositionGoldenTest.text(SelfMetrics.buildInfo("1.2.3", "windows").collect());

    assertThat(text)
        .contains("winstats_exporter_build_info{java_version=\"" + System.getProperty("java.version")
            + "\",os=\"windows\",version=\"1.2.3\"} 1");
  }
}
