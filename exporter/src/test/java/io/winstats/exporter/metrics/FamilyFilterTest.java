package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** --metrics.include / --metrics.exclude: families matched by their exposed names, in both parts of /metrics. */
class FamilyFilterTest {
  private static FamilyFilter filter(String include, String exclude) {
    return new FamilyFilter(Pattern.compile(include), Pattern.compile(exclude));
  }

  @Test
  void namesAreMatchedWholeAsExposed() {
    FamilyFilter noNetwork = filter(".*", "container_network_.*");
    assertThat(noNetwork.serves("container_network_receive_bytes_total")).isFalse();
    assertThat(noNetwork.serves("container_cpu_usage_seconds_total")).isTrue();
    // Whole-name matching, as Prometheus' relabel regexes: a prefix alone does not match.
    assertThat(filter(".*", "container_network").serves("container_network_receive_bytes_total")).isTrue();
    assertThat(filter("machine_.*", "").serves("container_cpu_usage_seconds_total")).isFalse();
    assertThat(FamilyFilter.ALL.serves("anything")).isTrue();
  }

  @Test
  void countersAndInfoSeriesGoByTheirSuffixedNames() {
    assertThat(FamilyFilter.exposedName(CounterSnapshot.builder().name("container_cpu_usage_seconds").build()))
        .isEqualTo("container_cpu_usage_seconds_total");
    assertThat(FamilyFilter.exposedName(InfoSnapshot.builder().name("winstats_exporter_build").build()))
        .isEqualTo("winstats_exporter_build_info");
  }

  @Test
  void theRendererServesOnlyTheFamiliesLetThroughInBothParts() {
    PrometheusRegistry snapshot = new PrometheusRegistry();
    snapshot.register(() -> MetricSnapshots.of(
        CounterSnapshot.builder().name("container_network_receive_bytes")
            .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("pod", "a")).value(1).build())
            .build(),
        GaugeSnapshot.builder().name("machine_cpu_cores")
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(2).build()).build()));
    PrometheusRegistry live = new PrometheusRegistry();
    live.register(() -> MetricSnapshots.of(
        GaugeSnapshot.builder().name("jvm_threads_live_threads")
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(20).build()).build(),
        GaugeSnapshot.builder().name("winstats_exporter_series")
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(3).build()).build()));
    MetricsRenderer renderer = new MetricsRenderer(snapshot, live, () -> 1, Duration.ZERO, () -> 0,
        filter(".*", "container_network_.*|jvm_.*"));

    MetricsRenderer.Rendered r = renderer.render(null, false);
    StringBuilder body = new StringBuilder();
    for (ByteBuffer part : r.parts()) {
      body.append(StandardCharsets.UTF_8.decode(part.duplicate()));
    }

    assertThat(body.toString())
        .contains("machine_cpu_cores 2.0", "winstats_exporter_series 3.0")
        .doesNotContain("container_network_receive_bytes_total", "jvm_threads_live_threads");
    assertThat(renderer.lastSeriesCount()).as("the served series only").isEqualTo(1);
  }
}
