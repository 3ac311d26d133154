package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.exporter.history.HistoryJson;
import io.winstats.exporter.history.HistoryRecorder;
import io.winstats.exporter.history.NodeHistory;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SampleFixtures;
import io.winstats.summary.SummaryAssembler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history's routes on a real server: guarded like the rest, 400 for a bad request, 404 for an unknown pod. */
class HistoryRoutesTest {
  private static final String TOKEN = "history-test-token";
  private static final Snapshot NOT_READY = new Snapshot(0, null, null, null, "no runtime sample yet");
  private static final Snapshot READY =
      new Snapshot(
          3,
          SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
          SampleFixtures.linuxNode(SampleFixtures.T0, 0, 20_000_000_000L),
          SampleFixtures.runtime(),
          null);

  private final AtomicReference<Snapshot> snapshot = new AtomicReference<>(NOT_READY);
  private final HttpClient http = HttpClient.newHttpClient();
  private final NodeHistory history = new NodeHistory(3, "node-a", NodePlatform.LINUX, Duration.ofSeconds(10));
  private ExporterServer server;

  @TempDir Path dir;

  @BeforeEach
  void start() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), TOKEN + "\n");
    MetricsRenderer renderer =
        new MetricsRenderer(
            new PrometheusRegistry(), new PrometheusRegistry(), () -> snapshot.get().version(), Duration.ZERO, () -> 0);
    SummaryAssembler assembler = new SummaryAssembler("node-a", NodePlatform.LINUX);
    server =
        new ExporterServer(
            new ListenAddress("127.0.0.1", 0),
            new ServerSettings(HttpLimits.DEFAULTS, null, token),
            snapshot::get,
            assembler,
            renderer,
            null,
            history);
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> get(String path, boolean authorized) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    if (authorized) {
      b.header("Authorization", "Bearer " + TOKEN);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private void record() {
    snapshot.set(READY);
    HistoryRecorder recorder = new HistoryRecorder(history, new SummaryAssembler("node-a", NodePlatform.LINUX));
    recorder.nodePublished(READY);
    recorder.runtimePublished(READY);
  }

  @Test
  void theNodeHistoryIsVersionedJsonOnceASampleExists() throws Exception {
    assertThat(get("/api/v1/history/node", true).statusCode()).isEqualTo(503);
    record();

    HttpResponse<String> r = get("/api/v1/history/node", true);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode json = new ObjectMapper().readTree(r.body());
    assertThat(json.get("apiVersion").asText()).isEqualTo(HistoryJson.API_VERSION);
    assertThat(json.get("pods")).extracting(p -> p.get("uid").asText()).containsExactly("uid-burner", "uid-sleeper");
  }

  @Test
  void bothRoutesAreGuardedLikeEveryOtherPath() throws Exception {
    record();
    assertThat(get("/api/v1/history/node", false).statusCode()).isEqualTo(401);
    assertThat(get("/api/v1/history/pod?uid=uid-burner", false).statusCode()).isEqualTo(401);
    assertThat(get("/api/v1/history/pod?uid=uid-burner", true).statusCode()).isEqualTo(200);
  }

  @Test
  void aBadRequestIs400AndAnUnknownPod404() throws Exception {
    record();
    assertThat(get("/api/v1/history/node?pods=all", true).statusCode()).isEqualTo(400);
    assertThat(get("/api/v1/history/pod", true).statusCode()).isEqualTo(400);
    assertThat(get("/api/v1/history/pod?uid=", true).statusCode()).isEqualTo(400);
    assertThat(get("/api/v1/history/pod?uid=a&uid=b", true).statusCode()).isEqualTo(400);
    assertThat(get("/api/v1/history/pod?uid=uid-burner&x=1", true).statusCode()).isEqualTo(400);
    HttpResponse<String> unknown = get("/api/v1/history/pod?uid=no-such-pod", true);
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body()).contains("no-such-pod");
  }

  @Test
  void theLandingPageLinksTheHistory() throws Exception {
    assertThat(get("/", true).body()).contains("<a href=\"/api/v1/history/node\">");
  }
}
