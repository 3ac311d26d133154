package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.winstats.exporter.sampling.SamplingLoop;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The daemon's own series: what survives a GC, what a wall-clock step does to the sample age, interval and build info. */
class SelfMetricsTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SteppingClock clock = new SteppingClock(T0);
  private final SelfMetrics self = new SelfMetrics(registry, clock);

  /** A wall clock the test steps, as NTP or an operator would. */
  private static final class SteppingClock extends Clock {
    private volatile Instant now;

    SteppingClock(Instant now) {
      this.now = now;
    }

    void step(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  private double age() {
    return registry.get("winstats.exporter.sample.age").tag("source", "cri").gauge().value();
  }

  @Test
  void sampleAgeFollowsTheWallClockForwardAndRestartsWithTheNextSample() {
    SamplingLoop.Listener<Instant> listener = self.listener("cri", sample -> {}, sample -> sample, reason -> {});
    listener.succeeded(T0, 1_000);
    clock.step(Duration.ofSeconds(3));
    assertThat(age()).isEqualTo(3.0);

    // A forward step of an hour shows as an hour of age until the next sample, which is stamped by the same clock.
    clock.step(Duration.ofHours(1));
    assertThat(age()).isEqualTo(3603.0);
    listener.succeeded(clock.instant(), 1_000);
    assertThat(age()).isZero();
  }

  @Test
  void aWallClockStepBackwardsNeverMakesTheSampleAgeNegative() {
    SamplingLoop.Listener<Instant> listener = self.listener("cri", sample -> {}, sample -> sample, reason -> {});
    listener.succeeded(T0, 1_000);

    clock.step(Duration.ofHours(-1));
    assertThat(age()).as("age after the wall clock stepped back an hour").isZero();

    clock.step(Duration.ofSeconds(2));
    assertThat(age()).isZero();
    listener.succeeded(clock.instant(), 1_000);
    clock.step(Duration.ofSeconds(2));
    assertThat(age()).isEqualTo(2.0);
  }

  @Test
  void sampleAgeIsNaNBeforeTheFirstSample() {
    self.listener("cri", sample -> {}, (Instant sample) -> sample, reason -> {});
    assertThat(age()).isNaN();
  }

  /**
   * Micrometer holds a gauge's state object weakly unless told otherwise; the series count is read through a method
   * reference that nothing else holds, so without a strong reference it read NaN after the first GC (it did, on every
   * live scrape). A control gauge registered the old way, with a state object just as unreachable, shows when a GC has
   * cleared weakly held state: the test collects until it has, rather than trusting one {@code System.gc()}.
   */
  @Test
  void seriesCountSurvivesTheCollectionThatEmptiesAWeaklyHeldGauge() {
    AtomicLong control = new AtomicLong(99);
    Gauge.builder("test.weakly.held", (java.util.function.LongSupplier) control::get, s -> s.getAsLong())
        .register(registry);
    AtomicLong series = new AtomicLong(1234);
    self.seriesCount(series::get);
    Gauge weak = registry.get("test.weakly.held").gauge();
    assertThat(weak.value()).isEqualTo(99.0);

    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    List<byte[]> garbage = new ArrayList<>();
    while (!Double.isNaN(weak.value())) {
      assertThat(System.nanoTime() - deadline).as("no collection cleared the weakly held control in 20 s").isNegative();
      garbage.add(new byte[1 << 20]);
      if (garbage.size() == 16) {
        garbage.clear();
        System.gc();
      }
    }
    assertThat(registry.get("winstats.exporter.series").gauge().value()).isEqualTo(1234.0);
  }

  @Test
  void theSamplingIntervalIsAGaugeInSeconds() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new SelfMetrics(registry, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC)).samplingInterval(Duration.ofMillis(2_500));

    assertThat(registry.scrape()).contains("winstats_exporter_sampling_interval_seconds 2.5");
  }

  @Test
  void criCacheEntriesAreReadAtScrapeTimeOneSeriesPerCache() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AtomicLong pods = new AtomicLong(3);
    new SelfMetrics(registry, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC))
        .criCacheEntries(() -> Map.of("pod_identities", pods.get(), "cpu_readings", 7L));

    assertThat(registry.scrape())
        .contains("winstats_exporter_cri_cache_entries{cache=\"pod_identities\"} 3.0")
        .contains("winstats_exporter_cri_cache_entries{cache=\"cpu_readings\"} 7.0");
    pods.set(0);
    assertThat(registry.scrape()).contains("winstats_exporter_cri_cache_entries{cache=\"pod_identities\"} 0.0");
  }

  @Test
  void criStreamFallbacksAreACounterPerStreamReadAtScrapeTime() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AtomicLong pods = new AtomicLong(0);
    new SelfMetrics(registry, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC))
        .criStreamFallbacks(() -> Map.of("StreamPodSandboxStats", pods.get(), "StreamContainers", 1L));

    assertThat(registry.scrape())
        .contains("# TYPE winstats_exporter_cri_stream_fallbacks_total counter")
        .contains("winstats_exporter_cri_stream_fallbacks_total{stream=\"StreamPodSandboxStats\"} 0.0")
        .contains("winstats_exporter_cri_stream_fallbacks_total{stream=\"StreamContainers\"} 1.0");
    pods.set(2);
    assertThat(registry.scrape())
        .contains("winstats_exporter_cri_stream_fallbacks_total{stream=\"StreamPodSandboxStats\"} 2.0");
  }

  @Test
  void buildInfoNamesTheNodesOs() throws IOException {
    String text = ExpositionGoldenTest.text(
        SelfMetrics.buildInfo("1.2.3", "0123456789ab", "2026-11-25T04:50:00Z", "windows").collect());

    assertThat(text)
        .contains("winstats_exporter_build_info{build_date=\"2026-11-25T04:50:00Z\",java_version=\""
            + System.getProperty("java.version") + "\",os=\"windows\",revision=\"0123456789ab\",version=\"1.2.3\"} 1");
  }
}
