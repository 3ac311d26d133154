package io.winstats.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.exporter.testing.ChildProcess;
import io.winstats.exporter.testing.DaemonProcess;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** A real {@code prometheus} on a free loopback port, with its TSDB and log in a work directory. */
final class PrometheusServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final ChildProcess process;
  private final int port;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private PrometheusServer(ChildProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  static PrometheusServer start(Path binary, Path config, Path workDir) throws IOException {
    int port = DaemonProcess.freePort();
    Path log = workDir.resolve("prometheus.log");
    Files.createDirectories(workDir.resolve("tsdb"));
    ChildProcess p =
        ChildProcess.start(
            List.of(binary.toString(), "--config.file=" + config, "--storage.tsdb.path=" + workDir.resolve("tsdb"),
                "--web.listen-address=127.0.0.1:" + port, "--log.level=warn"),
            log);
    return new PrometheusServer(p, port);
  }

  boolean isReady() {
    return get("/-/ready").statusCode() == 200;
  }

  /** The result array of an instant query ({@code /api/v1/query}); fails on an API error. */
  JsonNode query(String expr) {
    JsonNode r = api("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
    return r.at("/data/result");
  }

  /** The values of {@code label} over the series matching {@code selector} ({@code /api/v1/series}). */
  Set<String> labelValues(String selector, String label) {
    JsonNode r = api("/api/v1/series?match[]=" + URLEncoder.encode(selector, StandardCharsets.UTF_8));
    Set<String> values = new TreeSet<>();
    r.path("data").forEach(s -> {
      if (s.has(label) && !s.path(label).asText().isEmpty()) {
        values.add(s.path(label).asText());
      }
    });
    return values;
  }

  JsonNode api(String pathAndQuery) {
    HttpResponse<String> r = get(pathAndQuery);
    try {
      JsonNode json = JSON.readTree(r.body());
      if (!json.path("status").asText().equals("success")) {
        throw new AssertionError("Prometheus " + pathAndQuery + " answered " + r.statusCode() + ": " + r.body());
      }
      return json;
    } catch (IOException e) {
      throw new AssertionError("Prometheus " + pathAndQuery + " answered " + r.statusCode() + ": " + r.body(), e);
    }
  }

  private HttpResponse<String> get(String pathAndQuery) {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
              .timeout(Duration.ofSeconds(10))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("Prometheus not answering: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  String log() {
    return process.log();
  }

  @Override
  public void close() throws InterruptedException {
    process.close();
  }
}
