package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebConfigTest {
  @TempDir Path dir;

  private WebConfig read(String yaml, List<String> problems) throws Exception {
    return WebConfigReader.read(Files.writeString(dir.resolve("web.yml"), yaml), problems);
  }

  @Test
  void aToolkitFileWithRelativePathsHeadersUsersAndRateLimit() throws Exception {
    Certificates c = Certificates.get();
    Files.copy(c.server.certPem(), dir.resolve("server.crt"));
    Files.copy(c.server.keyPem(), dir.resolve("server.key"));
    Files.copy(c.ca.caPem(), dir.resolve("ca.crt"));
    List<String> problems = new ArrayList<>();
    WebConfig web =
        read(
            """
            tls_server_config:
              cert_file: server.crt
              key_file: server.key
              client_auth_type: RequireClientCert
              client_ca_file: ca.crt
              min_version: TLS13
              cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]
              prefer_server_cipher_suites: false
            http_server_config:
              http2: false
              headers:
                X-Frame-Options: deny
                Strict-Transport-Security: max-age=31536000
            basic_auth_users:
              prometheus: $2y$10$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7zG
            rate_limit:
              interval: 100ms
              burst: 5
            """,
            problems);
    assertThat(problems).isEmpty();
    assertThat(web.tls().cert().file()).isEqualTo(dir.resolve("server.crt"));
    assertThat(web.tls().clientAuth()).as("the old name").isEqualTo(WebConfig.ClientAuth.RequireAnyClientCert);
    assertThat(web.tls().protocols()).containsExactly("TLSv1.3");
    assertThat(web.http2()).isFalse();
    assertThat(web.headers()).containsEntry("X-Frame-Options", "deny").hasSize(2);
    assertThat(web.basicAuthUsers()).containsOnlyKeys("prometheus");
    assertThat(web.rateLimit()).isEqualTo(new WebConfig.RateLimit(Duration.ofMillis(100), 5));
  }

  @Test
  void anEmptyFileOrOnlyUsersMeansPlainHttp() throws Exception {
    List<String> problems = new ArrayList<>();
    assertThat(read("", problems).tls()).isNull();
    assertThat(read("basic_auth_users:\n  a: $2a$04$QZSPLYNCSlIOxYaleTfi7OjWu6SQxeWfsMJ9mIxpZh3G3OoEL0aTq\n", problems).tls()).isNull();
    assertThat(problems).isEmpty();
  }

  @Test
  void everyProblemIsListed() throws Exception {
    List<String> problems = new ArrayList<>();
    WebConfig web =
        read(
            """
            tls_server_config:
              cert: "inline"
              cert_file: a.crt
              client_auth_type: VerifyEverything
              client_ca_file: ca.crt
              min_version: TLS10
              max_version: TLS14
              curve_preferences: [X25519]
              cipher_suites: [TLS_MADE_UP]
              client_allowed_sans: [x]
              session_tickets: true
            http_server_config:
              headers:
                X-Powered-By: java
                X-Frame-Options: always
            basic_auth_users:
              alice: plaintext
            rate_limit:
              interval: often
            something_else: 1
            """,
            problems);
    assertThat(web).isNull();
    assertThat(String.join("\n", problems))
        .contains("unknown key 'something_else'")
        .contains("unknown key 'tls_server_config.session_tickets'")
        .contains("give cert or cert_file, not both")
        .contains("missing one of key or key_file")
        .contains("client_auth_type: 'VerifyEverything' is not one of")
        .contains("curve_preferences is not supported")
        .contains("min_version: TLS10 is not supported")
        .contains("max_version: 'TLS14' is not one of TLS12, TLS13")
        .contains("'TLS_MADE_UP' is not a cipher suite")
        .contains("client_allowed_sans requires client_auth_type")
        .contains("'X-Powered-By' can not be configured")
        .contains("X-Frame-Options: 'always' is not one of [deny, sameorigin]")
        .contains("basic_auth_users.alice: not a bcrypt hash")
        .contains("rate_limit.interval: 'often' is not a duration");
    assertThat(problems).allSatisfy(p -> assertThat(p).startsWith("--web.config.file " + dir.resolve("web.yml") + ": "));
  }

  @Test
  void clientCaAndAuthTypeMustAgree() throws Exception {
    Certificates c = Certificates.get();
    String tls = "tls_server_config:\n  cert_file: " + c.server.certPem() + "\n  key_file: " + c.server.keyPem() + "\n";
    List<String> problems = new ArrayList<>();
    read(tls + "  client_ca_file: " + c.ca.caPem() + "\n", problems);
    read(tls + "  client_auth_type: RequireAndVerifyClientCert\n", problems);
    read(tls + "  min_version: TLS13\n  max_version: TLS12\n", problems);
    assertThat(String.join("\n", problems))
        .contains("a client CA is configured without a client_auth_type")
        .contains("RequireAndVerifyClientCert needs client_ca_file")
        .contains("min_version is above max_version");
  }

  @Test
  void certificatesAreLoadedToValidate() throws Exception {
    Certificates c = Certificates.get();
    List<String> problems = new ArrayList<>();
    read("tls_server_config:\n  cert_file: " + c.server.certPem() + "\n  key_file: " + c.client.keyPem() + "\n", problems);
    read("tls_server_config:\n  cert_file: missing.crt\n  key_file: " + c.server.keyPem() + "\n", problems);
    assertThat(problems).hasSize(2);
    assertThat(problems.get(0)).contains("does not match the certificate");
    assertThat(problems.get(1)).contains("cannot read certificate " + dir.resolve("missing.crt") + ": no such file");
  }

  @Test
  void goDurations() {
    assertThat(WebConfigReader.goDuration("1m30s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(WebConfigReader.goDuration("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(WebConfigReader.goDuration("250us")).isEqualTo(Duration.ofNanos(250_000));
    assertThat(WebConfigReader.goDuration("0")).isZero();
    assertThat(WebConfigReader.goDuration("2562047h47m16.854775807s")).as("Go's largest").isEqualTo(
        Duration.ofNanos(Long.MAX_VALUE));
    // found by WebInputsFuzzTest: past an int64 of nanoseconds the sum wrapped to a negative duration
    assertThatThrownBy(() -> WebConfigReader.goDuration("2562048h")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("longer than Go's largest duration");
  }

  @Test
  void theTokenBucketAllowsABurstThenOnePerInterval() {
    AtomicLong nanos = new AtomicLong();
    TokenBucket bucket = new TokenBucket(new WebConfig.RateLimit(Duration.ofSeconds(1), 2), nanos::get);
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isFalse();
    nanos.addAndGet(Duration.ofMillis(999).toNanos());
    assertThat(bucket.tryAcquire()).isFalse();
    nanos.addAndGet(Duration.ofMillis(1).toNanos());
    assertThat(bucket.tryAcquire()).isTrue();
    nanos.addAndGet(Duration.ofSeconds(60).toNanos());
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).isTrue();
    assertThat(bucket.tryAcquire()).as("never more than the burst").isFalse();
  }
}
