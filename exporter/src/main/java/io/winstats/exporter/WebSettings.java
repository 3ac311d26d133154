package io.winstats.exporter;

import io.winstats.exporter.http.ListenAddress;
import io.winstats.exporter.http.ServerSettings;
import io.winstats.exporter.http.WebConfig;
import io.winstats.exporter.http.WebConfigReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The web server's settings ({@code web.*}), in {@link #ALL}. */
final class WebSettings {
  private WebSettings() {}

  /**
   * Default port: clear of kubelet (10250, 10255), kube-proxy (10256), windows_exporter (9182), node_exporter (9100),
   * cAdvisor (8080).
   */
  static final int DEFAULT_PORT = 9844;

  static final Setting<ListenAddress> LISTEN_ADDRESS =
      Setting.valued(
          "web.listen-address",
          "HOST:PORT",
          ":" + DEFAULT_PORT,
          "Address to serve on; ':PORT' is every interface, IPv4 and IPv6.",
          ListenAddress::parse)
          .withExample("127.0.0.1:19002");

  static final Setting<WebConfig> CONFIG_FILE =
      Setting.valued(
          "web.config.file",
          "FILE",
          null,
          "exporter-toolkit web configuration (YAML, as node_exporter and windows_exporter read it): TLS,"
              + " client certificates, bcrypt basic auth, response headers, rate limit. /healthz stays open.",
          WebSettings::webConfig,
          c -> c.server().web() == null ? null : c.server().web().file().toString());

  static final Setting<Path> BEARER_TOKEN_FILE =
      Setting.valued(
          "web.auth.bearer-token-file",
          "FILE",
          null,
          "File holding a bearer token (Authorization: Bearer TOKEN) that grants access to every path but"
              + " /healthz; re-read when it changes. Alone or beside basic auth.",
          WebSettings::bearerTokenFile);

  static final Setting<Long> MAX_HEADER_BYTES =
      Setting.valued(
          "web.max-header-bytes",
          "SIZE",
          "16KiB",
          "Largest request line plus headers (16384, 16KiB, 1MiB).",
          text -> SettingChecks.size(text, 1024, Integer.MAX_VALUE))
          .withRange(1024, Integer.MAX_VALUE)
          .withExample("32KiB");

  static final Setting<Long> MAX_BODY_BYTES =
      Setting.valued(
          "web.max-body-bytes",
          "SIZE",
          "64KiB",
          "Largest request body (POST /stats/summary); larger gets 413.",
          text -> SettingChecks.size(text, 0, Long.MAX_VALUE))
          .withRange(0, Long.MAX_VALUE)
          .withExample("1MiB");

  static final Setting<Duration> REQUEST_TIMEOUT =
      Setting.valued(
          "web.request-timeout",
          "DURATION",
          "10s",
          "Time a client has to send a request's headers once it started.",
          text -> SettingChecks.duration(text, Duration.ofMillis(100)))
          .withExample("3s");

  static final Setting<Duration> IDLE_TIMEOUT =
      Setting.valued(
          "web.idle-timeout",
          "DURATION",
          "60s",
          "Time a connection may stay open with no request (also bounds a TLS handshake).",
          text -> SettingChecks.duration(text, Duration.ofMillis(100)))
          .withExample("2m");

  static final Setting<Integer> MAX_CONNECTIONS =
      Setting.valued(
          "web.max-connections",
          "N",
          "256",
          "Open connections at once; further ones wait in the listen backlog until one closes.",
          WebSettings::maxConnections)
          .withRange(1, Integer.MAX_VALUE)
          .withExample("12");

  static final Setting<String> TELEMETRY_PATH =
      Setting.valued(
          "web.telemetry-path",
          "PATH",
          "/metrics",
          "Path of the Prometheus endpoint; the kubelet's /metrics/resource and /metrics/cadvisor keep theirs.",
          WebSettings::telemetryPath)
          .withExample("/prom");

  static final Setting<Boolean> DISABLE_EXPORTER_METRICS =
      Setting.offSwitch(
          "web.disable-exporter-metrics",
          "Leave the daemon's own process_* and jvm_* series out of /metrics (winstats_exporter_* stay).");

  static final Setting<Boolean> NODE_PAGE =
      Setting.onSwitch(
          "web.node-page",
          "Serve the node page (/node) and its JSON (/api/v1/history/node, /api/v1/history/pod), keeping the last 60"
              + " samples of the node's, pods' and containers' figures in memory (docs/NODE-PAGE.md). Off: neither is"
              + " served and no history is kept.");

  /** The group's settings, in usage order ({@code --help}'s). */
  static final List<Setting<?>> ALL =
      List.of(
          LISTEN_ADDRESS,
          CONFIG_FILE,
          BEARER_TOKEN_FILE,
          MAX_HEADER_BYTES,
          MAX_BODY_BYTES,
          REQUEST_TIMEOUT,
          IDLE_TIMEOUT,
          MAX_CONNECTIONS,
          TELEMETRY_PATH,
          DISABLE_EXPORTER_METRICS,
          NODE_PAGE);

  private static String telemetryPath(String text) {
    if (!text.startsWith("/") || text.length() < 2 || text.chars().anyMatch(c -> c <= ' ' || c == '?' || c == '#')) {
      throw new IllegalArgumentException("'" + text + "' is not a path such as /metrics");
    }
    if (ServerSettings.isReserved(text)) {
      throw new IllegalArgumentException(text + " is served already; choose another path");
    }
    return text;
  }

  private static int maxConnections(String text) {
    int connections;
    try {
      connections = Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a whole number", e);
    }
    if (connections < 1) {
      throw new IllegalArgumentException("must be at least 1, not " + connections);
    }
    return connections;
  }

  /** An empty value is no web configuration; the file's problems already name the flag and the file. */
  private static @Nullable WebConfig webConfig(String text) {
    if (text.isEmpty()) {
      return null;
    }
    List<String> problems = new ArrayList<>();
    WebConfig web = WebConfigReader.read(Path.of(text), problems);
    if (!problems.isEmpty()) {
      throw new Setting.Invalid(problems);
    }
    return web;
  }

  /** An empty value is no token file; the token reader's message already names the flag. */
  private static @Nullable Path bearerTokenFile(String text) {
    if (text.isEmpty()) {
      return null;
    }
    Path file = Path.of(text);
    try {
      ServerSettings.checkBearerTokenFile(file);
    } catch (IllegalArgumentException e) {
      throw new Setting.Invalid(List.of(String.valueOf(e.getMessage())));
    }
    return file;
  }
}
