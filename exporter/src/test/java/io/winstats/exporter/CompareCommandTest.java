package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.winstats.exporter.compare.ExpositionComparisonTest;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code compare} end to end through the command line, against a local HTTP server standing in for the daemon and
 * the kubelet (there is no kubelet here): exit codes, rows, and each bad input's message.
 */
class CompareCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  private HttpServer server;
  private final Map<String, byte[]> bodies = new ConcurrentHashMap<>();
  private final Map<String, Integer> statuses = new ConcurrentHashMap<>();
  private final List<String> authorizations = new ArrayList<>();
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @BeforeEach
  void serve() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          synchronized (authorizations) {
            authorizations.add(path + " " + exchange.getRequestHeaders().getFirst("Authorization"));
          }
          byte[] body = bodies.getOrDefault(path, "not found".getBytes(StandardCharsets.UTF_8));
          exchange.sendResponseHeaders(statuses.getOrDefault(path, bodies.containsKey(path) ? 200 : 404), body.length);
          try (OutputStream o = exchange.getResponseBody()) {
            o.write(body);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  private static ObjectNode summary() throws Exception {
    try (InputStream in = CompareCommandTest.class.getResourceAsStream("/compare/kubelet-linux-summary.json")) {
      return (ObjectNode) JSON.readTree(in);
    }
  }

  private void put(String path, JsonNode doc) throws Exception {
    bodies.put(path, JSON.writeValueAsBytes(doc));
  }

  private int compare(String... args) {
    CommandLine cli = ExporterCommand.commandLine(config -> 0);
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    List<String> all = new ArrayList<>(List.of("compare", "--wait=0s"));
    all.addAll(List.of(args));
    return cli.execute(all.toArray(String[]::new));
  }

  @Test
  void theDaemonAgainstItsOwnSummaryAgrees() throws Exception {
    put("/stats/summary", summary());

    int code = compare("--daemon=" + url("/stats/summary"), "--kubelet=" + url("/stats/summary"));

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("0 differ").doesNotContain("only the daemon has");
  }

  @Test
  void aPerturbedFigureIsReportedAndExitsThree() throws Exception {
    put("/stats/summary", summary());
    ObjectNode kubelet = summary();
    ((ObjectNode) kubelet.at("/pods/1/containers/0/memory")).put("workingSetBytes", 600_000_000L);
    put("/kubelet", kubelet);

    int code = compare("--daemon=" + url("/stats/summary"), "--kubelet=" + url("/kubelet"));

    assertThat(code).isEqualTo(3);
    assertThat(out.toString().lines().filter(l -> l.startsWith("differs")))
        .singleElement()
        .asString()
        .contains("pods[shop/db-0].containers[db].memory.workingSetBytes")
        .contains("600000000", "450000000", "-150000000");
  }

  @Test
  void jsonHasEveryFigure() throws Exception {
    put("/stats/summary", summary());
    Path file = tmp.resolve("summary.json");
    Files.write(file, JSON.writeValueAsBytes(summary()));

    int code = compare("--daemon=" + url("/stats/summary"), "--kubelet=" + file, "--output=json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode doc = JSON.readTree(out.toString());
    assertThat(doc.at("/comparisons/0/differ").asInt()).isZero();
    assertThat(doc.at("/comparisons/0/rows").size())
        .isEqualTo(doc.at("/comparisons/0/compared").asInt())
        .isGreaterThan(100);
  }

  @Test
  void theTokenFileIsSentAndA403NamesTheRbacNeeded() throws Exception {
    put("/stats/summary", summary());
    put("/kubelet", summary());
    statuses.put("/kubelet", 403);
    Path token = Files.writeString(tmp.resolve("token"), "s3cret\n");

    int code =
        compare("--daemon=" + url("/stats/summary"), "--kubelet=" + url("/kubelet"), "--kubelet-token-file=" + token);

    assertThat(code).isEqualTo(4);
    assertThat(err.toString()).contains("403 Forbidden", "nodes/stats", "nodes/proxy");
    assertThat(authorizations).contains("/kubelet Bearer s3cret", "/stats/summary null");
  }

  @Test
  void a401SaysTheTokenWasRefused() throws Exception {
    put("/stats/summary", summary());
    put("/kubelet", summary());
    statuses.put("/kubelet", 401);

    assertThat(compare("--daemon=" + url("/stats/summary"), "--kubelet=" + url("/kubelet"))).isEqualTo(4);
    assertThat(err.toString()).contains("401 Unauthorized", "--kubelet-token-file");
  }

  @Test
  void anUnreachableUrlIsNamed() throws Exception {
    put("/stats/summary", summary());
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }

    int code = compare("--daemon=" + url("/stats/summary"), "--kubelet=http://127.0.0.1:" + closed + "/stats/summary");

    assertThat(code).isEqualTo(4);
    assertThat(err.toString()).contains("cannot reach http://127.0.0.1:" + closed);
  }

  @Test
  void aFileThatIsNotASummaryIsRefused() throws Exception {
    put("/stats/summary", summary());
    Path notSummary = Files.writeString(tmp.resolve("pods.json"), "{\"kind\":\"PodList\",\"items\":[]}");
    Path notJson = Files.writeString(tmp.resolve("page.html"), "<html>login</html>");

    assertThat(compare("--daemon=" + url("/stats/summary"), "--kubelet=" + notSummary)).isEqualTo(4);
    assertThat(compare("--daemon=" + url("/stats/summary"), "--kubelet=" + notJson)).isEqualTo(4);
    assertThat(compare("--daemon=" + url("/stats/summary"), "--kubelet=" + tmp.resolve("absent.json"))).isEqualTo(4);

    assertThat(err.toString())
        .contains(notSummary + " is not a kubelet Summary (stats/v1alpha1): it has no node.nodeName")
        .contains(notJson + " is not JSON")
        .contains("no such file: " + tmp.resolve("absent.json"));
  }

  @Test
  void anotherNodesKubeletIsRefused() throws Exception {
    put("/stats/summary", summary());
    ObjectNode other = summary();
    ((ObjectNode) other.get("node")).put("nodeName", "node-b");
    put("/kubelet", other);

    assertThat(compare("--daemon=" + url("/stats/summary"), "--kubelet=" + url("/kubelet"))).isEqualTo(4);
    assertThat(err.toString()).contains("of node node-b, the daemon's of node node-a");
  }

  @Test
  void helpListsTheExitCodesAndTolerances() {
    assertThat(compare("--help")).isZero();
    assertThat(out.toString())
        .contains("3   some figure differs beyond its tolerance")
        .contains("16 MiB for bytes")
        .contains("windows_container_available")
        .contains("--windows-exporter=URL|FILE");
  }

  @Test
  void withoutAReferenceItIsAUsageError() {
    assertThat(compare()).isEqualTo(2);
    assertThat(err.toString()).contains("Give at least one of --kubelet, --kubelet-resource, --windows-exporter");
  }

  private void putText(String path, String text) {
    bodies.put(path, text.getBytes(StandardCharsets.UTF_8));
  }

  /** The daemon's /metrics and /metrics/resource found beside --daemon's Summary URL. */
  private void serveDaemonExpositions() throws Exception {
    putText("/metrics", ExpositionComparisonTest.daemonExposition() + "winstats_exporter_build_info 1\n");
    try (InputStream in = getClass().getResourceAsStream("/golden/prometheus/resource.prom")) {
      putText("/metrics/resource", new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void theDaemonAgainstItsOwnExpositionsAgrees() throws Exception {
    serveDaemonExpositions();

    int code =
        compare(
            "--daemon=" + url("/stats/summary"),
            "--windows-exporter=" + url("/metrics"),
            "--kubelet-resource=" + url("/metrics/resource"),
            "--output=json");

    assertThat(code).as(err.toString()).isZero();
    JsonNode doc = JSON.readTree(out.toString());
    assertThat(doc.at("/comparisons/0/reference").asText()).isEqualTo("kubelet resource");
    assertThat(doc.at("/comparisons/0/daemon").asText()).isEqualTo(url("/metrics/resource"));
    assertThat(doc.at("/comparisons/0/compared").asInt()).isEqualTo(19);
    assertThat(doc.at("/comparisons/0/differ").asInt()).isZero();
    assertThat(doc.at("/comparisons/1/reference").asText()).isEqualTo("windows_exporter");
    assertThat(doc.at("/comparisons/1/daemon").asText()).isEqualTo(url("/metrics"));
    assertThat(doc.at("/comparisons/1/differ").asInt()).isZero();
    assertThat(doc.at("/comparisons/1/compared").asInt())
        .isEqualTo(ExpositionComparisonTest.sampleLines(ExpositionComparisonTest.daemonExposition()))
        .isGreaterThan(90);
  }

  @Test
  void aPerturbedWindowsExporterSeriesIsReportedWithWhatOnlyItHas() throws Exception {
    serveDaemonExpositions();
    putText(
        "/windows-exporter",
        ExpositionComparisonTest.windowsExporterExposition()
            .replace("windows_memory_available_bytes 9.0E9", "windows_memory_available_bytes 1.1E10"));

    int code = compare("--daemon=" + url("/stats/summary"), "--windows-exporter=" + url("/windows-exporter"));

    assertThat(code).as(err.toString()).isEqualTo(3);
    assertThat(out.toString().lines().filter(l -> l.startsWith("differs")))
        .singleElement()
        .asString()
        .contains("gauge", "11000000000", "9000000000", "-2000000000 (±1100000000)", "windows_memory_available_bytes");
    assertThat(out.toString())
        .contains("daemon " + url("/metrics") + " against windows_exporter")
        .contains(
            "only windows_exporter has:\n  family windows_textfile_mtime_seconds\n")
        .doesNotContain("windows_exporter_build_info")
        .contains("series compared: ", " ok, 1 differ, 0 unbracketed");
  }

  @Test
  void windowsExportersBadAnswersAreNamed() throws Exception {
    serveDaemonExpositions();
    putText("/we", "x 1\n");
    statuses.put("/we", 401);
    Path html = Files.writeString(tmp.resolve("metrics.html"), "<html><body>sign in</body></html>\n");
    Path json = Files.writeString(tmp.resolve("summary.json"), "{\"node\":{}}");
    int closed;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = s.getLocalPort();
    }

    assertThat(compare("--daemon=" + url("/stats/summary"), "--windows-exporter=" + url("/we"))).isEqualTo(4);
    statuses.put("/we", 403);
    assertThat(compare("--daemon=" + url("/stats/summary"), "--windows-exporter=" + url("/we"))).isEqualTo(4);
    assertThat(compare("--daemon=" + url("/stats/summary"), "--windows-exporter=http://127.0.0.1:" + closed + "/m"))
        .isEqualTo(4);
    assertThat(compare("--daemon=" + url("/stats/summary"), "--windows-exporter=" + html)).isEqualTo(4);
    assertThat(compare("--daemon=" + url("/stats/summary"), "--windows-exporter=" + json)).isEqualTo(4);

    assertThat(err.toString())
        .contains(url("/we") + " answered 401 Unauthorized: windows_exporter's web config asks for credentials")
        .contains(url("/we") + " answered 403 Forbidden")
        .contains("cannot reach http://127.0.0.1:" + closed + "/m")
        .contains(html + " line 1 is not a Prometheus text sample (no metric name): <html><body>sign in</body></html>")
        .contains(json + " line 1 is not a Prometheus text sample");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void aDaemonWithoutItsExpositionIsNamed() throws Exception {
    putText("/windows-exporter", ExpositionComparisonTest.windowsExporterExposition());

    assertThat(compare("--daemon=" + url("/stats/summary"), "--windows-exporter=" + url("/windows-exporter")))
        .isEqualTo(4);
    assertThat(err.toString()).contains(url("/metrics") + " answered 404: not found");
  }
}
