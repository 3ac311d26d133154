package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.HcsReading;
import io.winstats.cri.testing.WindowsContainer;
import io.winstats.cri.testing.WindowsPod;
import io.winstats.cri.testing.WindowsRuntimeFake;
import io.winstats.exporter.testing.DaemonProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar winstats-exporter.jar compare} against a running daemon, with the daemon as its own reference on
 * all three comparisons: its /stats/summary as the kubelet's, its /metrics/resource as the kubelet's, its /metrics as
 * windows_exporter's. The daemon serves a Windows node: a replayed Windows counter log (windows_* node families) and
 * the fake containerd-on-Windows with one pod (windows_container_* series, the Summary's pod), sampled once for the
 * whole comparison. Nothing may differ beyond its tolerance.
 */
class CompareSelfIT {
  private static final Path LOG =
      Path.of("..", "collector-perfcounters", "src", "test", "resources", "perfmon",
          "tierra-win10-ja-process-memory-network.first200.csv");

  @Test
  void theDaemonComparedWithItselfAgreesInEveryFigure(@TempDir Path dir) throws Exception {
    WindowsRuntimeFake runtime = new WindowsRuntimeFake(ContainerdLine.V2_2, Clock.systemUTC());
    long created = System.currentTimeMillis() * 1_000_000L - 60_000_000_000L;
    HcsReading reading = new HcsReading(System.currentTimeMillis() * 1_000_000L, 5_000_000_000L, 40L << 20, 60L << 20);
    runtime.put(
        WindowsPod.isolated(
            "sandbox-web", "web-0", "shop", created, reading,
            List.of(WindowsContainer.running("c-app", "app", 0, created, reading))));
    try (WindowsRuntimeFake.Served served = runtime.start(dir.resolve("windows-containerd.sock").toAbsolutePath());
        DaemonProcess daemon =
            DaemonProcess.start(
                dir.resolve("daemon.log"),
                "--cri.endpoint=" + served.endpoint(),
                // One round for the whole comparison: a replayed gauge moves from row to row of the log, so a
                // reference read a round later differs by design (the bracketing is CompareCommandTest's).
                "--sampling.interval=10m",
                "--node.name=compare-node",
                "--node.source=replay:" + LOG.toAbsolutePath().normalize())) {
      String base = "http://127.0.0.1:" + daemon.port();
      Deadline.await(
          "the pod on /stats/summary\n" + daemon.log(),
          Duration.ofSeconds(60),
          () -> daemon.get("/stats/summary").body().contains("\"web-0\"")
              && daemon.get("/metrics").body().contains("windows_container_cpu_usage_seconds_total{"));

      DaemonProcess.Result r =
          DaemonProcess.run(
              Duration.ofSeconds(90),
              "compare",
              "--daemon=" + base + "/stats/summary",
              "--kubelet=" + base + "/stats/summary",
              "--kubelet-resource=" + base + "/metrics/resource",
              "--windows-exporter=" + base + "/metrics",
              "--wait=10s",
              "--output=json");
      Files.writeString(dir.resolve("compare.json"), r.output());

      assertThat(r.exitCode()).as(r.output()).isZero();
      JsonNode doc = new ObjectMapper().readTree(r.output().substring(r.output().indexOf('{')));
      assertThat(doc.path("comparisons")).hasSize(3);
      for (JsonNode c : doc.path("comparisons")) {
        String name = c.path("reference").asText();
        assertThat(c.path("differ").asInt()).as(name + "\n" + r.output()).isZero();
        assertThat(c.path("unbracketed").asInt()).as(name).isZero();
        assertThat(c.path("onlyReference").size()).as(name).isZero();
        assertThat(c.path("onlyDaemon").size()).as(name).isZero();
      }
      assertThat(doc.at("/comparisons/0/reference").asText()).isEqualTo("kubelet");
      assertThat(doc.at("/comparisons/0/compared").asInt()).isGreaterThan(20);
      assertThat(doc.at("/comparisons/1/reference").asText()).isEqualTo("kubelet resource");
      assertThat(doc.at("/comparisons/1/compared").asInt()).isGreaterThan(5);
      assertThat(doc.at("/comparisons/2/reference").asText()).isEqualTo("windows_exporter");
      List<String> series = doc.at("/comparisons/2/rows").findValuesAsText("figure");
      assertThat(series)
          .anyMatch(s -> s.startsWith("windows_container_cpu_usage_seconds_total{container=\"app\""))
          .anyMatch(s -> s.startsWith("windows_memory_available_bytes"))
          .anyMatch(s -> s.startsWith("windows_net_bytes_received_total{"));
    }
  }
}
