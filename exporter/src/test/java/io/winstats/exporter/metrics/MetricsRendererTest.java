package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.exporter.testing.GzipBodies;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MetricsRendererTest {
  private final AtomicLong liveRenders = new AtomicLong();
  private final AtomicLong nanos = new AtomicLong();

  /** Live series: one gauge counting its own renders. */
  private PrometheusRegistry countedLiveSeries() {
    PrometheusRegistry live = new PrometheusRegistry();
    live.register(
        () ->
            MetricSnapshots.of(
                GaugeSnapshot.builder()
                    .name("renders")
                    .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(liveRenders.incrementAndGet()).build())
                    .build()));
    return live;
  }

  private MetricsRenderer renderer(Duration liveTtl) {
    return new MetricsRenderer(new PrometheusRegistry(), countedLiveSeries(), () -> 1, liveTtl, nanos::get);
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

  /** A renderer whose snapshot part is one gauge of the published version, at {@code version}. */
  private MetricsRenderer versioned(AtomicLong version) {
    PrometheusRegistry snapshotSeries = new PrometheusRegistry();
    snapshotSeries.register(
        () ->
            MetricSnapshots.of(
                GaugeSnapshot.builder()
                    .name("snapshot_version")
                    .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(version.get()).build())
                    .build()));
    return new MetricsRenderer(snapshotSeries, countedLiveSeries(), version::get, Duration.ZERO, nanos::get);
  }

  /**
   * The snapshot part renders once per version, format and encoding asked for: N scrapes over K publications render
   * only the versions a scrape saw, however many publications landed between two scrapes (issue 45).
   */
  @Test
  void theSnapshotPartRendersOncePerVersionAskedForWhateverTheScrapesAndPublications() {
    AtomicLong version = new AtomicLong(1);
    MetricsRenderer renderer = versioned(version);
    for (int i = 0; i < 5; i++) {
      renderer.render(null, false);
    }
    assertThat(renderer.snapshotRenders()).isEqualTo(1);
    renderer.render(null, true);
    assertThat(renderer.snapshotRenders()).isEqualTo(2);
    version.addAndGet(3); // three publications in one interval, nothing scraping between them
    for (int i = 0; i < 4; i++) {
      assertThat(StandardCharsets.UTF_8.decode(renderer.render(null, false).parts()[0]).toString())
          .contains("snapshot_version 4.0");
    }
    assertThat(renderer.snapshotRenders()).isEqualTo(3);
    version.incrementAndGet();
    renderer.render(null, false);
    renderer.render(null, true);
    renderer.render(null, true);
    assertThat(renderer.snapshotRenders()).isEqualTo(5);
  }

  /**
   * A superseded version's part is dropped by the cache at the first scrape of a newer one and freed when the last
   * send of it ends; a part no send holds is freed at once.
   */
  @Test
  void aSupersededPartIsHeldByNoCacheAndFreedWhenItsLastSendEnds() {
    AtomicLong version = new AtomicLong(1);
    MetricsRenderer renderer = versioned(version);
    MetricsRenderer.Rendered first = renderer.render(null, false);
    MetricsRenderer.Rendered second = renderer.render(null, false);
    SharedBody v1 = renderer.heldSnapshotParts().get(0);
    assertThat(StandardCharsets.UTF_8.decode(first.parts()[0]).toString()).contains("snapshot_version 1.0");

    version.incrementAndGet();
    MetricsRenderer.Rendered newer = renderer.render(null, false);
    assertThat(renderer.heldSnapshotParts()).hasSize(1).doesNotContain(v1);
    assertThat(v1.released()).isFalse(); // two sends still hold it
    first.sent().run();
    assertThat(v1.released()).isFalse();
    second.sent().run();
    assertThat(v1.released()).isTrue();
    assertThat(v1.retain()).isNull();

    SharedBody v2 = renderer.heldSnapshotParts().get(0);
    newer.sent().run();
    version.incrementAndGet();
    renderer.render(null, false).sent().run();
    assertThat(v2.released()).isTrue();
  }

  /** A snapshot part of {@code points} gauge points with long label values, about 120 bytes a line. */
  private static MetricSnapshots points(long points) {
    GaugeSnapshot.Builder b = GaugeSnapshot.builder().name("container_memory_cache").help("Bytes of page cache.");
    for (long i = 0; i < points; i++) {
      b.dataPoint(
          GaugeSnapshot.GaugeDataPointSnapshot.builder()
              .labels(Labels.of("id", "/kubepods/besteffort/pod-" + i, "namespace", "shop", "pod", "web-" + i))
              .value(i * 4096.0)
              .build());
    }
    return MetricSnapshots.of(b.build());
  }

  private static byte[] bytes(ByteBuffer[] parts, boolean gzip) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (ByteBuffer p : parts) {
      byte[] b = new byte[p.remaining()];
      p.duplicate().get(b);
      all.write(b);
    }
    if (!gzip) {
      return all.toByteArray();
    }
    return GzipBodies.oneMember(all.toByteArray());
  }

  /** A gzip scrape is one member whichever part is cached and however often the live part is rendered again. */
  @Test
  void aGzipScrapeIsOneMemberAcrossSnapshotsAndLiveRenders() throws IOException {
    AtomicLong version = new AtomicLong(1);
    PrometheusRegistry snapshotSeries = new PrometheusRegistry();
    snapshotSeries.register(() -> points(version.get() * 300));
    MetricsRenderer renderer =
        new MetricsRenderer(snapshotSeries, countedLiveSeries(), version::get, Duration.ZERO, nanos::get);
    for (long v = 1; v <= 2; v++) {
      version.set(v);
      for (int scrape = 0; scrape < 2; scrape++) {
        MetricsRenderer.Rendered gzipped = renderer.render(null, true);
        String text = new String(bytes(gzipped.parts(), true), StandardCharsets.UTF_8);
        assertThat(text).startsWith("# HELP container_memory_cache").contains("renders " + liveRenders.get() + ".0");
        assertThat(text.lines().filter(l -> l.startsWith("container_memory_cache{")).count()).isEqualTo(v * 300);
      }
    }
  }

  /**
   * The snapshot part streams into a direct buffer sized from the last body: a first body larger than the starting
   * size, then a larger one than the last, must both come out whole, in every format and encoding, with OpenMetrics'
   * {@code # EOF} once, at the very end.
   */
  @ParameterizedTest
  @ValueSource(strings = {"text", "text+gzip", "openmetrics", "openmetrics+gzip"})
  void theSnapshotPartComesOutWholeWhenItOutgrowsTheLastBody(String form) throws IOException {
    boolean gzip = form.endsWith("+gzip");
    boolean openMetrics = form.startsWith("openmetrics");
    String accept = openMetrics ? "application/openmetrics-text; version=1.0.0" : null;
    AtomicLong version = new AtomicLong(1);
    PrometheusRegistry snapshotSeries = new PrometheusRegistry();
    snapshotSeries.register(() -> points(version.get() * 1_000));
    MetricsRenderer renderer =
        new MetricsRenderer(snapshotSeries, new PrometheusRegistry(), version::get, Duration.ZERO, nanos::get);

    for (long v = 1; v <= 3; v++) {
      version.set(v);
      MetricsRenderer.Rendered r = renderer.render(accept, gzip);
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      if (openMetrics) {
        new OpenMetricsTextFormatWriter(false, false).write(expected, points(v * 1_000));
      } else {
        PrometheusTextFormatWriter.create().write(expected, points(v * 1_000));
      }
      String body = new String(bytes(r.parts(), gzip), StandardCharsets.UTF_8);
      assertThat(body).as("version %d", v).isEqualTo(expected.toString(StandardCharsets.UTF_8));
      assertThat(r.parts()[0].isDirect()).isTrue();
      assertThat(r.gzip()).isEqualTo(gzip);
    }
  }
}
