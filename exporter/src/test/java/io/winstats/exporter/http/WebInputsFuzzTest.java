package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.Fuzz;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What others write that the web layer reads (issue 44): the web config file, the PEM certificates and keys it names,
 * and the request headers and forms the daemon parses itself (Undertow parses the rest, and HostileHttpIT sends it
 * malformed requests). The rule for each: a value, or the parser's own clear error (a problem listed, an
 * IllegalArgumentException with a message), never another exception.
 */
class WebInputsFuzzTest {
  private static final String WEB_CONFIG =
      """
      tls_server_config:
        cert_file: server.crt
        key_file: server.key
        client_auth_type: RequireAndVerifyClientCert
        client_ca_file: ca.crt
        min_version: TLS12
        cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]
      http_server_config:
        http2: true
        headers:
          X-Frame-Options: deny
      basic_auth_users:
        prometheus: $2y$10$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7zG
      rate_limit:
        interval: 1m30.5s
        burst: 5
      """;
  private static final List<String> YAML_TOKENS =
      List.of(":", ": ", "- ", "\n", "\n  ", "  ", "[", "]", "{", "}", "'", "\"", "&a", "*a", "!!binary ", "~", "null",
          "<<: ", "#", "---", "TLS13", "RequireAnyClientCert", "0", "ms", "$2y$");
  private static final List<String> PEM_TOKENS =
      List.of("-----BEGIN CERTIFICATE-----\n", "-----END CERTIFICATE-----\n", "-----BEGIN PRIVATE KEY-----\n",
          "-----END PRIVATE KEY-----\n", "-----BEGIN EC PRIVATE KEY-----\n", "-----BEGIN RSA PRIVATE KEY-----\n",
          "-----BEGIN ENCRYPTED PRIVATE KEY-----\n", "=", "==", "\n", "A", "/", "+", "MII", "AAAA");

  @TempDir Path dir;

  @Test
  void aBentWebConfigIsReadOrRefusedWithProblems() throws Exception {
    Certificates c = Certificates.get();
    Files.copy(c.server.certPem(), dir.resolve("server.crt"));
    Files.copy(c.server.keyPem(), dir.resolve("server.key"));
    Files.copy(c.ca.caPem(), dir.resolve("ca.crt"));
    Path file = dir.resolve("web.yml");
    List<String> problems = new ArrayList<>();
    assertThat(WebConfigReader.read(Files.writeString(file, WEB_CONFIG), problems)).isNotNull();
    assertThat(problems).isEmpty();
    // a read that gets as far as the TLS files costs ~0.1 s (certificates, key, an SSLContext): a tenth of the tries
    Fuzz.forAll("web config: the toolkit's file bent", 10,
        r -> Fuzz.mutate(r, WEB_CONFIG, YAML_TOKENS).getBytes(StandardCharsets.UTF_8),
        yaml -> readOrRefuse(file, yaml));
    Fuzz.forAll("web config: any bytes", r -> Fuzz.bytes(r, 300), yaml -> readOrRefuse(file, yaml));
  }

  private static void readOrRefuse(Path file, byte[] yaml) throws Exception {
    List<String> found = new ArrayList<>();
    WebConfig web = WebConfigReader.read(Files.write(file, yaml), found);
    assertThat(web == null).as("null exactly when a problem is listed: %s", found).isEqualTo(!found.isEmpty());
    assertThat(String.join("\n", found)).as("problems an operator can read").doesNotContain("Exception");
  }

  @Test
  void bentPemGivesCertificatesAndKeysOrAClearError() throws Exception {
    Certificates c = Certificates.get();
    String cert = Files.readString(c.server.certPem(), StandardCharsets.US_ASCII);
    String rsaKey = Files.readString(c.server.keyPem(), StandardCharsets.US_ASCII);
    String ecKey = Files.readString(c.client.keyPem(), StandardCharsets.US_ASCII);
    Fuzz.forAll("PEM: certificates bent", r -> Fuzz.mutate(r, cert, PEM_TOKENS), pem -> {
      try {
        List<X509Certificate> chain = Pem.certificates(pem);
        assertThat(chain).isNotEmpty();
      } catch (IllegalArgumentException e) {
        assertThat(e.getMessage()).isNotBlank();
      }
    });
    Fuzz.forAll("PEM: keys bent", r -> Fuzz.mutate(r, r.nextBoolean() ? rsaKey : ecKey, PEM_TOKENS), pem -> {
      try {
        PrivateKey key = Pem.privateKey(pem);
        Pem.checkPair(c.server.cert(), key);
      } catch (IllegalArgumentException e) {
        assertThat(e.getMessage()).isNotBlank();
      }
    });
    Fuzz.forAll("PEM: blocks of any bytes",
        r -> Fuzz.oneOf(r, PEM_TOKENS.subList(0, 7)) + java.util.Base64.getMimeEncoder().encodeToString(
            Fuzz.bytes(r, 600)) + "\n-----END " + Fuzz.oneOf(r, List.of("CERTIFICATE", "PRIVATE KEY",
                "EC PRIVATE KEY", "RSA PRIVATE KEY")) + "-----\n",
        pem -> {
          for (Fuzz.Check<String> parse : List.<Fuzz.Check<String>>of(Pem::certificates, Pem::privateKey)) {
            try {
              parse.accept(pem);
            } catch (IllegalArgumentException e) {
              assertThat(e.getMessage()).isNotBlank();
            }
          }
        });
  }

  @Test
  void requestHeadersAndFormsGiveAnAnswerOrAClearError() {
    List<String> words = List.of("gzip", "x-gzip", "*", "identity", "br", "q=0", "q=1", "q=0.000", "q=", "q=1.0001",
        "Q = 0.5", ";", ",", "=", " ");
    Fuzz.forAll("Accept-Encoding: header-shaped and any text", r -> {
      List<String> fields = new ArrayList<>();
      for (int i = r.nextInt(4); i >= 0; i--) {
        fields.add(r.nextBoolean() ? Fuzz.lines(r, words, List.of("", " ", ",", ";"), 8, 1).strip() : Fuzz.text(r, 40));
      }
      return fields;
    }, AcceptEncoding::allowsGzip);
    List<String> formWords = List.of("only_cpu_and_memory", "=", "&", "true", "false", "%", "%2", "%zz", "%26", "+",
        "%E2%82", "%C3%A9", ";");
    Fuzz.forAll("summary form: urlencoded-shaped and any text",
        r -> r.nextBoolean() ? Fuzz.lines(r, formWords, List.of(""), 10, 1).strip() : Fuzz.text(r, 60), body -> {
          try {
            SummaryForm.onlyCpuAndMemory(List.of(), body);
          } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
          }
        });
    List<String> durationWords = List.of("1", "0", "1.5", ".", "ms", "s", "m", "h", "ns", "us", "µs", "d", "-", "+");
    Fuzz.forAll("Go duration: duration-shaped text",
        r -> r.nextInt(4) == 0 ? Fuzz.text(r, 12) : Fuzz.lines(r, durationWords, List.of(""), 6, 1).strip(), text -> {
          try {
            assertThat(WebConfigReader.goDuration(text).isNegative()).isFalse();
          } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
          }
        });
  }
}
