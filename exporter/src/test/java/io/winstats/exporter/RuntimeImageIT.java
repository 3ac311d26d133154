package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.OtlpReceiver;
import io.winstats.exporter.testing.PrometheusText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module list the container images link ({@code deploy/images/jlink-modules.txt}) is enough to run the daemon with
 * the options every deployment uses ({@code deploy/jvm.options}): links that runtime with this JDK's {@code jlink}
 * as {@code deploy/images/Dockerfile.linux} does, writes the daemon's class-data-sharing archive with
 * {@code deploy/cds-archive} as the image build does, and serves from that runtime with that archive; the
 * {@code check} and {@code compare} subcommands run on that runtime too.
 */
class RuntimeImageIT {
  @Test
  void theDaemonRunsOnTheLinkedRuntimeWithItsClassDataArchive(@TempDir Path dir) throws Exception {
    String modules = Files.readString(Path.of("..", "deploy", "images", "jlink-modules.txt")).strip();
    Path runtime = dir.resolve("java");
    Process jlink =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "jlink").toString(),
                "--add-modules", modules, "--strip-debug", "--no-man-pages", "--no-header-files",
                "--generate-cds-archive", "--output", runtime.toString())
            .redirectErrorStream(true)
            .start();
    String jlinkOutput = new String(jlink.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(jlink.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(jlink.exitValue()).as(jlinkOutput).isZero();

    Path java = runtime.resolve("bin").resolve("java");
    String options = Path.of("..", "deploy", "jvm.options").toAbsolutePath().normalize().toString();
    Path archive = dir.resolve("winstats-exporter.jsa");
    Process training =
        new ProcessBuilder(
                Path.of("..", "deploy", "cds-archive").toString(),
                java.toString(), options, DaemonProcess.jar().toString(), archive.toString())
            .redirectErrorStream(true)
            .start();
    String trainingOutput = new String(training.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(training.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(training.exitValue()).as(trainingOutput).isZero();

    Path classLoads = dir.resolve("class-load.log");
    try (DaemonProcess daemon =
        DaemonProcess.startWith(
            java,
            dir.resolve("daemon.log"),
            List.of("@" + options, "-XX:SharedArchiveFile=" + archive, "-Xlog:class+load=info:file=" + classLoads),
            "--cri.endpoint=unix://" + dir.resolve("none.sock"),
            "--sampling.interval=1s")) {
      Deadline.await("/healthz on the linked runtime\n" + daemon.log(), Duration.ofSeconds(30), () -> daemon.get("/healthz").status() == 200);
      List<PrometheusText> metrics = PrometheusText.parse(daemon.get("/metrics").body());
      assertThat(PrometheusText.select(metrics, "process_cpu_seconds_total")).as("jdk.management").isNotEmpty();
      assertThat(PrometheusText.select(metrics, "machine_cpu_cores")).isNotEmpty();
      assertThat(daemon.get("/stats/summary").body()).contains("\"nodeName\"");
      assertThat(daemon.log()).doesNotContain("NoClassDefFoundError").doesNotContain("level=ERROR");
      // The daemon's own classes and its libraries' come from the archive ("top" is the dynamic layer, JEP 350), the
      // JDK's from the base archive jlink generated: a stale or unusable archive loads them from the jar instead.
      assertThat(Files.readAllLines(classLoads))
          .anyMatch(l -> l.contains(" io.winstats.exporter.Daemon source: shared objects file (top)"))
          .anyMatch(l -> l.contains(" io.undertow.Undertow source: shared objects file (top)"))
          .anyMatch(l -> l.contains(" java.lang.Object source: shared objects file") && !l.contains("(top)"));

      // check and compare, the subcommands a first user runs in the image, on the same runtime.
      DaemonProcess.Result check =
          DaemonProcess.runWith(java, List.of("@" + options), Duration.ofSeconds(60),
              "check", "--cri.endpoint=unix://" + dir.resolve("none.sock"), "--web.listen-address=127.0.0.1:0");
      assertThat(check.output()).doesNotContain("NoClassDefFoundError").contains("runtime");
      assertThat(check.exitCode()).as("a missing runtime endpoint is a failed part\n" + check.output()).isEqualTo(4);
      String base = "http://" + daemon.address();
      DaemonProcess.Result compare =
          DaemonProcess.runWith(java, List.of("@" + options), Duration.ofSeconds(60),
              "compare", "--daemon=" + base + "/stats/summary", "--kubelet=" + base + "/stats/summary",
              "--kubelet-resource=" + base + "/metrics/resource", "--wait=5s");
      assertThat(compare.exitCode()).as(compare.output()).isZero();
    }
    // The OTLP push on the same runtime, over HTTP (the SDK's JDK sender needs java.net.http) and over gRPC.
    for (String protocol : List.of("http/protobuf", "grpc")) {
      try (OtlpReceiver receiver = protocol.equals("grpc") ? OtlpReceiver.grpc() : OtlpReceiver.http();
          DaemonProcess daemon =
              DaemonProcess.startWith(
                  java,
                  Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(), "OTEL_EXPORTER_OTLP_PROTOCOL", protocol),
                  dir.resolve("push-" + protocol.replace('/', '-') + ".log"),
                  List.of("@" + options, "-XX:SharedArchiveFile=" + archive),
                  "--cri.endpoint=unix://" + dir.resolve("none.sock"),
                  "--otlp.enabled",
                  "--otlp.interval=1s")) {
        Deadline.await("a push over " + protocol + " from the linked runtime\n" + daemon.log(), Duration.ofSeconds(30),
            () -> !receiver.received().isEmpty());
        assertThat(daemon.log()).doesNotContain("NoClassDefFoundError").doesNotContain("otlp_export_failed");
      }
    }
  }
}
