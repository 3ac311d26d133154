package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.TestPki;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCrypt;

/** The real jar behind --web.config.file and --web.auth.bearer-token-file: HTTPS, basic auth, bearer token, open /healthz. */
class ExporterTlsIT {

  @Test
  void servesHttpsWithCredentialsAndAnOpenHealthz(@TempDir Path dir) throws Exception {
    TestPki ca = TestPki.create(dir.resolve("pki"), "it-ca");
    TestPki.Issued server = ca.issue("server", "RSA", null, 30);
    Path web =
        Files.writeString(
            dir.resolve("web-config.yml"),
            "tls_server_config:\n"
                + "  cert_file: " + server.certPem() + "\n"
                + "  key_file: " + server.keyPem() + "\n"
                + "  min_version: TLS12\n"
                + "basic_auth_users:\n"
                + "  prometheus: " + BCrypt.hashpw("scrape-me", BCrypt.gensalt(10)) + "\n");
    Path token = Files.writeString(dir.resolve("token"), "it-bearer-token\n");
    SSLContext trust = TestPki.clientContext(null, ca.caCert());
    HttpClient https = HttpClient.newBuilder().sslContext(trust).connectTimeout(Duration.ofSeconds(2)).build();
    try (DaemonProcess daemon =
        DaemonProcess.start(
            dir.resolve("daemon.log"),
            "--cri.endpoint=unix://" + dir.resolve("none.sock"),
            "--sampling.interval=1s",
            "--web.config.file=" + web,
            "--web.auth.bearer-token-file=" + token)) {
      URI base = URI.create("https://127.0.0.1:" + daemon.port());
      Deadline.await(
          "https /healthz 200\n" + daemon.log(),
          Duration.ofSeconds(60),
          () -> status(https, base.resolve("/healthz"), null) == 200);
      assertThat(status(https, base.resolve("/metrics"), null)).isEqualTo(401);
      assertThat(status(https, base.resolve("/metrics"), basic("prometheus", "wrong"))).isEqualTo(401);
      assertThat(status(https, base.resolve("/metrics"), basic("prometheus", "scrape-me"))).isEqualTo(200);
      assertThat(status(https, base.resolve("/stats/summary"), "Bearer it-bearer-token")).isEqualTo(200);
      assertThat(status(https, base.resolve("/stats/summary"), "Bearer not-it")).isEqualTo(401);
      // Plain HTTP on the TLS port gets nowhere.
      assertThat(daemon.get("/healthz").status()).isNotEqualTo(200);
      assertThat(daemon.isAlive()).isTrue();

      String log = daemon.log();
      assertThat(log).contains("event=started").contains("scheme=https").contains("basic_auth_users=1").contains("bearer_token=true");
      assertThat(log.lines().filter(l -> l.contains("level=WARN") || l.contains("level=ERROR")))
          .as("refusals are DEBUG only; the one warning is the missing runtime\n" + log)
          .allMatch(l -> l.contains("collector=cri"));
    }
  }

  @Test
  void aWebConfigWithUnsupportedKeysExitsTwoListingThem(@TempDir Path dir) throws Exception {
    Path web =
        Files.writeString(
            dir.resolve("web-config.yml"),
            """
            tls_server_config:
              cert_file: nope.crt
              key_file: nope.key
              curve_preferences: [X25519]
            http_server_config:
              headers:
                Server: winstats
            """);
    DaemonProcess.Result r =
        DaemonProcess.run(Duration.ofSeconds(60), "--web.config.file=" + web, "--web.listen-address=127.0.0.1:0");
    assertThat(r.exitCode()).as(r.output()).isEqualTo(2);
    assertThat(r.output())
        .contains("curve_preferences is not supported")
        .contains("'Server' can not be configured")
        .contains(ExporterCommand.SEE_HELP)
        .doesNotContain("Usage:");
  }

  private static int status(HttpClient http, URI uri, String authorization) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    try {
      return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }
}
