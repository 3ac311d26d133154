package io.winstats.exporter;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.StatsCall;
import io.winstats.exporter.http.HttpLimits;
import io.winstats.exporter.http.ListenAddress;
import io.winstats.exporter.http.ServerSettings;
import io.winstats.exporter.http.WebConfig;
import io.winstats.perfcounters.WorkingSetDefinition;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** The command line, with flag names as Prometheus exporters spell them. */
@Command(
    name = "winstats-exporter",
    mixinStandardHelpOptions = true,
    versionProvider = BuildInfo.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Node, pod and container metrics for Kubernetes nodes: the kubelet Summary API (/stats/summary),",
      "cAdvisor-compatible Prometheus series (/metrics) and kubelet resource metrics (/metrics/resource)."
    })
public final class ExporterCommand implements Callable<Integer> {

  /** Default port: clear of kubelet (10250, 10255), kube-proxy (10256), windows_exporter (9182), node_exporter (9100), cAdvisor (8080). */
  public static final int DEFAULT_PORT = 9844;

  static final String DEFAULT_CRI_ENDPOINT_LINUX = "unix:///run/containerd/containerd.sock";
  static final String DEFAULT_CRI_ENDPOINT_WINDOWS = "npipe:////./pipe/containerd-containerd";

  @Spec @Nullable CommandSpec spec;

  @Option(
      names = "--web.listen-address",
      paramLabel = "HOST:PORT",
      description = "Address to serve on; ':PORT' is every interface. Default: ${DEFAULT-VALUE}.",
      defaultValue = ":" + DEFAULT_PORT)
  String listenAddress = ":" + DEFAULT_PORT;

  @Option(
      names = "--web.config.file",
      paramLabel = "FILE",
      description = "exporter-toolkit web configuration (YAML, as node_exporter and windows_exporter read it): TLS,"
          + " client certificates, bcrypt basic auth, response headers, rate limit. /healthz stays open.")
  @Nullable Path webConfigFile;

  @Option(
      names = "--web.auth.bearer-token-file",
      paramLabel = "FILE",
      description = "File holding a bearer token (Authorization: Bearer TOKEN) that grants access to every path but"
          + " /healthz; re-read when it changes. Alone or beside basic auth.")
  @Nullable Path bearerTokenFile;

  @Option(
      names = "--web.max-header-bytes",
      paramLabel = "SIZE",
      description = "Largest request line plus headers (16384, 16KiB, 1MiB). Default: ${DEFAULT-VALUE}.",
      defaultValue = "16KiB")
  String maxHeaderBytes = "16KiB";

  @Option(
      names = "--web.max-body-bytes",
      paramLabel = "SIZE",
      description = "Largest request body (POST /stats/summary); larger gets 413. Default: ${DEFAULT-VALUE}.",
      defaultValue = "64KiB")
  String maxBodyBytes = "64KiB";

  @Option(
      names = "--web.request-timeout",
      paramLabel = "DURATION",
      description = "Time a client has to send a request's headers once it started. Default: ${DEFAULT-VALUE}.",
      defaultValue = "10s")
  String requestTimeout = "10s";

  @Option(
      names = "--web.idle-timeout",
      paramLabel = "DURATION",
      description = "Time a connection may stay open with no request (also bounds a TLS handshake). Default:"
          + " ${DEFAULT-VALUE}.",
      defaultValue = "60s")
  String idleTimeout = "60s";

  @Option(
      names = "--web.max-connections",
      paramLabel = "N",
      description = "Open connections at once; further ones wait in the listen backlog until one closes. Default:"
          + " ${DEFAULT-VALUE}.",
      defaultValue = "256")
  String maxConnections = "256";

  @Option(
      names = "--cri.endpoint",
      paramLabel = "URI",
      description = "Container runtime CRI endpoint: unix:///path, tcp://HOST:PORT or npipe:////./pipe/NAME. "
          + "Default: ${DEFAULT-VALUE}.",
      defaultValue = "${sys:winstats.defaultCriEndpoint}")
  @Nullable String criEndpoint;

  @Option(
      names = "--cri.timeout",
      paramLabel = "DURATION",
      description = "Deadline of every CRI call. Default: ${DEFAULT-VALUE}.",
      defaultValue = "5s")
  String criTimeout = "5s";

  @Option(
      names = "--cri.stats-call",
      paramLabel = "RPC",
      description = "The CRI call each round reads pods with: ListPodSandboxStats (pod cgroup figures, pod network and"
          + " process counts) or ListContainerStats (pod CPU and memory summed over its containers, no pod network or"
          + " process counts; far less runtime CPU on containerd before 2.0, which runs runc ps per container for the"
          + " other call). Default: ${DEFAULT-VALUE}.",
      defaultValue = "ListPodSandboxStats")
  String criStatsCall = "ListPodSandboxStats";

  @Option(
      names = "--sampling.interval",
      paramLabel = "DURATION",
      description = "How often node counters and the runtime are sampled (at least 1s). Default: ${DEFAULT-VALUE}.",
      defaultValue = "10s")
  String samplingInterval = "10s";

  @Option(
      names = "--node.source",
      paramLabel = "SOURCE",
      description = "Node counter source: auto (pdh on Windows, procfs on Linux), procfs, "
          + "procfs:PROC[,rootfs=DIR] (in a container: the host's proc tree, and the host root for filesystems), pdh, "
          + "or replay:FILE[,speed=N|max][,bias=MINUTES][,time=replay|recorded] for a typeperf/relog CSV. "
          + "Default: ${DEFAULT-VALUE}.",
      defaultValue = "auto")
  String nodeSource = "auto";

  @Option(
      names = "--node.memory.working-set",
      paramLabel = "DEFINITION",
      description = "The Windows node working set (pdh source): kubelet, the sum of private working sets"
          + " (\\Process(_Total)\\Working Set - Private) as the kubelet reports it, which reads low; or physical,"
          + " total physical memory - \\Memory\\Available Bytes, as Task Manager and windows_exporter show it."
          + " Default: ${DEFAULT-VALUE}.",
      defaultValue = "kubelet")
  String nodeMemoryWorkingSet = "kubelet";

  @Option(
      names = "--node.kubelet-root-dir",
      paramLabel = "DIR",
      description = "The kubelet's --root-dir (pdh source): the Summary's node filesystem, and the capacity of container"
          + " logs and pod ephemeral storage, are read live from its volume (GetDiskFreeSpaceExW), as the kubelet"
          + " reads them. Default: ${DEFAULT-VALUE}.",
      defaultValue = "C:\\var\\lib\\kubelet")
  String nodeKubeletRootDir = "C:\\var\\lib\\kubelet";

  @Option(
      names = "--node.name",
      paramLabel = "NAME",
      description = "Node name in the Summary API. Default: $NODE_NAME, else the host name.")
  @Nullable String nodeName;

  @Option(
      names = "--record",
      paramLabel = "FILE",
      description = "Also record every node sample to FILE as a PDH-CSV counter log that --node.source=replay:FILE replays.")
  @Nullable Path recordFile;

  @Option(
      names = "--config.file",
      paramLabel = "FILE",
      description = "YAML file with any of these settings (web.listen-address: ..., nested or dotted) and "
          + "perfcounters: custom PDH counters. Flags given here override it.")
  @Nullable Path configFile;

  @Option(
      names = "--print-config",
      description = "Print the effective configuration as YAML and exit.")
  boolean printConfig;

  @Option(
      names = "--log.level",
      paramLabel = "LEVEL",
      description = "debug, info, warn or error. Default: ${DEFAULT-VALUE}.",
      defaultValue = "info")
  String logLevel = "info";

  private final DaemonLauncher launcher;

  /** What runs the daemon once the flags are valid; a seam for tests of the command line alone. */
  @FunctionalInterface
  public interface DaemonLauncher {
    int run(ExporterConfig config) throws Exception;
  }

  public ExporterCommand(DaemonLauncher launcher) {
    this.launcher = launcher;
  }

  @Override
  public Integer call() throws Exception {
    ExporterConfig config = toConfig();
    if (printConfig) {
      CommandLine cli = spec == null ? new CommandLine(this) : spec.commandLine();
      cli.getOut().print(ConfigFile.toYaml(config));
      cli.getOut().flush();
      return 0;
    }
    return launcher.run(config);
  }

  /** Validates every flag and the config file, collecting all problems into one usage error. */
  ExporterConfig toConfig() {
    List<String> problems = new ArrayList<>();
    ConfigFile file = configFile == null ? ConfigFile.empty() : ConfigFile.read(configFile, problems);
    String listenAddress = setting(file, "web.listen-address", this.listenAddress);
    String criEndpoint = setting(file, "cri.endpoint", this.criEndpoint);
    String criTimeout = setting(file, "cri.timeout", this.criTimeout);
    String criStatsCall = setting(file, "cri.stats-call", this.criStatsCall);
    String samplingInterval = setting(file, "sampling.interval", this.samplingInterval);
    String nodeSource = setting(file, "node.source", this.nodeSource);
    String nodeName = setting(file, "node.name", this.nodeName);
    String nodeMemoryWorkingSet = setting(file, "node.memory.working-set", this.nodeMemoryWorkingSet);
    String nodeKubeletRootDir = setting(file, "node.kubelet-root-dir", this.nodeKubeletRootDir);
    Path kubeletRootDir = null;
    try {
      kubeletRootDir = Path.of(nodeKubeletRootDir);
    } catch (InvalidPathException e) {
      problems.add("--node.kubelet-root-dir: " + e.getMessage());
    }
    String recordFile = setting(file, "record", this.recordFile == null ? null : this.recordFile.toString());
    String logLevel = setting(file, "log.level", this.logLevel);
    String webConfigFile = setting(file, "web.config.file", pathText(this.webConfigFile));
    String bearerTokenFile = setting(file, "web.auth.bearer-token-file", pathText(this.bearerTokenFile));
    String maxHeaderBytes = setting(file, "web.max-header-bytes", this.maxHeaderBytes);
    String maxBodyBytes = setting(file, "web.max-body-bytes", this.maxBodyBytes);
    String requestTimeout = setting(file, "web.request-timeout", this.requestTimeout);
    String idleTimeout = setting(file, "web.idle-timeout", this.idleTimeout);
    String maxConnections = setting(file, "web.max-connections", this.maxConnections);
    ListenAddress address = null;
    try {
      address = ListenAddress.parse(listenAddress);
    } catch (IllegalArgumentException e) {
      problems.add("--web.listen-address: " + e.getMessage());
    }
    String endpoint = criEndpoint == null || criEndpoint.isEmpty() ? defaultCriEndpoint() : criEndpoint;
    try {
      CriEndpoint.parse(endpoint);
    } catch (IllegalArgumentException e) {
      problems.add("--cri.endpoint: " + e.getMessage());
    }
    Duration timeout = duration("--cri.timeout", criTimeout, Duration.ofMillis(100), problems);
    StatsCall statsCall = StatsCall.LIST_POD_SANDBOX_STATS;
    try {
      statsCall = StatsCall.parse(criStatsCall);
    } catch (IllegalArgumentException e) {
      problems.add("--cri.stats-call: " + e.getMessage());
    }
    Duration interval = duration("--sampling.interval", samplingInterval, Duration.ofSeconds(1), problems);
    String level = logLevel.toLowerCase(Locale.ROOT);
    if (!List.of("debug", "info", "warn", "error").contains(level)) {
      problems.add("--log.level: '" + logLevel + "' is not one of debug, info, warn, error");
    }
    if (!nodeSource.equals("auto")
        && !nodeSource.equals("procfs")
        && !nodeSource.startsWith("procfs:")
        && !nodeSource.equals("pdh")
        && !nodeSource.startsWith("replay:")) {
      problems.add("--node.source: '" + nodeSource + "' is not one of auto, procfs, pdh, replay:FILE");
    }
    boolean pdh = nodeSource.equals("pdh") || (nodeSource.equals("auto") && defaultCriEndpoint().startsWith("npipe:"));
    WorkingSetDefinition workingSet = WorkingSetDefinition.KUBELET;
    try {
      workingSet = WorkingSetDefinition.parse(nodeMemoryWorkingSet);
    } catch (IllegalArgumentException e) {
      problems.add("--node.memory.working-set: " + e.getMessage());
    }
    if (workingSet != WorkingSetDefinition.KUBELET && !pdh) {
      problems.add(
          "--node.memory.working-set: " + workingSet.flagValue() + " needs the pdh node source (Windows);"
              + " --node.source is " + nodeSource);
    }
    if (!file.customCounters().isEmpty() && !pdh) {
      problems.add(
          "perfcounters: custom performance counters need the pdh node source (Windows); --node.source is "
              + nodeSource);
    }
    ServerSettings server =
        serverSettings(
            webConfigFile, bearerTokenFile, maxHeaderBytes, maxBodyBytes, requestTimeout, idleTimeout, maxConnections,
            problems);
    if (!problems.isEmpty()) {
      throw new ParameterException(
          spec == null ? new CommandLine(this) : spec.commandLine(), String.join(System.lineSeparator(), problems));
    }
    return new ExporterConfig(
        address,
        endpoint,
        timeout,
        statsCall,
        interval,
        nodeSource,
        workingSet,
        kubeletRootDir,
        resolveNodeName(nodeName, System.getenv("NODE_NAME"), ExporterCommand::localHostName),
        level,
        recordFile == null ? null : Path.of(recordFile),
        file.customCounters(),
        server);
  }

  private static @Nullable ServerSettings serverSettings(
      @Nullable String webConfigFile,
      @Nullable String bearerTokenFile,
      String maxHeaderBytes,
      String maxBodyBytes,
      String requestTimeout,
      String idleTimeout,
      String maxConnections,
      List<String> problems) {
    int before = problems.size();
    long headerBytes = size("--web.max-header-bytes", maxHeaderBytes, 1024, Integer.MAX_VALUE, problems);
    long bodyBytes = size("--web.max-body-bytes", maxBodyBytes, 0, Long.MAX_VALUE, problems);
    Duration request = duration("--web.request-timeout", requestTimeout, Duration.ofMillis(100), problems);
    Duration idle = duration("--web.idle-timeout", idleTimeout, Duration.ofMillis(100), problems);
    int connections = 0;
    try {
      connections = Integer.parseInt(maxConnections.strip());
      if (connections < 1) {
        problems.add("--web.max-connections: must be at least 1, not " + connections);
      }
    } catch (NumberFormatException e) {
      problems.add("--web.max-connections: '" + maxConnections + "' is not a whole number");
    }
    WebConfig web = null;
    if (webConfigFile != null && !webConfigFile.isEmpty()) {
      web = WebConfig.read(Path.of(webConfigFile), problems);
    }
    Path bearer = null;
    if (bearerTokenFile != null && !bearerTokenFile.isEmpty()) {
      try {
        ServerSettings.checkBearerTokenFile(Path.of(bearerTokenFile));
        bearer = Path.of(bearerTokenFile);
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
    }
    if (problems.size() > before) {
      return null;
    }
    return new ServerSettings(new HttpLimits((int) headerBytes, bodyBytes, request, idle, connections), web, bearer);
  }

  private static long size(String flag, String text, long minimum, long maximum, List<String> problems) {
    try {
      long n = ByteSizeFlag.parse(text);
      if (n < minimum || n > maximum) {
        problems.add(flag + ": " + text + " is outside " + ByteSizeFlag.format(minimum) + " to " + ByteSizeFlag.format(maximum));
      }
      return n;
    } catch (IllegalArgumentException e) {
      problems.add(flag + ": " + e.getMessage());
      return 0;
    }
  }

  private static @Nullable String pathText(@Nullable Path path) {
    return path == null ? null : path.toString();
  }

  /** A flag given on the command line wins over the config file, which wins over the flag's default. */
  private @Nullable String setting(ConfigFile file, String key, @Nullable String flagValue) {
    boolean given = spec != null && spec.commandLine().getParseResult() != null
        && spec.commandLine().getParseResult().hasMatchedOption("--" + key);
    String fromFile = file.value(key);
    return given || fromFile == null ? flagValue : fromFile;
  }

  private static @Nullable Duration duration(String flag, String text, Duration minimum, List<String> problems) {
    try {
      Duration d = DurationFlag.parse(text);
      if (d.compareTo(minimum) < 0) {
        problems.add(flag + ": " + text + " is shorter than the minimum " + DurationFlag.format(minimum));
      }
      return d;
    } catch (IllegalArgumentException e) {
      problems.add(flag + ": " + e.getMessage());
      return null;
    }
  }

  static String defaultCriEndpoint() {
    return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")
        ? DEFAULT_CRI_ENDPOINT_WINDOWS
        : DEFAULT_CRI_ENDPOINT_LINUX;
  }

  /**
   * The flag, else {@code NODE_NAME}, else the host name trimmed and lower-cased as the kubelet's node name is
   * (kubernetes {@code pkg/util/node.GetHostname}); Windows host names are upper case.
   */
  static String resolveNodeName(@Nullable String nodeName, @Nullable String fromEnv, Supplier<String> hostName) {
    if (nodeName != null && !nodeName.isBlank()) {
      return nodeName;
    }
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv;
    }
    return hostName.get().trim().toLowerCase(Locale.ROOT);
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  /** A command line that prints problems and usage to stderr and exits 2 on bad input, as exporters do. */
  public static CommandLine commandLine(DaemonLauncher launcher) {
    System.setProperty("winstats.defaultCriEndpoint", defaultCriEndpoint());
    CommandLine cli = new CommandLine(new ExporterCommand(launcher));
    cli.setParameterExceptionHandler(
        (problem, args) -> {
          CommandLine failed = problem.getCommandLine();
          PrintWriter err = failed.getErr();
          err.println("winstats-exporter: " + problem.getMessage());
          CommandLine.UnmatchedArgumentException.printSuggestions(problem, err);
          failed.usage(err);
          return CommandLine.ExitCode.USAGE;
        });
    return cli;
  }
}
