package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.exporter.testing.TestPki;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SampleFixtures;
import io.winstats.summary.SummaryAssembler;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCrypt;

/** TLS, client certificates, basic auth and bearer tokens against real TLS clients (java.net.http). */
class ExporterServerTlsTest {
  private static final Snapshot READY =
      new Snapshot(
          3,
          SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
          SampleFixtures.linuxNode(SampleFixtures.T0, 0, 20_000_000_000L),
          SampleFixtures.runtime(),
          null);

  private static TestPki ca;
  private static TestPki.Issued server;
  private static TestPki.Issued rotated;
  private static TestPki.Issued expired;
  private static TestPki.Issued client;
  private static TestPki.Issued intruder;

  @TempDir Path dir;
  private final List<ExporterServer> servers = new ArrayList<>();

  @BeforeAll
  static void makeCertificates() throws Exception {
    Certificates c = Certificates.get();
    ca = c.ca;
    server = c.server;
    rotated = c.rotated;
    expired = c.expired;
    client = c.client;
    intruder = c.intruder;
  }

  @AfterEach
  void stop() {
    servers.forEach(ExporterServer::close);
  }

  private ExporterServer start(String webConfigYaml, Path bearerTokenFile) throws IOException {
    Path file = Files.writeString(dir.resolve("web.yml"), webConfigYaml);
    List<String> problems = new ArrayList<>();
    WebConfig web = WebConfigReader.read(file, problems);
    assertThat(problems).isEmpty();
    ExporterServer s =
        new ExporterServer(
            new ListenAddress("127.0.0.1", 0),
            new ServerSettings(HttpLimits.DEFAULTS, web, bearerTokenFile),
            () -> READY,
            new SummaryAssembler("node-a", NodePlatform.LINUX),
            new MetricsRenderer(new PrometheusRegistry(), new PrometheusRegistry(), () -> 1L, Duration.ZERO, () -> 0L));
    s.start();
    servers.add(s);
    return s;
  }

  private static String tlsOnly(TestPki.Issued cert) {
    return "tls_server_config:\n  cert_file: " + cert.certPem() + "\n  key_file: " + cert.keyPem() + "\n";
  }

  private static HttpResponse<String> get(ExporterServer s, SSLContext ctx, String path, String... headers)
      throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().sslContext(ctx).connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + s.port() + path)).timeout(Duration.ofSeconds(10));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static SSLContext trustingCa() throws Exception {
    return TestPki.clientContext(null, ca.caCert());
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aValidCertificateServesOverHttp2AndHttp11() throws Exception {
    ExporterServer s = start(tlsOnly(server), null);
    assertThat(s.scheme()).isEqualTo("https");
    HttpResponse<String> r = get(s, trustingCa(), "/stats/summary");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
    assertThat(r.sslSession().orElseThrow().getPeerCertificates()[0]).isEqualTo(server.cert());
    assertThat(r.body()).contains("\"nodeName\":\"node-a\"");

    ExporterServer h1 = start(tlsOnly(server) + "http_server_config:\n  http2: false\n", null);
    HttpResponse<String> r1 = get(h1, trustingCa(), "/stats/summary");
    assertThat(r1.statusCode()).isEqualTo(200);
    assertThat(r1.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
  }

  @Test
  void anExpiredServerCertificateFailsTheClientsHandshake() throws Exception {
    ExporterServer s = start(tlsOnly(expired), null);
    assertThatThrownBy(() -> get(s, trustingCa(), "/healthz"))
        .isInstanceOf(IOException.class)
        .satisfies(e -> assertThat(causes(e)).anyMatch(c -> c.contains("CertificateExpired") || c.contains("expired")));
  }

  @Test
  void requireAndVerifyClientCertAcceptsOurCaRefusesAnotherAndLeavesHealthzOpen() throws Exception {
    ExporterServer s =
        start(
            tlsOnly(server) + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: " + ca.caPem() + "\n",
            null);
    assertThat(get(s, TestPki.clientContext(client, ca.caCert()), "/metrics").statusCode()).isEqualTo(200);

    assertThatThrownBy(() -> get(s, TestPki.clientContext(intruder, ca.caCert()), "/metrics"))
        .isInstanceOf(IOException.class);

    // No certificate at all: the handshake only requests one, so probes reach /healthz; the rest is refused.
    assertThat(get(s, trustingCa(), "/healthz").statusCode()).isEqualTo(200);
    HttpResponse<String> refused = get(s, trustingCa(), "/stats/summary");
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body()).contains("client certificate is required");
    // ...and it keeps serving the good client.
    assertThat(get(s, TestPki.clientContext(client, ca.caCert()), "/stats/summary").statusCode()).isEqualTo(200);
  }

  @Test
  void clientAllowedSansAreMatched() throws Exception {
    ExporterServer s =
        start(
            tlsOnly(server) + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: " + ca.caPem()
                + "\n  client_allowed_sans: [\"prometheus.monitoring.svc\"]\n",
            null);
    // Our client certificate carries 127.0.0.1 and localhost only.
    assertThatThrownBy(() -> get(s, TestPki.clientContext(client, ca.caCert()), "/metrics")).isInstanceOf(IOException.class);
    ExporterServer t =
        start(
            tlsOnly(server) + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: " + ca.caPem()
                + "\n  client_allowed_sans: [\"localhost\"]\n",
            null);
    assertThat(get(t, TestPki.clientContext(client, ca.caCert()), "/metrics").statusCode()).isEqualTo(200);
  }

  @Test
  void basicAuthWithBcryptHashes() throws Exception {
    String hash = BCrypt.hashpw("s3cret", BCrypt.gensalt(4)).replaceFirst("^\\$2a\\$", "\\$2y\\$");
    ExporterServer s =
        start(
            tlsOnly(server)
                + "http_server_config:\n  headers:\n    X-Content-Type-Options: nosniff\n"
                + "basic_auth_users:\n  prometheus: " + hash + "\n",
            null);
    SSLContext ctx = trustingCa();
    HttpResponse<String> none = get(s, ctx, "/metrics");
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().allValues("WWW-Authenticate")).singleElement().asString().startsWith("Basic realm=");
    assertThat(none.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(get(s, ctx, "/metrics", "Authorization", basic("prometheus", "wrong")).statusCode()).isEqualTo(401);
    assertThat(get(s, ctx, "/metrics", "Authorization", basic("nobody", "s3cret")).statusCode()).isEqualTo(401);
    assertThat(get(s, ctx, "/metrics", "Authorization", "Basic not-base64!").statusCode()).isEqualTo(401);
    assertThat(get(s, ctx, "/metrics", "Authorization", basic("prometheus", "s3cret")).statusCode()).isEqualTo(200);
    // Again, from the cache of checked passwords.
    assertThat(get(s, ctx, "/stats/summary", "Authorization", basic("prometheus", "s3cret")).statusCode()).isEqualTo(200);
    assertThat(get(s, ctx, "/stats/summary", "Authorization", basic("prometheus", "wrong")).statusCode()).isEqualTo(401);
    HttpResponse<String> health = get(s, ctx, "/healthz");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
  }

  @Test
  void bearerTokenAloneOrBesideBasicAuth() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "tok-123456\n");
    String hash = BCrypt.hashpw("s3cret", BCrypt.gensalt(4));
    ExporterServer s = start(tlsOnly(server) + "basic_auth_users:\n  prometheus: " + hash + "\n", token);
    SSLContext ctx = trustingCa();
    assertThat(get(s, ctx, "/metrics", "Authorization", "Bearer tok-123456").statusCode()).isEqualTo(200);
    assertThat(get(s, ctx, "/metrics", "Authorization", basic("prometheus", "s3cret")).statusCode()).isEqualTo(200);
    HttpResponse<String> wrong = get(s, ctx, "/metrics", "Authorization", "Bearer tok-12345");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.headers().allValues("WWW-Authenticate")).hasSize(2).anyMatch(v -> v.startsWith("Bearer"));
    assertThat(get(s, ctx, "/healthz").statusCode()).isEqualTo(200);
  }

  @Test
  void aBearerTokenGuardsPlainHttpToo() throws Exception {
    Path token = Files.writeString(dir.resolve("token"), "plain-token");
    ExporterServer s =
        new ExporterServer(
            new ListenAddress("127.0.0.1", 0),
            new ServerSettings(HttpLimits.DEFAULTS, null, token),
            () -> READY,
            new SummaryAssembler("node-a", NodePlatform.LINUX),
            new MetricsRenderer(new PrometheusRegistry(), new PrometheusRegistry(), () -> 1L, Duration.ZERO, () -> 0L));
    s.start();
    servers.add(s);
    HttpClient http = HttpClient.newHttpClient();
    URI metrics = URI.create("http://127.0.0.1:" + s.port() + "/metrics");
    assertThat(http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.discarding()).statusCode())
        .isEqualTo(401);
    assertThat(
            http.send(
                    HttpRequest.newBuilder(metrics).header("Authorization", "Bearer plain-token").build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void aRotatedCertificateIsPresentedToNewHandshakesWithoutARestart() throws Exception {
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    Files.copy(server.certPem(), cert);
    Files.copy(server.keyPem(), key);
    ExporterServer s = start("tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\n", null);
    assertThat(presented(s)).isEqualTo(server.cert());

    // Written beside and moved into place, as a careful rotation does; the key first, so there is a moment of mismatch.
    Files.copy(rotated.keyPem(), dir.resolve("tls.key.new"));
    Files.move(dir.resolve("tls.key.new"), key, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Files.copy(rotated.certPem(), dir.resolve("tls.crt.new"));
    Files.move(dir.resolve("tls.crt.new"), cert, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Deadline.await("the rotated certificate is presented", Duration.ofSeconds(30), () -> presented(s).equals(rotated.cert()));
  }

  /** The leaf certificate a brand-new client (no session to resume) is shown. */
  private static X509Certificate presented(ExporterServer s) {
    try {
      HttpResponse<String> r = get(s, trustingCa(), "/healthz");
      return (X509Certificate) r.sslSession().orElseThrow().getPeerCertificates()[0];
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static List<String> causes(Throwable e) {
    List<String> out = new ArrayList<>();
    for (Throwable t = e; t != null; t = t.getCause()) {
      out.add(t.getClass().getSimpleName() + ": " + t.getMessage());
    }
    return out;
  }
}
