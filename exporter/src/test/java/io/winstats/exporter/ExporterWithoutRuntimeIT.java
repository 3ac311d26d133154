package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.logging.LogfmtLines;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.PrometheusText;
import io.winstats.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The real jar with no container runtime at all, and with bad flags. Needs no containerd. */
class ExporterWithoutRuntimeIT {

  @Test
  void servesNodeFiguresAndReportsTheMissingRuntimeOnce(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    String endpoint = "unix://" + dir.resolve("no-such.sock");
    try (DaemonProcess daemon =
        DaemonProcess.start(dir.resolve("daemon.log"), "--cri.endpoint=" + endpoint, "--sampling.interval=1s")) {
      Deadline.await("/healthz 200\n" + daemon.log(), Duration.ofSeconds(30), () -> daemon.get("/healthz").status() == 200);
      Deadline.await(
          "container_scrape_error 1",
          Duration.ofSeconds(30),
          () -> daemon.get("/metrics").body().contains("container_scrape_error 1.0"));
      // Several failed rounds later, still exactly one warning about the runtime.
      Deadline.await(
          "three failed cri rounds",
          Duration.ofSeconds(30),
          () -> daemon.get("/metrics").body().contains("winstats_exporter_collector_errors_total{collector=\"cri\",reason=\"endpoint_missing\"} 3.0"));
      List<PrometheusText> metrics = PrometheusText.parse(daemon.get("/metrics").body());
      assertThat(PrometheusText.select(metrics, "machine_cpu_cores").get(0).value()).isPositive();
      assertThat(PrometheusText.select(metrics, "container_cpu_usage_seconds_total", "id", "/").get(0).value()).isPositive();
      assertThat(PrometheusText.select(metrics, "winstats_exporter_collector_success", "collector", "cri").get(0).value()).isZero();
      // client_java's process collector: the names exporter dashboards and alerts use.
      for (String name : List.of("process_cpu_seconds_total", "process_start_time_seconds", "process_open_fds",
          "process_max_fds", "process_resident_memory_bytes", "process_virtual_memory_bytes")) {
        assertThat(PrometheusText.select(metrics, name)).as(name).singleElement()
            .satisfies(s -> assertThat(s.value()).as(name).isPositive());
      }
      assertThat(daemon.get("/stats/summary").body()).contains("\"pods\":[]");
      String log = daemon.log();
      List<String> warnings = log.lines().filter(l -> l.contains("level=WARN") || l.contains("level=ERROR")).toList();
      assertThat(warnings).as(log).hasSize(1);
      assertThat(warnings.get(0)).contains("collector=cri").contains(endpoint).contains("node stats are served");
      assertThat(log).doesNotContain("\tat ");
      LogfmtLines.assertEveryLineParses(log);
      java.util.Map<String, String> started = log.lines().filter(l -> l.contains("event=started"))
          .map(LogfmtLines::parse).findFirst().orElseThrow();
      assertThat(started).containsKeys("version", "revision", "build_date", "scheme", "max_connections")
          .doesNotContainKey("msg");
      assertThat(PrometheusText.select(metrics, "winstats_exporter_build_info").get(0).labels())
          .containsEntry("revision", started.get("revision")).containsEntry("build_date", started.get("build_date"));
    }
  }

  /**
   * Every line the daemon writes at debug level, with its runtime missing and one request per endpoint, is logfmt a
   * strict reader parses, or with --log.format=json one JSON object.
   */
  @Test
  void everyLogLineParsesInBothFormats(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    for (String format : List.of("logfmt", "json")) {
      String endpoint = "unix://" + dir.resolve("no-such.sock");
      try (DaemonProcess daemon = DaemonProcess.start(dir.resolve(format + ".log"), "--cri.endpoint=" + endpoint,
          "--sampling.interval=1s", "--log.level=debug", "--log.format=" + format)) {
        Deadline.await("/healthz 200\n" + daemon.log(), Duration.ofSeconds(30), () -> daemon.get("/healthz").status() == 200);
        for (String path : List.of("/", "/metrics", "/stats/summary", "/metrics/resource", "/metrics/cadvisor", "/nope")) {
          daemon.get(path);
        }
        Deadline.await("two failed cri rounds", Duration.ofSeconds(30),
            () -> daemon.log().lines().filter(l -> l.contains("cri")).count() >= 2);
        String log = daemon.log();
        if (format.equals("logfmt")) {
          LogfmtLines.assertEveryLineParses(log);
          assertThat(log).contains(" level=DEBUG ");
        } else {
          com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
          assertThat(log.lines().filter(l -> !l.isBlank())).isNotEmpty().allSatisfy(l ->
              assertThat(json.readTree(l).path("level").asText()).as(l).isIn("DEBUG", "INFO", "WARN", "ERROR"));
        }
      }
    }
  }

  /**
   * promtool lints the live scrape. The only findings allowed are node_exporter's own mixed-case memory names
   * ({@code node_memory_MemTotal_bytes}), which the daemon copies verbatim so that node_exporter dashboards work.
   */
  @Test
  @Requires(tools = "promtool")
  void promtoolAcceptsTheLiveScrape(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    try (DaemonProcess daemon =
        DaemonProcess.start(dir.resolve("daemon.log"), "--cri.endpoint=unix://" + dir.resolve("none.sock"), "--sampling.interval=1s")) {
      Deadline.await("/healthz 200", Duration.ofSeconds(30), () -> daemon.get("/healthz").status() == 200);
      for (String path : List.of("/metrics", "/metrics/resource")) {
        Path scrape = dir.resolve(path.replace('/', '_') + ".prom");
        Files.writeString(scrape, daemon.get(path).body());
        Process promtool =
            new ProcessBuilder("promtool", "check", "metrics").redirectInput(scrape.toFile()).redirectErrorStream(true).start();
        String findings = new String(promtool.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        promtool.waitFor();
        List<String> unexpected =
            findings.lines().filter(l -> !l.matches("node_memory_[A-Za-z_]+_bytes metric names should be written in 'snake_case' not 'camelCase'")).toList();
        assertThat(unexpected).as(path + ":\n" + findings).isEmpty();
      }
    }
  }

  @Test
  void anUnknownFlagExitsTwoWithUsage() throws Exception {
    DaemonProcess.Result r = DaemonProcess.run(Duration.ofSeconds(30), "--no-such-flag");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.output()).contains("Unknown option: '--no-such-flag'").contains("Usage: winstats-exporter");
  }

  @Test
  void aBadValueExitsTwo() throws Exception {
    DaemonProcess.Result r = DaemonProcess.run(Duration.ofSeconds(30), "--sampling.interval=often");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.output()).contains("--sampling.interval: 'often' is not a duration");
  }

  @Test
  void aMissingReplayFileExitsTwoBeforeServing() throws Exception {
    DaemonProcess.Result r =
        DaemonProcess.run(Duration.ofSeconds(30), "--node.source=replay:/nonexistent/log.csv", "--web.listen-address=127.0.0.1:0");
    assertThat(r.exitCode()).as(r.output()).isEqualTo(2);
    assertThat(r.output()).contains("/nonexistent/log.csv");
  }

  /** The node_exporter switches: another path for /metrics, and no process_* or jvm_* series with the flag. */
  @Test
  void theTelemetryPathAndTheExporterMetricsSwitch(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    try (DaemonProcess daemon = DaemonProcess.start(dir.resolve("daemon.log"),
        "--cri.endpoint=unix://" + dir.resolve("no-such.sock"), "--web.telemetry-path=/prom",
        "--web.disable-exporter-metrics")) {
      Deadline.await("/healthz 200\n" + daemon.log(), Duration.ofSeconds(30), () -> daemon.get("/healthz").status() == 200);
      assertThat(daemon.get("/metrics").status()).isEqualTo(404);
      DaemonProcess.Response prom = daemon.get("/prom");
      assertThat(prom.status()).isEqualTo(200);
      List<PrometheusText> metrics = PrometheusText.parse(prom.body());
      assertThat(metrics).extracting(PrometheusText::name)
          .contains("machine_cpu_cores", "winstats_exporter_build_info", "winstats_exporter_collector_success")
          .noneMatch(n -> n.startsWith("process_") || n.startsWith("jvm_"));
      assertThat(daemon.get("/").body()).contains("/prom");
    }
  }

  /** Family filters shape the Prometheus endpoint only: the kubelet's /metrics/cadvisor keeps every family. */
  @Test
  void familyFiltersLeaveOutWhatTheyMatch(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    try (DaemonProcess daemon = DaemonProcess.start(dir.resolve("daemon.log"),
        "--cri.endpoint=unix://" + dir.resolve("no-such.sock"), "--metrics.exclude=container_network_.*|jvm_.*")) {
      Deadline.await("/healthz 200\n" + daemon.log(), Duration.ofSeconds(30), () -> daemon.get("/healthz").status() == 200);
      List<String> served = PrometheusText.parse(daemon.get("/metrics").body()).stream().map(PrometheusText::name).toList();
      assertThat(served).contains("container_cpu_usage_seconds_total", "process_cpu_seconds_total")
          .noneMatch(n -> n.startsWith("container_network_") || n.startsWith("jvm_"));
      assertThat(PrometheusText.parse(daemon.get("/metrics/cadvisor").body()))
          .extracting(PrometheusText::name).anyMatch(n -> n.startsWith("container_network_"));
    }
  }

  /**
   * node_exporter's collector switches, end to end: without the CRI collector no CRI call is made (no WARN about the
   * missing socket, no collector="cri" health series), the endpoints serve the node alone with no scrape error, and
   * without the node collector no node_exporter series is built.
   */
  @Test
  void collectorsSwitchedOffDoNoWorkAndServeNothing(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    try (DaemonProcess daemon = DaemonProcess.start(dir.resolve("daemon.log"),
        "--cri.endpoint=unix://" + dir.resolve("no-such.sock"), "--sampling.interval=1s", "--no-collector.cri",
        "--no-collector.node")) {
      Deadline.await("/healthz 200\n" + daemon.log(), Duration.ofSeconds(30), () -> daemon.get("/healthz").status() == 200);
      // A CRI loop starts with the node loop and says at its first failed round that the runtime is missing; give
      // both a few one-second rounds.
      Deadline.await("a node round", Duration.ofSeconds(30),
          () -> PrometheusText.select(PrometheusText.parse(daemon.get("/metrics").body()),
              "winstats_exporter_collector_success").stream().anyMatch(s -> s.value() == 1.0));
      Thread.sleep(3_000);

      List<PrometheusText> metrics = PrometheusText.parse(daemon.get("/metrics").body());
      assertThat(metrics).extracting(PrometheusText::name)
          .contains("machine_cpu_cores", "container_cpu_usage_seconds_total", "process_cpu_seconds_total")
          .noneMatch(n -> n.startsWith("node_") || n.startsWith("winstats_exporter_cri_"));
      assertThat(metrics).noneMatch(s -> "cri".equals(s.labels().get("collector")) || "cri".equals(s.labels().get("source")));
      assertThat(PrometheusText.select(metrics, "winstats_exporter_collector_success"))
          .extracting(s -> s.labels().get("collector")).singleElement().asString().startsWith("node_");
      assertThat(PrometheusText.select(metrics, "container_scrape_error")).singleElement()
          .satisfies(s -> assertThat(s.value()).isZero());
      assertThat(PrometheusText.select(PrometheusText.parse(daemon.get("/metrics/resource").body()), "resource_scrape_error"))
          .singleElement().satisfies(s -> assertThat(s.value()).isZero());
      assertThat(PrometheusText.parse(daemon.get("/metrics/cadvisor").body())).extracting(PrometheusText::name)
          .contains("machine_cpu_cores", "container_scrape_error")
          .allMatch(n -> n.startsWith("machine_") || n.equals("container_scrape_error") || n.startsWith("container_"));
      assertThat(daemon.get("/stats/summary").body()).contains("\"pods\":[]");
      String log = daemon.log();
      assertThat(log.lines().filter(l -> l.contains("level=WARN") || l.contains("level=ERROR"))).as(log).isEmpty();
      assertThat(log).doesNotContain("event=cgroups_enabled").doesNotContain("event=cri_");
      assertThat(log.lines().filter(l -> l.contains("event=started")).map(LogfmtLines::parse).findFirst().orElseThrow())
          .containsEntry("collectors", "none");
    }
  }

  /** The lines a failed start printed that are not the INFO log lines written before it failed. */
  private static List<String> problemLines(DaemonProcess.Result r) {
    return r.output().lines().filter(l -> !l.contains(" level=INFO ")).toList();
  }

  /** Each start-up failure exits 2 with one line naming the flag, the cause and the fix: no usage, no stack trace. */
  @Test
  void aPortInUseExitsTwoWithOneLineNamingTheAddress() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      String address = "127.0.0.1:" + taken.getLocalPort();
      DaemonProcess.Result r = DaemonProcess.run(Duration.ofSeconds(60), "--web.listen-address=" + address);
      assertThat(r.exitCode()).as(r.output()).isEqualTo(2);
      assertThat(problemLines(r)).as(r.output()).singleElement().asString()
          .startsWith("winstats-exporter: --web.listen-address=" + address + ": address already in use")
          .contains("choose another port");
    }
  }

  @Test
  void anUnresolvableListenHostExitsTwoWithOneLine() throws Exception {
    DaemonProcess.Result r = DaemonProcess.run(Duration.ofSeconds(60), "--web.listen-address=no-such-host.invalid:9844");
    assertThat(r.exitCode()).as(r.output()).isEqualTo(2);
    assertThat(problemLines(r)).as(r.output()).singleElement().asString()
        .contains("unknown host no-such-host.invalid").contains("':9844' for every interface");
  }

  @Test
  void aNamedPipeEndpointOnLinuxExitsTwoPointingToHelp() throws Exception {
    DaemonProcess.Result r = DaemonProcess.run(Duration.ofSeconds(60), "--cri.endpoint=npipe:////./pipe/containerd-containerd");
    assertThat(r.exitCode()).as(r.output()).isEqualTo(2);
    assertThat(problemLines(r)).as(r.output()).containsExactly(
        "winstats-exporter: --cri.endpoint=npipe:////./pipe/containerd-containerd: named pipes exist only on Windows;"
            + " on Linux give the runtime's socket, as unix:///run/containerd/containerd.sock",
        ExporterCommand.SEE_HELP);
  }

  /** The git revision the jar was built from (this checkout's HEAD) and the build time, in --version. */
  @Test
  @Requires(tools = "git")
  void versionPrintsTheBuildWithItsRevisionAndDate() throws Exception {
    Process git = new ProcessBuilder("git", "rev-parse", "--short=12", "HEAD").redirectErrorStream(true).start();
    String head = new String(git.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
    assertThat(git.waitFor()).as(head).isZero();

    DaemonProcess.Result r = DaemonProcess.run(Duration.ofSeconds(30), "--version");

    assertThat(r.exitCode()).isZero();
    assertThat(r.output()).containsPattern(
        "winstats-exporter \\S+ \\(revision " + head + ", built \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\)");
  }
}
