package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What a push reads: the snapshot part's families of one version, after the family filter, live series left out. */
class MetricsRendererSeriesTest {
  @Test
  void theSeriesAreTheFilteredSnapshotFamiliesOfOneVersion() {
    AtomicLong version = new AtomicLong(1);
    AtomicLong builds = new AtomicLong();
    PrometheusRegistry snapshotSeries = new PrometheusRegistry();
    // The first build lands while a new snapshot is published: the families must be read again, all of version 2.
    snapshotSeries.register(
        () -> {
          long v = version.get();
          if (builds.getAndIncrement() == 0) {
            version.incrementAndGet();
          }
          return new MetricSnapshots(
              GaugeSnapshot.builder().name("container_memory_cache").help("Cache.")
                  .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(v * 10)
                      .labels(Labels.of("pod", "web")).scrapeTimestampMillis(1234).build())
                  .build(),
              CounterSnapshot.builder().name("container_cpu_usage_seconds").help("CPU.")
                  .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(v * 100).build())
                  .build(),
              GaugeSnapshot.builder().name("container_network_receive_errors").help("Excluded.")
                  .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(1).build())
                  .build());
        });
    PrometheusRegistry live = new PrometheusRegistry();
    live.register(
        () -> new MetricSnapshots(GaugeSnapshot.builder().name("winstats_exporter_live").help("Live.")
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(1).build()).build()));
    MetricsRenderer renderer =
        new MetricsRenderer(snapshotSeries, live, version::get, Duration.ZERO, System::nanoTime,
            new FamilyFilter(Pattern.compile(".*"), Pattern.compile("container_network_.*")));

    ServedFamilies series = renderer.series();

    assertThat(series.version()).isEqualTo(2);
    assertThat(series.families()).extracting(ServedFamilies.Family::name)
        .containsExactly("container_cpu_usage_seconds_total", "container_memory_cache");
    ServedFamilies.Point cache = series.families().get(1).points().get(0);
    assertThat(cache.value()).isEqualTo(20);
    assertThat(cache.labels()).containsExactly(java.util.Map.entry("pod", "web"));
    assertThat(cache.timestampMillis()).isEqualTo(1234);
    assertThat(series.families().get(0).type()).isEqualTo(ServedFamilies.Type.COUNTER);
    assertThat(series.families().get(0).points().get(0).value()).isEqualTo(200);
    assertThat(series.families().get(0).points().get(0).timestampMillis()).isZero();
  }
}
