package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
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
    assertThat(doc.get("differ").asInt()).isZero();
    assertThat(doc.get("rows").size()).isEqualTo(doc.get("compared").asInt()).isGreaterThan(100);
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
        .contains("16 MiB for bytes");
  }

  @Test
  void aMissingKubeletFlagIsAUsageError() {
    assertThat(compare()).isEqualTo(2);
    assertThat(err.toString()).contains("--kubelet");
  }
}
