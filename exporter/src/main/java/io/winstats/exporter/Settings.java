package io.winstats.exporter;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.StatsCall;
import io.winstats.cri.WindowsStatsSource;
import io.winstats.exporter.http.ListenAddress;
import io.winstats.exporter.http.ServerSettings;
import io.winstats.exporter.http.WebConfig;
import io.winstats.exporter.http.WebConfigReader;
import io.winstats.exporter.logging.LogLines;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.sources.NodeSourceSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;

/**
 * Every setting of the daemon, each declared once, in usage order. Flag names are spelled as Prometheus exporters
 * spell theirs. README's flag table lists the same settings ({@code ReadmeFlagTableTest}).
 */
final class Settings {
  private Settings() {}

  /** Default port: clear of kubelet (10250, 10255), kube-proxy (10256), windows_exporter (9182), node_exporter (9100), cAdvisor (8080). */
  static final int DEFAULT_PORT = 9844;

  static final String DEFAULT_CRI_ENDPOINT_LINUX = "unix:///run/containerd/containerd.sock";
  static final String DEFAULT_CRI_ENDPOINT_WINDOWS = "npipe:////./pipe/containerd-containerd";

  static final Setting<ListenAddress> WEB_LISTEN_ADDRESS =
      setting(
          "web.listen-address",
          "HOST:PORT",
          ":" + DEFAULT_PORT,
          "Address to serve on; ':PORT' is every interface, IPv4 and IPv6.",
          ListenAddress::parse,
          c -> c.listenAddress().toString());

  static final Setting<WebConfig> WEB_CONFIG_FILE =
      setting(
          "web.config.file",
          "FILE",
          null,
          "exporter-toolkit web configuration (YAML, as node_exporter and windows_exporter read it): TLS,"
              + " client certificates, bcrypt basic auth, response headers, rate limit. /healthz stays open.",
          Settings::webConfig,
          c -> c.server().web() == null ? null : c.server().web().file().toString());

  static final Setting<Path> WEB_BEARER_TOKEN_FILE =
      setting(
          "web.auth.bearer-token-file",
          "FILE",
          null,
          "File holding a bearer token (Authorization: Bearer TOKEN) that grants access to every path but"
              + " /healthz; re-read when it changes. Alone or beside basic auth.",
          Settings::bearerTokenFile,
          c -> c.server().bearerTokenFile() == null ? null : c.server().bearerTokenFile().toString());

  static final Setting<Long> WEB_MAX_HEADER_BYTES =
      setting(
          "web.max-header-bytes",
          "SIZE",
          "16KiB",
          "Largest request line plus headers (16384, 16KiB, 1MiB).",
          text -> size(text, 1024, Integer.MAX_VALUE),
          c -> ByteSizeFlag.format(c.server().limits().maxHeaderBytes()));

  static final Setting<Long> WEB_MAX_BODY_BYTES =
      setting(
          "web.max-body-bytes",
          "SIZE",
          "64KiB",
          "Largest request body (POST /stats/summary); larger gets 413.",
          text -> size(text, 0, Long.MAX_VALUE),
          c -> ByteSizeFlag.format(c.server().limits().maxBodyBytes()));

  static final Setting<Duration> WEB_REQUEST_TIMEOUT =
      setting(
          "web.request-timeout",
          "DURATION",
          "10s",
          "Time a client has to send a request's headers once it started.",
          text -> duration(text, Duration.ofMillis(100)),
          c -> DurationFlag.format(c.server().limits().requestTimeout()));

  static final Setting<Duration> WEB_IDLE_TIMEOUT =
      setting(
          "web.idle-timeout",
          "DURATION",
          "60s",
          "Time a connection may stay open with no request (also bounds a TLS handshake).",
          text -> duration(text, Duration.ofMillis(100)),
          c -> DurationFlag.format(c.server().limits().idleTimeout()));

  static final Setting<Integer> WEB_MAX_CONNECTIONS =
      setting(
          "web.max-connections",
          "N",
          "256",
          "Open connections at once; further ones wait in the listen backlog until one closes.",
          Settings::maxConnections,
          c -> c.server().limits().maxConnections());

  static final Setting<CriEndpoint> CRI_ENDPOINT =
      setting(
          "cri.endpoint",
          "URI",
          defaultCriEndpoint(),
          "Container runtime CRI endpoint: unix:///path, tcp://HOST:PORT or npipe:////./pipe/NAME.",
          Settings::criEndpoint,
          c -> c.criEndpoint().uri());

  // Not 5 s: containerd 1.6 runs `runc ps` per sandbox in ListPodSandboxStats, 2-8 s at 110 pods on a 2-core node
  // (docs/PERFORMANCE.md); a 5 s deadline failed the round there and retried it sooner, adding work. The kubelet
  // gives CRI calls 2 min; the sampling loop waits for a round before scheduling the next.
  static final Setting<Duration> CRI_TIMEOUT =
      setting(
          "cri.timeout",
          "DURATION",
          "30s",
          "Deadline of every CRI call.",
          text -> duration(text, Duration.ofMillis(100)),
          c -> DurationFlag.format(c.criTimeout()));

  static final Setting<StatsCall> CRI_STATS_CALL =
      setting(
          "cri.stats-call",
          "RPC",
          defaultStatsCall().rpcName(),
          "The CRI call each round reads pods with: ListPodSandboxStats (pod cgroup figures, pod network and"
              + " process counts from the runtime) or ListContainerStats (pod CPU and memory summed over its"
              + " containers; on Linux pod network and process counts from the cgroup round, on Windows none)."
              + " Default ListContainerStats on Linux, where containerd before 2.0 runs runc ps per sandbox and"
              + " container for the other call (at 110 pods 226 against 16 mCPU of runtime CPU),"
              + " ListPodSandboxStats on Windows.",
          StatsCall::parse,
          c -> c.criStatsCall().rpcName());

  static final Setting<WindowsStatsSource> CRI_WINDOWS_STATS =
      setting(
          "cri.windows-stats",
          "SOURCE",
          "tasks",
          "Windows nodes: where pod and container figures come from. tasks: containerd's own Tasks.Metrics (user and"
              + " kernel CPU, commit peak, storage I/O) and HNS endpoint statistics (packets), with no CRI stats call,"
              + " so the kubelet's own usageNanoCores is left alone; each part falls back to CRI stats while it fails."
              + " cri: CRI stats with --cri.stats-call, as on Linux. Ignored on Linux.",
          WindowsStatsSource::parse,
          c -> c.criWindowsStats().word());

  static final Setting<Duration> SAMPLING_INTERVAL =
      setting(
          "sampling.interval",
          "DURATION",
          "10s",
          "How often node counters and the runtime are sampled (at least 1s).",
          text -> duration(text, Duration.ofSeconds(1)),
          c -> DurationFlag.format(c.samplingInterval()));

  static final Setting<NodeSourceSpec> NODE_SOURCE =
      setting(
          "node.source",
          "SOURCE",
          "auto",
          "Node counter source: auto (pdh on Windows, procfs on Linux), procfs, procfs:PROC[,rootfs=DIR] (in a"
              + " container: the host's proc tree, and the host root for filesystems), pdh, or"
              + " replay:FILE[,speed=N|max][,bias=MINUTES][,time=replay|recorded] for a typeperf/relog CSV.",
          text -> NodeSourceSpec.parse(text, HostOs.current().isWindows()),
          c -> c.nodeSource().toString());

  static final Setting<WorkingSetDefinition> NODE_MEMORY_WORKING_SET =
      setting(
          "node.memory.working-set",
          "DEFINITION",
          "kubelet",
          "The Windows node working set (pdh source): kubelet, the sum of private working sets"
              + " (\\Process(_Total)\\Working Set - Private) as the kubelet reports it, which reads low; or physical,"
              + " total physical memory - \\Memory\\Available Bytes, as Task Manager and windows_exporter show it.",
          WorkingSetDefinition::parse,
          c -> c.nodeWorkingSet().flagValue());

  static final Setting<Path> NODE_KUBELET_ROOT_DIR =
      setting(
          "node.kubelet-root-dir",
          "DIR",
          "C:\\var\\lib\\kubelet",
          "The kubelet's --root-dir (pdh source): the Summary's node filesystem, and the capacity of container logs"
              + " and pod ephemeral storage, are read live from its volume (GetDiskFreeSpaceExW), as the kubelet"
              + " reads them.",
          Path::of,
          c -> c.kubeletRootDir().toString());

  static final Setting<String> NODE_NAME =
      setting(
          "node.name",
          "NAME",
          null,
          "Node name in the Summary API. Default: $NODE_NAME, else the host name.",
          text -> text,
          ExporterConfig::nodeName);

  static final Setting<Path> RECORD =
      setting(
          "record",
          "FILE",
          null,
          "Also record every node sample to FILE as a PDH-CSV counter log that --node.source=replay:FILE replays.",
          Path::of,
          c -> c.recordFile() == null ? null : c.recordFile().toString());

  static final Setting<String> LOG_LEVEL =
      setting(
          "log.level",
          "LEVEL",
          "info",
          "debug, info, warn or error.",
          Settings::logLevel,
          ExporterConfig::logLevel);

  static final Setting<Boolean> WEB_DISABLE_EXPORTER_METRICS =
      switchSetting(
          "web.disable-exporter-metrics",
          "Leave the daemon's own process_* and jvm_* series out of /metrics (winstats_exporter_* stay).",
          c -> !c.exporterMetrics());

  static final Setting<String> WEB_TELEMETRY_PATH =
      setting(
          "web.telemetry-path",
          "PATH",
          "/metrics",
          "Path of the Prometheus endpoint; the kubelet's /metrics/resource and /metrics/cadvisor keep theirs.",
          Settings::telemetryPath,
          c -> c.server().telemetryPath());

  static final Setting<Pattern> METRICS_INCLUDE =
      setting(
          "metrics.include",
          "REGEX",
          ".*",
          "Serve on the Prometheus endpoint only the families whose name (as exposed, with _total) matches.",
          Settings::familyPattern,
          c -> c.families().include().pattern());

  static final Setting<Pattern> METRICS_EXCLUDE =
      setting(
          "metrics.exclude",
          "REGEX",
          "",
          "Leave out of the Prometheus endpoint the families whose name matches, e.g. 'container_(network|fs)_.*'.",
          Settings::familyPattern,
          c -> c.families().exclude().pattern());

  static final Setting<LogLines.Format> LOG_FORMAT =
      setting(
          "log.format",
          "FORMAT",
          "logfmt",
          "logfmt or json: one line per record either way.",
          LogLines.Format::parse,
          c -> c.logFormat().flagValue());

  static final Setting<Boolean> COLLECTOR_CRI =
      collectorSwitch(
          "collector.cri",
          "The CRI round: pods and containers in the Summary, the cAdvisor and resource series. Off: no CRI call, no"
              + " pod series; the endpoints serve the node alone.",
          c -> c.collectors().cri());

  static final Setting<Boolean> COLLECTOR_CGROUP =
      collectorSwitch(
          "collector.cgroup",
          "On a Linux node, the cgroups of each CRI round's pods and containers (the cAdvisor series CRI lacks:"
              + " throttling, page cache, block IO, processes, PSI, pod packets). Off: no cgroup file is read.",
          c -> c.collectors().cgroup());

  static final Setting<Boolean> COLLECTOR_NODE =
      collectorSwitch(
          "collector.node",
          "The node series under node_exporter's names (Linux) or windows_exporter's (Windows) on the Prometheus"
              + " endpoint. Off: not built; the node counters are still read for the other endpoints.",
          c -> c.collectors().node());

  static final Setting<Boolean> COLLECTOR_CONTAINER =
      collectorSwitch(
          "collector.container",
          "On a Windows node, windows_exporter's container series (windows_container_*). Off: not built.",
          c -> c.collectors().container());

  static final Setting<Path> CONFIG_FILE =
      commandLineOnly(
          "config.file",
          "FILE",
          "YAML file with any of these settings (web.listen-address: ..., nested or dotted) and perfcounters:"
              + " custom PDH counters. Flags given here override it.",
          Path::of);

  static final Setting<Boolean> PRINT_CONFIG =
      commandLineOnly("print-config", "", "Print the effective configuration as YAML and exit.", Boolean::valueOf);

  /** Every setting, in usage order. */
  static final List<Setting<?>> ALL =
      List.of(
          WEB_LISTEN_ADDRESS,
          WEB_CONFIG_FILE,
          WEB_BEARER_TOKEN_FILE,
          WEB_MAX_HEADER_BYTES,
          WEB_MAX_BODY_BYTES,
          WEB_REQUEST_TIMEOUT,
          WEB_IDLE_TIMEOUT,
          WEB_MAX_CONNECTIONS,
          WEB_TELEMETRY_PATH,
          WEB_DISABLE_EXPORTER_METRICS,
          METRICS_INCLUDE,
          METRICS_EXCLUDE,
          COLLECTOR_CRI,
          COLLECTOR_CGROUP,
          COLLECTOR_NODE,
          COLLECTOR_CONTAINER,
          CRI_ENDPOINT,
          CRI_TIMEOUT,
          CRI_STATS_CALL,
          CRI_WINDOWS_STATS,
          SAMPLING_INTERVAL,
          NODE_SOURCE,
          NODE_MEMORY_WORKING_SET,
          NODE_KUBELET_ROOT_DIR,
          NODE_NAME,
          RECORD,
          OtlpSettings.ENABLED,
          OtlpSettings.INTERVAL,
          CONFIG_FILE,
          PRINT_CONFIG,
          LOG_LEVEL,
          LOG_FORMAT);

  /** The settings a configuration file may hold, in usage order. */
  static List<Setting<?>> inFile() {
    return ALL.stream().filter(Setting::inFile).toList();
  }

  /** The setting a file key names, or null. */
  static @Nullable Setting<?> byName(String name) {
    return ALL.stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
  }

  private static <T> Setting<T> setting(
      String name,
      String paramLabel,
      @Nullable String defaultValue,
      String help,
      Setting.Parser<T> parser,
      Function<ExporterConfig, @Nullable Object> printed) {
    return new Setting<>(name, paramLabel, defaultValue, help, true, parser, printed);
  }

  /** An on/off setting: given alone on the command line it is on; in the file, {@code true} or {@code false}. */
  private static Setting<Boolean> switchSetting(
      String name, String help, Function<ExporterConfig, @Nullable Object> printed) {
    return new Setting<>(name, "", "false", help, true, Settings::bool, printed);
  }

  /** A collector's switch: on unless {@code --no-collector.X} (or {@code false} in the file) turns it off. */
  private static Setting<Boolean> collectorSwitch(
      String name, String help, Function<ExporterConfig, @Nullable Object> printed) {
    return new Setting<>(name, "", "true", help, true, Settings::bool, printed);
  }

  private static Boolean bool(String text) {
    return switch (text.toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> throw new IllegalArgumentException("'" + text + "' is not true or false");
    };
  }

  private static Pattern familyPattern(String text) {
    try {
      return Pattern.compile(text);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("'" + text + "' is not a regular expression: " + e.getDescription(), e);
    }
  }

  private static String telemetryPath(String text) {
    if (!text.startsWith("/") || text.length() < 2 || text.chars().anyMatch(c -> c <= ' ' || c == '?' || c == '#')) {
      throw new IllegalArgumentException("'" + text + "' is not a path such as /metrics");
    }
    if (ServerSettings.RESERVED_PATHS.contains(text)) {
      throw new IllegalArgumentException(text + " is served already; choose another path");
    }
    return text;
  }

  private static <T> Setting<T> commandLineOnly(String name, String paramLabel, String help, Setting.Parser<T> parser) {
    return new Setting<>(name, paramLabel, null, help, false, parser, c -> null);
  }

  // ---------------------------------------------------------------- checks shared by several settings

  private static Duration duration(String text, Duration minimum) {
    Duration d = DurationFlag.parse(text);
    if (d.compareTo(minimum) < 0) {
      throw new IllegalArgumentException(text + " is shorter than the minimum " + DurationFlag.format(minimum));
    }
    return d;
  }

  private static long size(String text, long minimum, long maximum) {
    long n = ByteSizeFlag.parse(text);
    if (n < minimum || n > maximum) {
      throw new IllegalArgumentException(
          text + " is outside " + ByteSizeFlag.format(minimum) + " to " + ByteSizeFlag.format(maximum));
    }
    return n;
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

  /**
   * The endpoint (empty is the platform's default). A named pipe is refused off Windows here, before anything starts,
   * rather than by the reader that could not open it.
   */
  private static CriEndpoint criEndpoint(String text) {
    CriEndpoint endpoint = CriEndpoint.parse(text.isEmpty() ? defaultCriEndpoint() : text);
    if (endpoint.scheme() == CriEndpoint.Scheme.NPIPE && !HostOs.current().isWindows()) {
      throw new Setting.Invalid(
          List.of(
              CRI_ENDPOINT.flag() + "=" + text + ": named pipes exist only on Windows; on Linux give the runtime's"
                  + " socket, as " + DEFAULT_CRI_ENDPOINT_LINUX));
    }
    return endpoint;
  }

  /**
   * The stats call on this host's platform: on Linux the cgroup round already reads every pod's network and
   * processes, so {@code ListContainerStats} serves the same series for a fifth of the runtime's CPU
   * (docs/PERFORMANCE.md, "The whole bill"); on Windows only {@code ListPodSandboxStats} brings pod network.
   */
  static StatsCall defaultStatsCall() {
    return HostOs.current().isWindows() ? StatsCall.LIST_POD_SANDBOX_STATS : StatsCall.LIST_CONTAINER_STATS;
  }

  /** containerd's default endpoint on this host's platform. */
  static String defaultCriEndpoint() {
    return HostOs.current().isWindows() ? DEFAULT_CRI_ENDPOINT_WINDOWS : DEFAULT_CRI_ENDPOINT_LINUX;
  }

  private static String logLevel(String text) {
    String level = text.toLowerCase(Locale.ROOT);
    if (!List.of("debug", "info", "warn", "error").contains(level)) {
      throw new IllegalArgumentException("'" + text + "' is not one of debug, info, warn, error");
    }
    return level;
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
