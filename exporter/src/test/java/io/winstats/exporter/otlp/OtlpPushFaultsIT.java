package io.winstats.exporter.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.logging.LogfmtLines;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.OtlpReceiver;
import io.winstats.exporter.testing.PrometheusText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The push's faults and its cost when off, on the real jar without a runtime: a receiver that refuses or answers late
 * degrades the push alone (a count, one line, /metrics served); with the flag off no OpenTelemetry class is loaded;
 * bad values stop the daemon at start.
 */
class OtlpPushFaultsIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void aRefusingReceiverIsCountedLoggedOnceAndRecoveredFromWhileMetricsServes(@TempDir Path dir) throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.grpc()) {
      receiver.mode(OtlpReceiver.Mode.REFUSE);
      try (DaemonProcess daemon = push(dir, receiver, "grpc")) {
        Deadline.await("three failed pushes\n" + daemon.log(), WAIT, () -> counter(daemon, "failures") >= 3);
        assertThat(daemon.get("/metrics").status()).isEqualTo(200);
        assertThat(daemon.get("/stats/summary").status()).isEqualTo(200);
        assertThat(receiver.received()).isEmpty();
        receiver.mode(OtlpReceiver.Mode.ACCEPT);
        Deadline.await("an accepted push", WAIT, () -> !receiver.received().isEmpty());
        Deadline.await("the recovery line", WAIT, () -> daemon.log().contains("event=otlp_export_recovered"));
        String log = daemon.log();
        assertThat(log.lines().filter(l -> l.contains("event=otlp_export_failed"))).as(log).hasSize(1);
        assertThat(log.lines().filter(l -> l.contains("level=WARN") || l.contains("level=ERROR")))
            .as(log).allMatch(l -> l.contains("otlp_export_failed") || l.contains("collector=cri"));
        assertThat(log).doesNotContain("\tat ");
        LogfmtLines.assertEveryLineParses(log);
      }
    }
  }

  @Test
  void aSlowReceiverTimesOutThePushAloneAndMetricsKeepsAnswering(@TempDir Path dir) throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.http()) {
      receiver.mode(OtlpReceiver.Mode.SLOW);
      receiver.delay(Duration.ofSeconds(20));
      try (DaemonProcess daemon = push(dir, receiver, "http/protobuf")) {
        Deadline.await("a push that timed out\n" + daemon.log(), WAIT, () -> counter(daemon, "failures") >= 1);
        for (int i = 0; i < 5; i++) {
          DaemonProcess.Response r = daemon.get("/metrics");
          assertThat(r.status()).isEqualTo(200);
          assertThat(PrometheusText.select(PrometheusText.parse(r.body()), "machine_cpu_cores")).hasSize(1);
        }
        assertThat(daemon.log()).contains("event=otlp_export_failed");
      }
    }
  }

  /**
   * The class-loading probe: {@code -verbose:class} lists every class the JVM loads. Off, after serving every
   * endpoint, none is OpenTelemetry's or the push's own; on, the SDK's reader is loaded (so the probe can fail).
   */
  @Test
  void offLoadsNoOpenTelemetryClass(@TempDir Path dir) throws Exception {
    try (DaemonProcess daemon = DaemonProcess.start(dir.resolve("off.log"), List.of("-verbose:class"),
        "--cri.endpoint=unix://" + dir.resolve("none.sock"), "--sampling.interval=1s")) {
      Deadline.await("/healthz 200", WAIT, () -> daemon.get("/healthz").status() == 200);
      Deadline.await("node figures", WAIT, () -> daemon.get("/metrics").body().contains("machine_cpu_cores"));
      for (String path : List.of("/metrics", "/metrics/cadvisor", "/metrics/resource", "/stats/summary")) {
        assertThat(daemon.get(path).status()).as(path).isEqualTo(200);
      }
      List<String> loaded = daemon.log().lines().filter(l -> l.startsWith("[") && l.contains("class,load")).toList();
      assertThat(loaded).as("classes loaded").hasSizeGreaterThan(1000)
          .noneMatch(l -> l.contains(" io.opentelemetry."))
          .noneMatch(l -> l.contains(" io.winstats.exporter.otlp."))
          .noneMatch(l -> l.contains("SeriesPush"));
      assertThat(threads(daemon.pid())).noneMatch(t -> t.contains("PeriodicMetricReader") || t.contains("OkHttp"));
    }
    try (OtlpReceiver receiver = OtlpReceiver.http();
        DaemonProcess daemon = DaemonProcess.startWith(
            Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(), "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"),
            dir.resolve("on.log"), List.of("-verbose:class"), "--cri.endpoint=unix://" + dir.resolve("none.sock"),
            "--otlp.enabled", "--otlp.interval=1s")) {
      Deadline.await("a push", WAIT, () -> !receiver.received().isEmpty());
      assertThat(daemon.log()).contains(" io.opentelemetry.sdk.metrics.export.PeriodicMetricReader ")
          .contains(" io.winstats.exporter.otlp.OtlpPush ");
      assertThat(threads(daemon.pid())).anyMatch(t -> t.contains("PeriodicMetricReader"));
    }
  }

  @Test
  void badValuesStopTheDaemonAtStart(@TempDir Path dir) throws Exception {
    DaemonProcess.Result shortInterval = DaemonProcess.run(WAIT, "--otlp.enabled", "--otlp.interval=500ms");
    assertThat(shortInterval.exitCode()).isEqualTo(2);
    assertThat(shortInterval.output()).contains("--otlp.interval: 500ms is shorter than the minimum 1s");

    DaemonProcess.Result withoutPush = DaemonProcess.run(WAIT, "--otlp.interval=5s");
    assertThat(withoutPush.exitCode()).isEqualTo(2);
    assertThat(withoutPush.output()).contains("--otlp.interval needs --otlp.enabled");

    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", DaemonProcess.jar().toString(), "--web.listen-address=127.0.0.1:" + DaemonProcess.freePort(),
        "--cri.endpoint=unix://" + dir.resolve("none.sock"), "--otlp.enabled"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("OTEL_EXPORTER_OTLP_PROTOCOL", "carrier-pigeon");
    Process p = builder.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isEqualTo(2);
    assertThat(output).contains("--otlp.enabled").contains("carrier-pigeon");
  }

  private static DaemonProcess push(Path dir, OtlpReceiver receiver, String protocol) throws Exception {
    return DaemonProcess.startWith(
        Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(), "OTEL_EXPORTER_OTLP_PROTOCOL", protocol,
            "OTEL_EXPORTER_OTLP_TIMEOUT", "1000"),
        dir.resolve("daemon.log"), List.of(), "--cri.endpoint=unix://" + dir.resolve("none.sock"),
        "--sampling.interval=1s", "--otlp.enabled", "--otlp.interval=1s");
  }

  /** winstats_exporter_otlp_export_failures_total ("failures") or _exports_total, 0 while not served. */
  private static double counter(DaemonProcess daemon, String which) {
    String name = which.equals("failures")
        ? "winstats_exporter_otlp_export_failures_total" : "winstats_exporter_otlp_exports_total";
    DaemonProcess.Response r = daemon.get("/metrics");
    if (r.status() != 200) {
      return 0;
    }
    List<PrometheusText> s = PrometheusText.select(PrometheusText.parse(r.body()), name);
    return s.isEmpty() ? 0 : s.get(0).value();
  }

  /** The thread names of a running JVM, from {@code jcmd PID Thread.print}. */
  private static List<String> threads(long pid) throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        String.valueOf(pid), "Thread.print").redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(30, TimeUnit.SECONDS);
    assertThat(out).as("jcmd's thread dump").contains("\"main\"");
    return out.lines().filter(l -> l.startsWith("\"")).toList();
  }
}
