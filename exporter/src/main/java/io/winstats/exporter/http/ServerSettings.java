package io.winstats.exporter.http;

import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the server is reached and guarded.
 *
 * @param limits header, body, time and connection limits
 * @param web the exporter-toolkit web configuration (TLS, basic auth, headers, rate limit), or {@code null} for plain
 *     HTTP with no authentication
 * @param bearerTokenFile a file whose content (trimmed) is a bearer token that grants access, or {@code null}
 * @param telemetryPath the path of the Prometheus endpoint, {@code /metrics} unless {@code --web.telemetry-path} says
 * @param build the version, revision and build date, as the landing page names them
 */
public record ServerSettings(
    HttpLimits limits, @Nullable WebConfig web, @Nullable Path bearerTokenFile, String telemetryPath, String build) {
  /** The Prometheus endpoint's path unless configured, as every exporter serves it. */
  public static final String DEFAULT_TELEMETRY_PATH = "/metrics";

  /** The paths the server keeps for itself; the telemetry path cannot be one of them. */
  public static final java.util.Set<String> RESERVED_PATHS =
      java.util.Set.of("/", "/healthz", "/status", "/stats/summary", "/metrics/resource", "/metrics/cadvisor");

  /** Whether the server keeps {@code path} for itself: one of {@link #RESERVED_PATHS}, or the node page's. */
  public static boolean isReserved(String path) {
    return RESERVED_PATHS.contains(path) || path.equals("/node") || path.startsWith("/node/")
        || path.startsWith("/api/");
  }

  /** Plain HTTP, no authentication, default limits. */
  public static final ServerSettings DEFAULTS = new ServerSettings(HttpLimits.DEFAULTS, null, null);

  public ServerSettings {
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(telemetryPath, "telemetryPath");
    Objects.requireNonNull(build, "build");
  }

  /** Serving metrics on {@code /metrics}, with no build named. */
  public ServerSettings(HttpLimits limits, @Nullable WebConfig web, @Nullable Path bearerTokenFile) {
    this(limits, web, bearerTokenFile, DEFAULT_TELEMETRY_PATH, "dev");
  }

  /** Throws {@link IllegalArgumentException} (naming the flag) unless {@code file} holds a non-empty token. */
  public static void checkBearerTokenFile(Path file) {
    BearerToken.read(file);
  }
}
