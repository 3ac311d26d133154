package io.winstats.exporter.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The web configuration file of Prometheus' exporter-toolkit ({@code --web.config.file}), the one node_exporter and
 * windows_exporter read: TLS ({@code tls_server_config}), response headers ({@code http_server_config}), bcrypt basic
 * auth ({@code basic_auth_users}) and {@code rate_limit}, as a value; {@link WebConfigReader} reads it from YAML, and
 * {@link LiveWebConfig} re-reads it when the file changes.
 *
 * <p>See <a href="https://github.com/prometheus/exporter-toolkit/blob/master/docs/web-configuration.md">the
 * toolkit's documentation</a>.
 *
 * @param file where it was read from
 * @param tls TLS settings, or {@code null} to serve plain HTTP
 * @param http2 whether to offer HTTP/2 over TLS (ALPN)
 * @param headers extra response headers, from the toolkit's fixed set
 * @param basicAuthUsers user name to bcrypt hash; empty for no basic auth
 * @param rateLimit a token bucket over all requests but {@code /healthz}, or {@code null}
 */
public record WebConfig(
    Path file,
    @Nullable Tls tls,
    boolean http2,
    Map<String, String> headers,
    Map<String, String> basicAuthUsers,
    @Nullable RateLimit rateLimit) {

  public WebConfig {
    Objects.requireNonNull(file, "file");
    headers = Map.copyOf(headers);
    basicAuthUsers = Map.copyOf(basicAuthUsers);
  }

  /** The toolkit's {@code client_auth_type} values, with Go's meaning. */
  public enum ClientAuth {
    NoClientCert(false, false),
    RequestClientCert(false, false),
    RequireAnyClientCert(true, false),
    VerifyClientCertIfGiven(false, true),
    RequireAndVerifyClientCert(true, true);

    private final boolean required;
    private final boolean verified;

    ClientAuth(boolean required, boolean verified) {
      this.required = required;
      this.verified = verified;
    }

    /** A request without a client certificate is refused (except {@code /healthz}). */
    public boolean required() {
      return required;
    }

    /** A presented certificate must chain to the client CA. */
    public boolean verified() {
      return verified;
    }
  }

  /** A PEM text given inline in the file or as a file name; exactly one is non-null. */
  public record PemSource(@Nullable Path file, @Nullable String inline) {
    public PemSource {
      if ((file == null) == (inline == null)) {
        throw new IllegalArgumentException("exactly one of file and inline");
      }
    }

    /** The PEM text; reads the file each time. */
    public String read() throws IOException {
      return file != null ? Files.readString(file, StandardCharsets.US_ASCII) : Objects.requireNonNull(inline);
    }

    @Override
    public String toString() {
      return file != null ? file.toString() : "(inline)";
    }
  }

  /**
   * {@code tls_server_config}.
   *
   * @param cert the server certificate, leaf first, then any intermediates
   * @param key its private key
   * @param clientCa the CAs that client certificates must chain to, or {@code null}
   * @param clientAuth whether a client certificate is asked for, required and verified
   * @param protocols JDK protocol names from {@code min_version} to {@code max_version}
   * @param cipherSuites enabled cipher suites for TLS 1.2 (empty: the JDK's defaults); TLS 1.3 suites stay enabled
   * @param clientAllowedSans if not empty, the client certificate must carry one of these SANs
   */
  public record Tls(
      PemSource cert,
      PemSource key,
      @Nullable PemSource clientCa,
      ClientAuth clientAuth,
      List<String> protocols,
      List<String> cipherSuites,
      List<String> clientAllowedSans) {
    public Tls {
      Objects.requireNonNull(cert, "cert");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(clientAuth, "clientAuth");
      protocols = List.copyOf(protocols);
      cipherSuites = List.copyOf(cipherSuites);
      clientAllowedSans = List.copyOf(clientAllowedSans);
    }
  }

  /**
   * {@code rate_limit}: on average one request per {@code interval}, bursts of up to {@code burst}.
   *
   * @param interval time between two requests, positive
   * @param burst the bucket's size, at least 1
   */
  public record RateLimit(Duration interval, int burst) {
    public RateLimit {
      Objects.requireNonNull(interval, "interval");
    }
  }
}
