package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.PrometheusText;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module list the container images link ({@code deploy/images/jlink-modules.txt}) is enough to run the daemon with
 * the options every deployment uses ({@code deploy/jvm.options}): links that runtime with this JDK's {@code jlink}
 * and serves from it.
 */
class RuntimeImageIT {
  @Test
  void theDaemonRunsOnTheLinkedRuntime(@TempDir Path dir) throws Exception {
    String modules = Files.readString(Path.of("..", "deploy", "images", "jlink-modules.txt")).strip();
    Path runtime = dir.resolve("java");
    Process jlink =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "jlink").toString(),
                "--add-modules", modules, "--strip-debug", "--no-man-pages", "--no-header-files",
                "--output", runtime.toString())
            .redirectErrorStream(true)
            .start();
    String jlinkOutput = new String(jlink.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(jlink.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(jlink.exitValue()).as(jlinkOutput).isZero();

    try (DaemonProcess daemon =
        DaemonProcess.startWith(
            runtime.resolve("bin").resolve("java"),
            dir.resolve("daemon.log"),
            List.of("@" + Path.of("..", "deploy", "jvm.options").toAbsolutePath().normalize()),
            "--cri.endpoint=unix://" + dir.resolve("none.sock"),
            "--sampling.interval=1s")) {
      Deadline.await("/healthz on the linked runtime\n" + daemon.log(), Duration.ofSeconds(30), () -> daemon.get("/healthz").status() == 200);
      List<PrometheusText> metrics = PrometheusText.parse(daemon.get("/metrics").body());
      assertThat(PrometheusText.select(metrics, "process_cpu_seconds_total")).as("jdk.management").isNotEmpty();
      assertThat(PrometheusText.select(metrics, "machine_cpu_cores")).isNotEmpty();
      assertThat(daemon.get("/stats/summary").body()).contains("\"nodeName\"");
      assertThat(daemon.log()).doesNotContain("NoClassDefFoundError").doesNotContain("level=ERROR");
    }
  }
}
