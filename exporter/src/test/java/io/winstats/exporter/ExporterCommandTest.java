package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.StatsCall;
import io.winstats.exporter.http.HttpLimits;
import io.winstats.exporter.http.ListenAddress;
import io.winstats.exporter.http.ServerSettings;
import io.winstats.exporter.metrics.Collector;
import io.winstats.exporter.metrics.EnabledCollectors;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.sources.NodeSourceSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ExporterCommandTest {
  private final AtomicReference<ExporterConfig> launched = new AtomicReference<>();
  private final StringWriter err = new StringWriter();
  private final StringWriter out = new StringWriter();

  private int run(String... args) {
    CommandLine cli =
        ExporterCommand.commandLine(
            config -> {
              launched.set(config);
              return 0;
            });
    cli.setErr(new PrintWriter(err, true));
    cli.setOut(new PrintWriter(out, true));
    return cli.execute(args);
  }

  /** The start line names where pod figures come from; on a Windows node the CRI call is only the fallback. */
  @Test
  void theStartLineNamesTheWindowsStatsSourceOnWindowsNodesOnly() {
    assertThat(run("--cri.stats-call=ListPodSandboxStats")).isZero();
    ExporterConfig c = launched.get();
    assertThat(Daemon.podStatsFields(c, NodePlatform.WINDOWS))
        .isEqualTo("windows_stats=tasks cri_stats_call=ListPodSandboxStats");
    assertThat(Daemon.podStatsFields(c, NodePlatform.LINUX)).isEqualTo("cri_stats_call=ListPodSandboxStats");
    assertThat(run("--cri.windows-stats=cri")).isZero();
    assertThat(Daemon.podStatsFields(launched.get(), NodePlatform.WINDOWS)).startsWith("windows_stats=cri ");
  }

  @Test
  void defaultsAreExporterConventions() {
    assertThat(run()).isZero();
    ExporterConfig c = launched.get();
    assertThat(c.settings().value(WebSettings.LISTEN_ADDRESS)).isEqualTo(new ListenAddress("", 9844));
    assertThat(c.settings().value(CriSettings.ENDPOINT).uri())
        .isEqualTo(HostOs.current().isWindows() ? "npipe:////./pipe/containerd-containerd" : "unix:///run/containerd/containerd.sock");
    assertThat(c.settings().value(SamplingSettings.INTERVAL)).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.settings().value(NodeSettings.SOURCE))
        .as("auto, resolved by the host")
        .isEqualTo(HostOs.current().isWindows() ? new NodeSourceSpec.Pdh() : new NodeSourceSpec.Procfs(Path.of("/proc"), null));
    assertThat(c.settings().value(LogSettings.LEVEL)).isEqualTo("info");
    assertThat(c.settings().optional(NodeSettings.RECORD)).isNull();
    assertThat(c.settings().value(CriSettings.STATS_CALL))
        .as("Linux reads pod network and processes from cgroups; Windows only through ListPodSandboxStats")
        .isEqualTo(HostOs.current().isWindows() ? StatsCall.LIST_POD_SANDBOX_STATS : StatsCall.LIST_CONTAINER_STATS);
    assertThat(c.collectors()).as("every collector on").isEqualTo(EnabledCollectors.ALL);
  }

  /** node_exporter's form: --no-collector.X turns one off, --collector.X (or the file) turns it back on. */
  @Test
  void collectorsAreTurnedOffByTheirNegativeFlagOrTheFile(@TempDir Path dir) throws IOException {
    assertThat(run("--no-collector.cri", "--no-collector.container")).isZero();
    assertThat(launched.get().collectors()).isEqualTo(EnabledCollectors.allBut(Collector.CRI, Collector.CONTAINER));

    Path file = Files.writeString(dir.resolve("c.yml"), "collector:\n  node: false\n  cgroup: false\n");
    assertThat(run("--config.file=" + file, "--collector.node")).isZero();
    assertThat(launched.get().collectors()).as("the flag wins over the file").isEqualTo(EnabledCollectors.allBut(Collector.CGROUP));
    assertThat(run("--config.file=" + file, "--print-config")).isZero();
    assertThat(out.toString())
        .contains("collector.cri: true")
        .contains("collector.cgroup: false")
        .contains("collector.node: false")
        .contains("collector.container: true");

    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("--[no-]collector.cri");
  }

  @Test
  void flagsAreApplied() {
    assertThat(
            run(
                "--web.listen-address=127.0.0.1:19000",
                "--cri.endpoint=unix:///tmp/c.sock",
                "--sampling.interval=1m30s",
                "--cri.timeout=750ms",
                "--cri.stats-call=listpodsandboxstats",
                "--log.level=DEBUG",
                "--node.name=n1"))
        .isZero();
    ExporterConfig c = launched.get();
    assertThat(c.settings().value(WebSettings.LISTEN_ADDRESS)).isEqualTo(new ListenAddress("127.0.0.1", 19000));
    assertThat(c.settings().value(CriSettings.ENDPOINT))
        .isEqualTo(new CriEndpoint(CriEndpoint.Scheme.UNIX, "/tmp/c.sock", 0));
    assertThat(c.settings().value(SamplingSettings.INTERVAL)).isEqualTo(Duration.ofSeconds(90));
    assertThat(c.settings().value(CriSettings.TIMEOUT)).isEqualTo(Duration.ofMillis(750));
    assertThat(c.settings().value(CriSettings.STATS_CALL)).isEqualTo(StatsCall.LIST_POD_SANDBOX_STATS);
    assertThat(c.settings().value(LogSettings.LEVEL)).isEqualTo("debug");
    assertThat(c.nodeName()).isEqualTo("n1");
  }

  @Test
  void anUnknownFlagExitsTwoWithUsage() {
    assertThat(run("--web.listen-adress=:1")).isEqualTo(2);
    assertThat(err.toString()).contains("Unknown option: '--web.listen-adress=:1'").contains("Usage: winstats-exporter");
    assertThat(launched.get()).isNull();
  }

  @Test
  void everyBadValueIsReportedAtOnce() {
    assertThat(
            run(
                "--web.listen-address=localhost",
                "--sampling.interval=10 seconds",
                "--cri.endpoint=http://x",
                "--log.level=loud",
                "--cri.stats-call=ListPods",
                "--node.source=wmi"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("--web.listen-address: expected HOST:PORT")
        .contains("--sampling.interval: '10 seconds' is not a duration")
        .contains("--cri.endpoint:")
        .contains("--log.level: 'loud'")
        .contains("--cri.stats-call: 'ListPods' is not one of ListPodSandboxStats, ListContainerStats")
        .contains("--node.source: 'wmi'")
        .contains(ExporterCommand.SEE_HELP)
        .doesNotContain("Usage:");
    assertThat(launched.get()).isNull();
  }

  @Test
  void anIntervalBelowOneSecondIsRefused() {
    assertThat(run("--sampling.interval=100ms")).isEqualTo(2);
    assertThat(err.toString()).contains("shorter than the minimum 1s");
  }

  /**
   * --help at the width of a pipe (80): every flag named whole on its line (the full synopsis wrapped in the middle of
   * names, "--web.\n disable-exporter-metrics"), and no "Default: ." for a setting whose default is empty.
   */
  @Test
  void helpNamesEveryFlagWholeAndNoEmptyDefault() {
    assertThat(run("--help")).isZero();
    String usage = out.toString();
    // --root-dir: the kubelet's flag, which --node.kubelet-root-dir's help names.
    Set<String> known = new HashSet<>(Set.of("--help", "--version", "--root-dir"));
    Settings.ALL.forEach(s -> known.add(s.flag()));
    Matcher flag = Pattern.compile("--(\\[no-])?[\\w.-]+").matcher(usage);
    int named = 0;
    while (flag.find()) {
      String name = flag.group().replace("[no-]", "").replaceAll("\\.+$", "");
      assertThat(known).as("flag %s in\n%s", flag.group(), usage).contains(name);
      named++;
    }
    assertThat(named).isGreaterThanOrEqualTo(Settings.ALL.size());
    assertThat(usage.lines()).allSatisfy(line -> assertThat(line).hasSizeLessThanOrEqualTo(80));
    assertThat(usage).contains("--metrics.exclude=REGEX", "Default: .*.").doesNotContainPattern("Default: \\.(\\s|$)");
  }

  /** Paths, URIs and setting names in --help stay whole on a line: picocli's table alone breaks them at '.' and ':'. */
  @Test
  void helpWrapsAtSpacesOnly() {
    assertThat(run("--help")).isZero();
    String usage = out.toString();
    Set<String> onALine = new HashSet<>();
    usage.lines().forEach(line -> onALine.addAll(List.of(line.trim().split("\\s+"))));
    List<String> broken = new ArrayList<>();
    for (Setting<?> setting : Settings.ALL) {
      for (String word : setting.help().split("\\s+")) {
        // a word longer than the description column (49 at 80) is cut before a bracket
        if (!onALine.contains(word) && word.length() <= 49) {
          broken.add(setting.flag() + ": " + word);
        }
      }
    }
    assertThat(broken).as("words of the help not whole on one line of\n%s", usage).isEmpty();
    assertThat(usage).contains("C:\\var\\lib\\kubelet", "tcp://HOST:PORT");
    String statsCall = usage.substring(usage.indexOf("--cri.stats-call"), usage.indexOf("--cri.windows-stats"));
    assertThat(statsCall.split("Default: ", -1)).as("one default statement, naming both platforms' defaults:\n%s",
        statsCall).hasSize(2);
    assertThat(usage.lines()).allSatisfy(line -> assertThat(line).hasSizeLessThanOrEqualTo(80));
  }

  @Test
  void helpAndVersionExitZero() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("--web.listen-address").contains("--cri.endpoint").contains("--sampling.interval");
    assertThat(run("--version")).isZero();
    assertThat(out.toString()).contains("winstats-exporter");
    assertThat(launched.get()).isNull();
  }

  @Test
  void theConfigFileSetsWhatNoFlagGives(@TempDir Path dir) throws IOException {
    Path file =
        Files.writeString(
            dir.resolve("winstats.yml"),
            """
            web:
              listen-address: 127.0.0.1:19001
            cri.endpoint: unix:///from/file.sock
            cri:
              stats-call: ListContainerStats
            sampling:
              interval: 30s
            log:
              level: warn
            """);
    assertThat(run("--config.file=" + file, "--sampling.interval=5s")).isZero();
    ExporterConfig c = launched.get();
    assertThat(c.settings().value(WebSettings.LISTEN_ADDRESS)).isEqualTo(new ListenAddress("127.0.0.1", 19001));
    assertThat(c.settings().value(CriSettings.ENDPOINT).uri()).isEqualTo("unix:///from/file.sock");
    assertThat(c.settings().value(SamplingSettings.INTERVAL))
        .as("the flag wins over the file")
        .isEqualTo(Duration.ofSeconds(5));
    assertThat(c.settings().value(LogSettings.LEVEL)).isEqualTo("warn");
    assertThat(c.settings().value(CriSettings.STATS_CALL)).isEqualTo(StatsCall.LIST_CONTAINER_STATS);
  }

  @Test
  void everyProblemInTheConfigFileIsListed(@TempDir Path dir) throws IOException {
    Path file =
        Files.writeString(
            dir.resolve("bad.yml"),
            """
            web:
              listen-adress: ":1"
            sampling.interval: soon
            perfcounters:
              - path: '\\Processor Information(*)\\% Processor Time'
                name: cpu_busy
                type: gauge
              - name: no_path
                type: sometimes
            """);
    assertThat(run("--config.file=" + file)).isEqualTo(2);
    assertThat(err.toString())
        .contains("unknown setting 'web.listen-adress'")
        .contains("--sampling.interval: 'soon' is not a duration")
        .contains("perfcounters[0]: a wildcard path needs an instance label")
        .contains("perfcounters[1]: type must be gauge or counter")
        .as("every problem is the file's: the last line points there, not to the flags")
        .endsWith("winstats-exporter: the fix is in " + file + " (--help lists every setting)" + System.lineSeparator())
        .doesNotContain("Usage:");
    assertThat(launched.get()).isNull();
  }

  @Test
  void aMissingOrUnreadableConfigFileIsSaidInWordsAndAFlagProblemPointsToHelp(@TempDir Path dir) throws IOException {
    Path missing = dir.resolve("missing.yaml");
    assertThat(run("--config.file=" + missing)).isEqualTo(2);
    assertThat(err.toString()).as(err.toString())
        .startsWith("winstats-exporter: " + missing + ": no such file" + System.lineSeparator())
        .contains("the fix is in " + missing)
        .doesNotContain("Exception");

    err.getBuffer().setLength(0);
    assertThat(run("--config.file=" + dir)).isEqualTo(2);
    assertThat(err.toString()).as(err.toString()).contains(dir + ": Is a directory").doesNotContain("Exception");

    err.getBuffer().setLength(0);
    Path twice = Files.writeString(dir.resolve("twice.yaml"), "log.level: warn\nlog.level: debug\n");
    assertThat(run("--config.file=" + twice)).as("a key given twice: which one wins would be a guess").isEqualTo(2);
    assertThat(err.toString()).as(err.toString()).contains(twice + ": not valid YAML: Duplicate field 'log.level'");

    err.getBuffer().setLength(0);
    Path fine = Files.writeString(dir.resolve("fine.yaml"), "log.level: warn\n");
    assertThat(run("--config.file=" + fine, "--log.level=loud")).isEqualTo(2);
    assertThat(err.toString()).as("a flag's problem points to --help").endsWith(ExporterCommand.SEE_HELP + System.lineSeparator());
  }

  @Test
  void customCountersNeedThePdhSource(@TempDir Path dir) throws IOException {
    Path file =
        Files.writeString(
            dir.resolve("pdh.yml"),
            """
            perfcounters:
              - path: '\\Memory\\Pool Paged Bytes'
                name: windows_custom_pool_paged_bytes
                type: gauge
            """);
    assertThat(run("--config.file=" + file, "--node.source=procfs")).isEqualTo(2);
    assertThat(err.toString()).contains("custom performance counters need the pdh node source");
    assertThat(run("--config.file=" + file, "--node.source=pdh")).isZero();
    assertThat(launched.get().customCounters()).singleElement()
        .satisfies(c -> assertThat(c.metricName()).isEqualTo("windows_custom_pool_paged_bytes"));
  }

  @Test
  void printConfigShowsTheEffectiveSettingsAndStartsNothing(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("c.yml"), "node.name: from-file\n");
    assertThat(run("--config.file=" + file, "--print-config", "--cri.timeout=2s")).isZero();
    assertThat(out.toString()).contains("node.name: \"from-file\"").contains("cri.timeout: \"2s\"");
    assertThat(launched.get()).isNull();
  }

  @Test
  void httpLimitsHaveDefaultsFlagsAndConfigFileKeys(@TempDir Path dir) throws IOException {
    assertThat(run()).isZero();
    assertThat(launched.get().server()).usingRecursiveComparison().ignoringFields("build")
        .isEqualTo(ServerSettings.DEFAULTS);
    assertThat(launched.get().server().build()).startsWith("version ");

    Path file =
        Files.writeString(
            dir.resolve("limits.yml"),
            """
            web:
              max-header-bytes: 32KiB
              max-body-bytes: 1MiB
              request-timeout: 5s
              idle-timeout: 2m
              max-connections: 64
            """);
    assertThat(run("--config.file=" + file, "--web.max-connections=8")).isZero();
    assertThat(launched.get().server().limits())
        .isEqualTo(new HttpLimits(32 * 1024, 1024 * 1024, Duration.ofSeconds(5), Duration.ofMinutes(2), 8));
    assertThat(run("--config.file=" + file, "--print-config")).isZero();
    assertThat(out.toString())
        .contains("web.max-header-bytes: \"32KiB\"")
        .contains("web.max-body-bytes: \"1MiB\"")
        .contains("web.idle-timeout: \"120s\"")
        .contains("web.max-connections: 64");
  }

  @Test
  void everyBadLimitIsReported() {
    assertThat(
            run(
                "--web.max-header-bytes=lots",
                "--web.max-body-bytes=-1",
                "--web.request-timeout=10ms",
                "--web.idle-timeout=forever",
                "--web.max-connections=0"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("--web.max-header-bytes: 'lots' is not a size")
        .contains("--web.max-body-bytes: '-1' is not a size")
        .contains("--web.request-timeout: 10ms is shorter than the minimum")
        .contains("--web.idle-timeout: 'forever' is not a duration")
        .contains("--web.max-connections: must be at least 1");
  }

  @Test
  void aBadWebConfigFileListsEveryProblemAndExitsTwo(@TempDir Path dir) throws IOException {
    Path web =
        Files.writeString(
            dir.resolve("web.yml"),
            """
            tls_server_config:
              cert_file: missing.crt
              key_file: missing.key
              client_auth_type: Sometimes
            basic_auth_users:
              alice: hunter2
            """);
    assertThat(run("--web.config.file=" + web, "--web.auth.bearer-token-file=" + dir.resolve("no-token"))).isEqualTo(2);
    assertThat(err.toString())
        .contains("client_auth_type: 'Sometimes'")
        .contains("basic_auth_users.alice: not a bcrypt hash")
        .contains("--web.auth.bearer-token-file: cannot read " + dir.resolve("no-token"))
        .contains(ExporterCommand.SEE_HELP)
        .doesNotContain("Usage:");
    assertThat(launched.get()).isNull();
  }

  @Test
  void theWebConfigAndTokenFileCanComeFromTheConfigFile(@TempDir Path dir) throws IOException {
    Path web = Files.writeString(dir.resolve("web.yml"), "basic_auth_users:\n  a: $2a$04$QZSPLYNCSlIOxYaleTfi7OjWu6SQxeWfsMJ9mIxpZh3G3OoEL0aTq\n");
    Path token = Files.writeString(dir.resolve("token"), "t0ken\n");
    Path file =
        Files.writeString(
            dir.resolve("c.yml"), "web:\n  config.file: " + web + "\n  auth:\n    bearer-token-file: " + token + "\n");
    assertThat(run("--config.file=" + file)).isZero();
    ServerSettings server = launched.get().server();
    assertThat(server.web().basicAuthUsers()).containsOnlyKeys("a");
    assertThat(server.bearerTokenFile()).isEqualTo(token);
  }

  @Test
  void byteSizeForms() {
    assertThat(ByteSizeFlag.parse("16384")).isEqualTo(16384);
    assertThat(ByteSizeFlag.parse("16KiB")).isEqualTo(16384);
    assertThat(ByteSizeFlag.parse("2MiB")).isEqualTo(2 << 20);
    assertThat(ByteSizeFlag.format(65536)).isEqualTo("64KiB");
    assertThat(ByteSizeFlag.format(1000)).isEqualTo("1000");
  }

  @Test
  void listenAddressForms() {
    assertThat(ListenAddress.parse(":9844")).isEqualTo(new ListenAddress("", 9844));
    assertThat(ListenAddress.parse("[::1]:80")).isEqualTo(new ListenAddress("::1", 80));
    assertThat(ListenAddress.parse("[::1]:80").toString()).isEqualTo("[::1]:80");
  }

  @Test
  void durationForms() {
    assertThat(DurationFlag.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(DurationFlag.parse("2h")).isEqualTo(Duration.ofHours(2));
    assertThat(DurationFlag.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
  }

  @Test
  void theHostNameFallbackIsLowerCasedAsTheKubeletDoes() {
    assertThat(ExporterCommand.resolveNodeName(null, null, () -> "WIN-NODE-01 ")).isEqualTo("win-node-01");
    assertThat(ExporterCommand.resolveNodeName(null, "Node-From-Env", () -> "IGNORED")).isEqualTo("Node-From-Env");
    assertThat(ExporterCommand.resolveNodeName("Flag-Node", null, () -> "IGNORED")).isEqualTo("Flag-Node");
  }

  @Test
  void nodeWorkingSetDefaultsToKubeletTakesPhysicalForPdhAndRefusesTheRest(@TempDir Path dir) throws IOException {
    assertThat(run()).isZero();
    assertThat(launched.get().settings().value(NodeSettings.MEMORY_WORKING_SET))
        .isEqualTo(WorkingSetDefinition.KUBELET);

    Path file = Files.writeString(dir.resolve("ws.yml"), "node:\n  source: pdh\n  memory:\n    working-set: physical\n");
    assertThat(run("--config.file=" + file)).isZero();
    assertThat(launched.get().settings().value(NodeSettings.MEMORY_WORKING_SET))
        .isEqualTo(WorkingSetDefinition.PHYSICAL);
    assertThat(run("--config.file=" + file, "--print-config")).isZero();
    assertThat(out.toString()).contains("node.memory.working-set: \"physical\"");

    launched.set(null);
    assertThat(run("--node.memory.working-set=task-manager")).isEqualTo(2);
    assertThat(err.toString()).contains("--node.memory.working-set: 'task-manager' is not one of kubelet, physical");
    assertThat(run("--node.source=procfs", "--node.memory.working-set=physical")).isEqualTo(2);
    assertThat(err.toString()).contains("physical needs the pdh node source");
    assertThat(launched.get()).isNull();
  }

  @Test
  void kubeletRootDirDefaultsToTheKubeletsWindowsRootAndIsPrinted() {
    assertThat(run()).isZero();
    assertThat(launched.get().settings().value(NodeSettings.KUBELET_ROOT_DIR).toString())
        .isEqualTo("C:\\var\\lib\\kubelet");
    assertThat(run("--node.kubelet-root-dir=/var/lib/kubelet", "--print-config")).isZero();
    assertThat(out.toString()).contains("node.kubelet-root-dir: \"/var/lib/kubelet\"");
  }
}
