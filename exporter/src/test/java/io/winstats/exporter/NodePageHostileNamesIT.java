package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.HcsReading;
import io.winstats.cri.testing.WindowsContainer;
import io.winstats.cri.testing.WindowsPod;
import io.winstats.cri.testing.WindowsRuntimeFake;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.HeadlessChromium;
import io.winstats.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Names that carry HTML and script, which a real runtime refuses but the Windows runtime fake serves: the real jar on
 * a replayed Windows node reads them, and the node page (headless Chromium) shows them as text and runs nothing.
 * The Windows node also shows its commit chart.
 */
@Requires(tools = "chromium")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodePageHostileNamesIT {
  private static final Duration READY = Duration.ofSeconds(60);
  private static final Path WORK = Path.of("target", "node-page-hostile");
  private static final Path LOG =
      Path.of("..", "collector-perfcounters", "src", "test", "resources", "perfmon",
          "tierra-win10-ja-process-memory-network.first200.csv");
  private static final String POD = "<img src=x onerror=\"window.pwned='pod'\">";
  private static final String NAMESPACE = "ns<script>window.pwned='namespace'</script>";
  private static final String CONTAINER = "<svg onload=\"window.pwned='container'\">";

  private WindowsRuntimeFake runtime;
  private WindowsRuntimeFake.Served served;
  private DaemonProcess daemon;
  private HeadlessChromium browser;

  @BeforeAll
  void start() throws IOException {
    Files.createDirectories(WORK);
    runtime = new WindowsRuntimeFake(ContainerdLine.V2_2, Clock.systemUTC());
    long created = System.currentTimeMillis() * 1_000_000L - 60_000_000_000L;
    HcsReading reading = new HcsReading(System.currentTimeMillis() * 1_000_000L, 5_000_000_000L, 40L << 20, 60L << 20);
    runtime.put(
        WindowsPod.isolated(
            "sandbox-hostile", POD, NAMESPACE, created, reading,
            List.of(WindowsContainer.running("c-hostile", CONTAINER, 0, created, reading))));
    served = runtime.start(WORK.resolve("windows-containerd.sock").toAbsolutePath());
    daemon =
        DaemonProcess.start(
            WORK.resolve("daemon.log"),
            "--cri.endpoint=" + served.endpoint(),
            "--sampling.interval=1s",
            "--node.name=hostile-node",
            "--node.source=replay:" + LOG.toAbsolutePath().normalize() + ",speed=2");
    Deadline.await("daemon /healthz 200\n" + daemon.log(), READY, () -> daemon.get("/healthz").status() == 200);
    browser = HeadlessChromium.start(Files.createTempDirectory(WORK, "chromium"));
  }

  @AfterAll
  void stop() throws InterruptedException {
    if (browser != null) {
      browser.close();
    }
    if (daemon != null) {
      daemon.close();
    }
    if (served != null) {
      served.close();
    }
  }

  @Test
  void hostileNamesAreShownAsTextAndRunNothing() {
    browser.open("http://127.0.0.1:" + daemon.port() + "/node");
    Deadline.await("the hostile pod in the table", READY,
        () -> browser.eval("document.querySelectorAll('#pods tbody tr.pod').length").asInt() == 1);
    assertThat(browser.eval("document.querySelector('#pods tbody tr.pod a').textContent").asText())
        .isEqualTo(NAMESPACE + "/" + POD);
    assertThat(browser.eval("document.querySelector('#pods tbody tr.container td').textContent").asText())
        .isEqualTo(CONTAINER);
    assertThat(browser.eval("document.querySelectorAll('main img, main svg, main script').length").asInt())
        .as("no element made from a name")
        .isZero();
    Deadline.await("the Windows node's commit", READY,
        () -> browser.eval("document.querySelector('#chart-memory .now').textContent").asText().contains("commit: "));

    browser.open("http://127.0.0.1:" + daemon.port() + "/node?pod=uid-sandbox-hostile");
    Deadline.await("the hostile pod's page", READY,
        () -> browser.eval("document.getElementById('title')?.textContent ?? ''").asText()
            .equals("Pod " + NAMESPACE + "/" + POD));
    Deadline.await("its container listed", READY,
        () -> browser.eval("document.querySelectorAll('#containers tbody tr').length").asInt() == 1);
    assertThat(browser.eval("document.querySelector('#containers tbody td').textContent").asText())
        .isEqualTo(CONTAINER);
    assertThat(browser.eval("document.querySelectorAll('main img, main svg, main script').length").asInt()).isZero();

    assertThat(browser.eval("typeof window.pwned").asText()).as("no name ran").isEqualTo("undefined");
    assertThat(browser.errors()).as("console errors, exceptions, policy violations").isEmpty();
  }
}
