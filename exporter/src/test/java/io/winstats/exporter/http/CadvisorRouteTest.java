package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.cgroups.CgroupCpu;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupSpec;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.exporter.metrics.CadvisorSeriesCollector;
import io.winstats.exporter.metrics.CgroupSeriesCollector;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SampleFixtures;
import io.winstats.summary.SummaryAssembler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code /metrics/cadvisor}: the kubelet's path serves the cAdvisor series alone; {@code /metrics} keeps all. */
class CadvisorRouteTest {
  private static final Snapshot SNAPSHOT =
      new Snapshot(
          3,
          SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
          null,
          SampleFixtures.runtime(),
          null,
          CgroupSample.builder(SampleFixtures.T1, CgroupVersion.V1, new NodePressure(null, null, null))
              .containers(
                  Map.of(
                      "c-burn",
                      CgroupStats.builder("/kubepods/poduid-burner/c-burn")
                          .cpu(CgroupCpu.builder()
                              .userNanos(2_000_000_000L)
                              .systemNanos(500_000_000L)
                              .periods(10)
                              .throttledPeriods(4)
                              .throttledNanos(300_000_000L)
                              .build())
                          .spec(CgroupSpec.NONE)
                          .build()))
              .build());

  private final HttpClient http = HttpClient.newHttpClient();
  private ExporterServer server;

  @BeforeEach
  void start() {
    CadvisorSeriesCollector cadvisor = new CadvisorSeriesCollector(() -> SNAPSHOT, NodePlatform.LINUX);
    CgroupSeriesCollector cgroups = new CgroupSeriesCollector(() -> SNAPSHOT);
    PrometheusRegistry all = new PrometheusRegistry();
    all.register(cadvisor);
    all.register(cgroups);
    all.register(
        () ->
            MetricSnapshots.of(
                GaugeSnapshot.builder()
                    .name("winstats_exporter_test_only")
                    .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(1).build())
                    .build()));
    PrometheusRegistry cadvisorOnly = new PrometheusRegistry();
    cadvisorOnly.register(cadvisor);
    cadvisorOnly.register(cgroups);
    server =
        new ExporterServer(
            new ListenAddress("127.0.0.1", 0),
            ServerSettings.DEFAULTS,
            () -> SNAPSHOT,
            new SummaryAssembler("node-a", NodePlatform.LINUX),
            new MetricsRenderer(all, new PrometheusRegistry(), () -> 3, Duration.ZERO, System::nanoTime),
            new MetricsRenderer(cadvisorOnly, new PrometheusRegistry(), () -> 3, Duration.ZERO, System::nanoTime));
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String get(String path) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(path).isEqualTo(200);
    return r.body();
  }

  @Test
  void servesTheCadvisorSeriesAloneWithTheKubeletsLabels() throws Exception {
    String body = get("/metrics/cadvisor");

    assertThat(body)
        .contains(
            "container_cpu_cfs_throttled_periods_total{container=\"burn\",id=\"/kubepods/poduid-burner/c-burn\","
                + "image=\"")
        .contains("container_cpu_usage_seconds_total{")
        .contains("machine_cpu_cores ")
        .doesNotContain("winstats_exporter_test_only");
    assertThat(get("/metrics"))
        .contains("winstats_exporter_test_only")
        .contains("container_cpu_cfs_throttled_periods_total{");
  }
}
