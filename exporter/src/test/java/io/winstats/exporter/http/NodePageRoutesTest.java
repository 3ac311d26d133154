package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.exporter.history.NodeHistory;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SummaryAssembler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node page's files on a real server: served from the jar behind the same guard as the rest, each with the
 * Content-Security-Policy that allows nothing from elsewhere; the page names only files the server has; the script
 * never hands a string to the HTML parser. What the page does in a browser is NodePageBrowserIT's.
 */
class NodePageRoutesTest {
  private static final String TOKEN = "page-test-token";
  private final HttpClient http = HttpClient.newHttpClient();
  private ExporterServer server;

  @TempDir Path dir;

  @BeforeEach
  void start() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), TOKEN + "\n");
    MetricsRenderer renderer =
        new MetricsRenderer(new PrometheusRegistry(), new PrometheusRegistry(), () -> 0L, Duration.ZERO, () -> 0);
    server =
        new ExporterServer(
            new ListenAddress("127.0.0.1", 0),
            new ServerSettings(HttpLimits.DEFAULTS, null, token),
            () -> new Snapshot(0, null, null, null, null),
            new SummaryAssembler("node-a", NodePlatform.LINUX),
            renderer,
            null,
            new NodeHistory(3, "node-a", NodePlatform.LINUX, Duration.ofSeconds(10)));
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

  @Test
  void thePageAndEveryFileItNamesAreServedWithAPolicyThatAllowsNothingFromElsewhere() throws Exception {
    HttpResponse<String> page = get("/node", true);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");

    List<String> named = new ArrayList<>();
    Matcher m = Pattern.compile("(?:src|href)=\"([^\"]*)\"").matcher(page.body());
    while (m.find()) {
      named.add(m.group(1));
    }
    assertThat(named)
        .contains("/node/node.js", "/node/node.css", "/node/uPlot.iife.min.js", "/node/uPlot.min.css")
        .allMatch(u -> u.startsWith("/") && !u.startsWith("//") || u.equals("data:,"), "same origin or data:,");
    named.add("/node");
    for (String path : named) {
      if (path.equals("data:,") || path.equals("/")) {
        continue;
      }
      HttpResponse<String> r = get(path, true);
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Security-Policy")).as(path)
          .hasValue(NodePageRoutes.CONTENT_SECURITY_POLICY);
      assertThat(r.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
    }
    assertThat(get("/node/uPlot.iife.min.js", true).headers().firstValue("Content-Type"))
        .hasValue("text/javascript; charset=utf-8");
    assertThat(get("/node/node.css", true).headers().firstValue("Content-Type")).hasValue("text/css; charset=utf-8");
  }

  /** Every fetch directive falls back to default-src 'none'; what is allowed is this origin (or data: icons). */
  @Test
  void thePolicyNamesNoOtherOriginAndNoInlineScriptOrStyle() {
    String csp = NodePageRoutes.CONTENT_SECURITY_POLICY;
    assertThat(csp).startsWith("default-src 'none';").doesNotContain("http", "*", "unsafe", "blob:");
    for (String directive : csp.split(";")) {
      String[] words = directive.strip().split(" ");
      for (int i = 1; i < words.length; i++) {
        assertThat(words[i]).as(directive).isIn("'self'", "'none'", "data:");
      }
    }
  }

  @Test
  void thePageIsGuardedLikeEveryOtherPath() throws Exception {
    assertThat(get("/node", false).statusCode()).isEqualTo(401);
    assertThat(get("/node/node.js", false).statusCode()).isEqualTo(401);
  }

  @Test
  void theLandingPageLinksThePage() throws Exception {
    assertThat(get("/", true).body()).contains("<a href=\"/node\">");
  }

  /** Names from the runtime reach the page only through textContent: no HTML sink in the page's own script. */
  @Test
  void thePagesScriptHasNoHtmlSink() throws Exception {
    String script = get("/node/node.js", true).body();
    assertThat(script).contains("textContent")
        .doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function");
  }
}
