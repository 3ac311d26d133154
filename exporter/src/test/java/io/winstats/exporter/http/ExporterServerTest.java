package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.exporter.metrics.CadvisorSeriesCollector;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.parts.PartLedger;
import io.winstats.exporter.parts.PartState;
import io.winstats.exporter.parts.PartsReport;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.exporter.testing.GzipBodies;
import io.winstats.exporter.testing.PrometheusText;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SampleFixtures;
import io.winstats.summary.SummaryAssembler;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ExporterServerTest {
  private static final Snapshot NOT_READY = new Snapshot(0, null, null, null, "no runtime sample yet");
  private static final Snapshot READY =
      new Snapshot(
          3,
          SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
          SampleFixtures.linuxNode(SampleFixtures.T0, 0, 20_000_000_000L),
          SampleFixtures.runtime(),
          null);

  private final AtomicReference<Snapshot> snapshot = new AtomicReference<>(NOT_READY);
  private final AtomicLong liveCollects = new AtomicLong();
  private final AtomicLong snapshotCollects = new AtomicLong();
  private final AtomicLong liveClock = new AtomicLong();
  private final HttpClient http = HttpClient.newHttpClient();
  private ExporterServer server;
  private MetricsRenderer renderer;

  @BeforeEach
  void start() {
    PrometheusRegistry snapshotSeries = new PrometheusRegistry();
    CadvisorSeriesCollector cadvisor = new CadvisorSeriesCollector(snapshot::get, NodePlatform.LINUX);
    snapshotSeries.register(
        () -> {
          snapshotCollects.incrementAndGet();
          return cadvisor.collect();
        });
    PrometheusRegistry liveSeries = new PrometheusRegistry();
    liveSeries.register(
        () ->
            MetricSnapshots.of(
                GaugeSnapshot.builder()
                    .name("test_live_collects")
                    .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(liveCollects.incrementAndGet()).build())
                    .build()));
    renderer =
        new MetricsRenderer(snapshotSeries, liveSeries, () -> snapshot.get().version(), Duration.ZERO, liveClock::get);
    server =
        new ExporterServer(new ListenAddress("127.0.0.1", 0), snapshot::get, new SummaryAssembler("node-a", NodePlatform.LINUX), renderer);
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<byte[]> send(String method, String path, String... headers) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static String text(HttpResponse<byte[]> r) {
    return new String(r.body(), StandardCharsets.UTF_8);
  }

  private static Snapshot readyAt(long version) {
    return new Snapshot(version, READY.node(), READY.previousNode(), READY.runtime(), null);
  }

  /**
   * Each body renders once per snapshot version and kind asked for: N requests over K publications render only the
   * versions a request saw, however many publications landed between two requests (issue 45).
   */
  @Test
  void eachBodyRendersOncePerSnapshotVersionAskedFor() throws Exception {
    snapshot.set(readyAt(3));
    for (int i = 0; i < 4; i++) {
      assertThat(send("GET", "/stats/summary").statusCode()).isEqualTo(200);
    }
    send("GET", "/stats/summary", "Accept-Encoding", "gzip");
    send("HEAD", "/stats/summary");
    assertThat(server.bodyRenders()).isEqualTo(1);
    send("GET", "/stats/summary?only_cpu_and_memory=true");
    send("GET", "/metrics/resource");
    assertThat(server.bodyRenders()).isEqualTo(3);
    for (int i = 0; i < 3; i++) {
      send("GET", "/metrics");
    }
    assertThat(renderer.snapshotRenders()).isEqualTo(1);

    // Three publications in one interval, nothing reading between them.
    snapshot.set(readyAt(4));
    snapshot.set(readyAt(5));
    snapshot.set(readyAt(6));
    for (int i = 0; i < 3; i++) {
      send("GET", "/stats/summary");
      send("GET", "/metrics");
    }
    assertThat(server.bodyRenders()).isEqualTo(4);
    assertThat(renderer.snapshotRenders()).isEqualTo(2);
  }

  /** The first request of a newer version drops every body of the older one: the cache holds none of them. */
  @Test
  void aSupersededBodyIsHeldByNoCache() throws Exception {
    snapshot.set(readyAt(3));
    send("GET", "/stats/summary");
    send("GET", "/stats/summary", "Accept-Encoding", "gzip");
    List<RenderedBody> v3 = server.heldBodies();
    assertThat(v3).hasSize(1);
    snapshot.set(readyAt(4));
    assertThat(send("GET", "/stats/summary").statusCode()).isEqualTo(200);
    assertThat(server.heldBodies()).hasSize(1).doesNotContainAnyElementsOf(v3);
  }

  /** The landing page: HTML with a link per endpoint for a browser, text lines for Accept: text/plain. */
  @Test
  void theLandingPageIsHtmlForABrowserAndTextWhenAskedFor() throws Exception {
    HttpResponse<byte[]> browser = send("GET", "/", "Accept", "text/html,application/xhtml+xml,*/*;q=0.8");
    assertThat(browser.statusCode()).isEqualTo(200);
    assertThat(browser.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    assertThat(text(browser))
        .startsWith("<!DOCTYPE html>")
        .contains("<title>winstats-exporter</title>")
        .contains("<a href=\"/metrics\">", "<a href=\"/metrics/cadvisor\">", "<a href=\"/metrics/resource\">",
            "<a href=\"/stats/summary\">", "<a href=\"/stats/summary?only_cpu_and_memory=true\">",
            "<a href=\"/healthz\">");

    HttpResponse<byte[]> script = send("GET", "/", "Accept", "text/plain");
    assertThat(script.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
    assertThat(text(script).lines()).startsWith("winstats-exporter").contains("/metrics", "/stats/summary", "/healthz");
    // Each line says whole what it serves, and the page names no command that does not exist (the jar is run by java).
    assertThat(text(browser))
        .contains("the daemon's own winstats_exporter_* series, JVM and process metrics</li>")
        .contains("java -jar winstats-exporter.jar --help")
        .doesNotContain("<code>winstats-exporter --help</code>");
    assertThat(send("GET", "/").headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
  }

  /** /status: the parts as the daemon's ledger holds them now, JSON, linked from the landing page. */
  @Test
  void statusServesTheCurrentPartsAsJson() throws Exception {
    PartLedger ledger = new PartLedger();
    server.parts(() -> new PartsReport(ledger.rows()));
    ledger.ok("runtime", "containerd 2.0.0", SampleFixtures.T0);
    ledger.error("runtime", PartState.FAILED, "unavailable: refused", "start it");
    HttpResponse<byte[]> r = send("GET", "/status");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(text(r))
        .startsWith("{\"state\":\"failed\",\"parts\":[{\"name\":\"runtime\",\"state\":\"failed\"")
        .contains("\"last_success\":\"" + SampleFixtures.T0 + "\"", "\"error_count\":1");
    ledger.ok("runtime", "containerd 2.0.0", SampleFixtures.T0.plusSeconds(10));
    assertThat(text(send("GET", "/status"))).startsWith("{\"state\":\"ok\"").contains("\"error_count\":1");
    assertThat(send("HEAD", "/status").body()).isEmpty();
    assertThat(send("POST", "/status").statusCode()).isEqualTo(405);
    assertThat(text(send("GET", "/", "Accept", "text/html"))).contains("<a href=\"/status\">");
  }

  @Test
  void beforeTheFirstSampleEverythingButMetricsIs503WithRetryAfter() throws Exception {
    for (String path : new String[] {"/healthz", "/stats/summary", "/metrics/resource"}) {
      HttpResponse<byte[]> r = send("GET", path);
      assertThat(r.statusCode()).as(path).isEqualTo(503);
      assertThat(r.headers().firstValue("Retry-After")).as(path).hasValue("1");
    }
    assertThat(send("GET", "/metrics").statusCode()).isEqualTo(200);
  }

  @Test
  void servesTheSummaryOfTheSnapshot() throws Exception {
    snapshot.set(READY);
    assertThat(send("GET", "/healthz").statusCode()).isEqualTo(200);
    HttpResponse<byte[]> r = send("GET", "/stats/summary");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(r.headers().firstValueAsLong("Content-Length")).hasValue(r.body().length);
    JsonNode json = new ObjectMapper().readTree(r.body());
    assertThat(json.at("/node/nodeName").asText()).isEqualTo("node-a");
    assertThat(json.get("pods")).hasSize(2);
    assertThat(json.at("/node/network").isMissingNode()).isFalse();

    JsonNode post = new ObjectMapper().readTree(send("POST", "/stats/summary?only_cpu_and_memory=true").body());
    assertThat(post.at("/node/network").isMissingNode()).isTrue();
    assertThat(post.at("/node/cpu/usageCoreNanoSeconds").asLong()).isEqualTo(25_000_000_000L);
  }

  /** As the kubelet's handleSummary: exactly "true" selects the short form, other values are not refused. */
  @Test
  void onlyCpuAndMemoryIsExactlyTrueAndIsReadFromAPostedForm() throws Exception {
    snapshot.set(READY);
    for (String value : List.of("maybe", "1", "TRUE")) {
      HttpResponse<byte[]> r = send("GET", "/stats/summary?only_cpu_and_memory=" + value);
      assertThat(r.statusCode()).as(value).isEqualTo(200);
      assertThat(new ObjectMapper().readTree(r.body()).at("/node/network").isMissingNode()).as(value).isFalse();
    }
    HttpRequest form =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/stats/summary"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString("only_cpu_and_memory=true"))
            .build();
    HttpResponse<byte[]> posted = http.send(form, HttpResponse.BodyHandlers.ofByteArray());
    assertThat(posted.statusCode()).isEqualTo(200);
    JsonNode json = new ObjectMapper().readTree(posted.body());
    assertThat(json.at("/node/network").isMissingNode()).isTrue();
    assertThat(json.at("/node/cpu/usageCoreNanoSeconds").asLong()).isEqualTo(25_000_000_000L);
  }

  @Test
  void gzipIsServedWhenAsked() throws Exception {
    snapshot.set(READY);
    HttpResponse<byte[]> plain = send("GET", "/stats/summary");
    HttpResponse<byte[]> gz = send("GET", "/stats/summary", "Accept-Encoding", "gzip");
    assertThat(gz.headers().firstValue("Content-Encoding")).hasValue("gzip");
    assertThat(GzipBodies.oneMember(gz.body())).isEqualTo(plain.body());
    // RFC 9110 §12.5.3: any spelling of a zero weight refuses the coding, on the cached and the live bodies alike.
    for (String path : List.of("/stats/summary", "/metrics")) {
      for (String refused : List.of("gzip;q=0", "gzip;q=0.0", "gzip; q=0.000")) {
        HttpResponse<byte[]> r = send("GET", path, "Accept-Encoding", refused);
        assertThat(r.headers().firstValue("Content-Encoding")).as("%s %s", path, refused).isEmpty();
      }
    }
  }

  @Test
  void everyRequestGetsTheWholeCachedBodyEvenWhenServedAtOnce() throws Exception {
    snapshot.set(READY);
    byte[] first = send("GET", "/stats/summary").body();
    byte[] firstGzip = send("GET", "/stats/summary", "Accept-Encoding", "gzip").body();
    List<CompletableFuture<HttpResponse<byte[]>>> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/stats/summary"));
      if (i % 2 == 1) {
        b.header("Accept-Encoding", "gzip");
      }
      all.add(http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofByteArray()));
    }
    for (int i = 0; i < all.size(); i++) {
      assertThat(all.get(i).get().body()).as("response %d", i).isEqualTo(i % 2 == 1 ? firstGzip : first);
    }
  }

  @Test
  void metricsNegotiatesTheFormat() throws Exception {
    snapshot.set(READY);
    HttpResponse<byte[]> text = send("GET", "/metrics");
    assertThat(text.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
    assertThat(text(text)).contains("container_cpu_usage_seconds_total{container=\"burn\"");
    // Text 0.0.4 sample timestamps are integer milliseconds: the strict parser rejects anything else.
    assertThat(PrometheusText.select(PrometheusText.parse(text(text)), "container_cpu_usage_seconds_total", "pod", "burner"))
        .allSatisfy(s -> assertThat(s.timestampMillis()).isEqualTo(SampleFixtures.T1.toEpochMilli()));
    HttpResponse<byte[]> om = send("GET", "/metrics", "Accept", "application/openmetrics-text; version=1.0.0");
    assertThat(om.headers().firstValue("Content-Type")).get().asString().startsWith("application/openmetrics-text");
    assertThat(text(om)).endsWith("# EOF\n");
    HttpResponse<byte[]> pb =
        send(
            "GET",
            "/metrics",
            "Accept",
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited");
    assertThat(pb.headers().firstValue("Content-Type")).get().asString().startsWith("application/vnd.google.protobuf");
  }

  @Test
  void metricsRendersTheSnapshotPartOncePerVersionAndTheLivePartPerScrape() throws Exception {
    snapshot.set(READY);
    String first = text(send("GET", "/metrics"));
    String second = text(send("GET", "/metrics"));
    assertThat(first).contains("test_live_collects 1.0").contains("container_scrape_error 0.0");
    assertThat(second).contains("test_live_collects 2.0");
    assertThat(snapshotCollects.get()).isEqualTo(1);
    snapshot.set(new Snapshot(READY.version() + 1, READY.node(), READY.previousNode(), READY.runtime(), "unavailable"));
    assertThat(text(send("GET", "/metrics"))).contains("container_scrape_error 1.0");
    assertThat(snapshotCollects.get()).isEqualTo(2);
  }

  @Test
  void openMetricsHasExactlyOneEofAtTheEnd() throws Exception {
    snapshot.set(READY);
    String om = text(send("GET", "/metrics", "Accept", "application/openmetrics-text; version=1.0.0"));
    assertThat(om.split("# EOF", -1)).hasSize(2);
    assertThat(om).endsWith("# EOF\n").contains("container_cpu_usage_seconds_total").contains("test_live_collects");
  }

  @Test
  void gzippedMetricsAreOneGzipMember() throws Exception {
    snapshot.set(READY);
    HttpResponse<byte[]> gz = send("GET", "/metrics", "Accept-Encoding", "gzip");
    assertThat(gz.headers().firstValue("Content-Encoding")).hasValue("gzip");
    assertThat(gz.headers().firstValueAsLong("Content-Length")).hasValue(gz.body().length);
    String inflated = new String(GzipBodies.oneMember(gz.body()), StandardCharsets.UTF_8);
    assertThat(inflated).contains("container_cpu_usage_seconds_total").endsWith("test_live_collects 1.0\n");
    assertThat(PrometheusText.parse(inflated)).isNotEmpty();
  }

  @Test
  void resourceMetricsAreKubeletText() throws Exception {
    snapshot.set(READY);
    HttpResponse<byte[]> r = send("GET", "/metrics/resource");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(text(r)).contains("# TYPE node_cpu_usage_seconds_total counter").contains("resource_scrape_error 0");
  }

  /**
   * The route table: each path answers only its methods (405 with Allow for any other), and a path it lacks is a
   * 404 naming the paths it has (this server has no /metrics/cadvisor renderer, so that path is neither served nor
   * named).
   */
  @Test
  void everyRouteAnswersItsMethodsAndA404NamesTheRoutes() throws Exception {
    snapshot.set(READY);
    java.util.Map<String, String> allowed = java.util.Map.of(
        "/", "GET, HEAD", "/healthz", "GET, HEAD", "/stats/summary", "GET, HEAD, POST", "/metrics", "GET, HEAD",
        "/metrics/resource", "GET, HEAD");
    for (var e : allowed.entrySet()) {
      assertThat(send("GET", e.getKey()).statusCode()).as(e.getKey()).isEqualTo(200);
      HttpResponse<byte[]> wrong = send("OPTIONS", e.getKey());
      assertThat(wrong.statusCode()).as(e.getKey()).isEqualTo(405);
      assertThat(wrong.headers().firstValue("Allow")).as(e.getKey()).hasValue(e.getValue());
    }
    HttpResponse<byte[]> missing = send("GET", "/metrics/cadvisor");
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(text(missing)).isEqualTo("not found; endpoints: /healthz /status /stats/summary /metrics /metrics/resource\n");
  }

  @Test
  void aPathDeclaredTwiceIsRefused() {
    io.undertow.server.HttpHandler ok = exchange -> {};
    var twice = List.of(new Route("/a", java.util.Set.of(io.undertow.util.Methods.GET), ok),
        new Route("/a", java.util.Set.of(io.undertow.util.Methods.POST), ok));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Route.router(twice, ok))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/a");
  }

  @Test
  void badRequestsGet4xxAndTheServerKeepsServing() throws Exception {
    snapshot.set(READY);
    assertThat(send("GET", "/nope").statusCode()).isEqualTo(404);
    HttpResponse<byte[]> delete = send("DELETE", "/metrics");
    assertThat(delete.statusCode()).isEqualTo(405);
    assertThat(delete.headers().firstValue("Allow")).hasValue("GET, HEAD");
    assertThat(send("PUT", "/stats/summary").headers().firstValue("Allow")).hasValue("GET, HEAD, POST");
    assertThat(send("GET", "/stats/summary").statusCode()).isEqualTo(200);
  }

  @Test
  void headHasHeadersButNoBody() throws Exception {
    snapshot.set(READY);
    HttpResponse<byte[]> r = send("HEAD", "/stats/summary");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEmpty();
  }

  @Test
  void aNewSnapshotVersionIsRenderedAnew() throws IOException, Exception {
    snapshot.set(READY);
    String first = text(send("GET", "/stats/summary"));
    snapshot.set(new Snapshot(4, READY.node(), READY.previousNode(), null, "unavailable"));
    String second = text(send("GET", "/stats/summary"));
    assertThat(first).contains("\"burner\"");
    assertThat(second).doesNotContain("\"burner\"");
  }
}
