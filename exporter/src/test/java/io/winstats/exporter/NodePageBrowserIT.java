package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.cri.api.ListPodSandboxRequest;
import io.winstats.cri.api.PodSandboxFilter;
import io.winstats.cri.api.PodSandboxState;
import io.winstats.cri.api.PodSandboxStateValue;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.PodHandle;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.HeadlessChromium;
import io.winstats.testing.Requires;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The node page in a real browser (Debian's Chromium, headless) against the real jar on a private containerd with
 * real pods: it loads with no console error and no policy violation, the node's charts draw, the table lists exactly
 * the pods the runtime has ready, a removed pod leaves it, and a pod's page shows its containers.
 */
@Tag("containerd")
@Requires(tools = "chromium")
@ExtendWith(ContainerdExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodePageBrowserIT {
  private static final Duration READY = Duration.ofSeconds(60);
  private static final Path WORK = Path.of("target", "node-page-browser");

  private PodHandle burner;
  private PodHandle leaver;
  private DaemonProcess daemon;
  private HeadlessChromium browser;

  @BeforeAll
  void start(ContainerdHarness harness, CriTestClient client) throws IOException {
    Files.createDirectories(WORK);
    burner = harness.defer(client.runPod("burner", "page", List.of(ContainerSpec.burner("burn", 0.2))));
    harness.defer(client.runPod("sleeper", "page", List.of(ContainerSpec.sleeper("sleep"))));
    leaver = harness.defer(client.runPod("leaver", "page", List.of(ContainerSpec.sleeper("sleep"))));
    daemon =
        DaemonProcess.start(
            WORK.resolve("daemon.log"),
            "--cri.endpoint=" + harness.endpoint(),
            "--sampling.interval=1s",
            "--node.name=page-node");
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
  }

  @Test
  void theNodeViewDrawsAndListsExactlyTheRuntimesPodsThenOnePodsView(CriTestClient client) {
    browser.open("http://127.0.0.1:" + daemon.port() + "/node");
    Deadline.await(
        "the table lists exactly the runtime's ready pods",
        READY,
        () -> tableUids().equals(readyPodUids(client)) && tableUids().size() == 3);
    Deadline.await("the node's CPU chart drew", READY, () -> browser.eval(DREW.formatted("chart-cpu")).asBoolean());
    for (String chart : List.of("chart-memory", "chart-network", "chart-fs")) {
      assertThat(browser.eval(DREW.formatted(chart)).asBoolean()).as(chart).isTrue();
    }
    // The node's first sample has no CPU rate ("in use: —"); the table can be ready before the second sample lands.
    Deadline.await(
        "the node's CPU now, in cores, once a second sample gives its rate",
        READY,
        () -> browser.eval("document.querySelector('#chart-cpu .now').textContent").asText().contains("cores"));
    assertThat(browser.eval("document.querySelector('#chart-memory .now').textContent").asText())
        .as("a Linux node has no commit")
        .doesNotContain("commit");
    screenshot("node-page.png");

    // Within two intervals, counted in the daemon's samples rather than timed: the first sample stamped after the
    // removal may come from a round that listed the pods before it; the second began after it.
    long removedAt = System.currentTimeMillis();
    client.removePod(leaver);
    long[] second = new long[1];
    Deadline.await("two samples after the removal", READY, () -> {
      List<Long> after = sampleTimes().stream().filter(t -> t > removedAt).toList();
      second[0] = after.size() >= 2 ? after.get(1) : 0;
      return second[0] > 0;
    });
    Deadline.await("the page shows the second sample after the removal", READY, () -> newestShown() >= second[0]);
    assertThat(tableUids()).as("the table at the second sample after the removal")
        .doesNotContain(leaver.uid())
        .isEqualTo(readyPodUids(client));

    browser.open("http://127.0.0.1:" + daemon.port() + "/node?pod=" + burner.uid());
    Deadline.await("the burner's page", READY,
        () -> browser.eval("document.getElementById('title')?.textContent ?? ''").asText().equals("Pod page/burner"));
    Deadline.await("the burner's containers", READY,
        () -> browser.eval("Array.from(document.querySelectorAll('#containers tbody td:first-child'))"
            + ".map(td => td.textContent).join(',')").asText().equals("burn"));
    Deadline.await("the burner's CPU chart drew", READY,
        () -> browser.eval(DREW.formatted("chart-pod-cpu")).asBoolean());
    screenshot("node-page-pod.png");

    assertThat(browser.errors()).as("console errors, exceptions, policy violations").isEmpty();
  }

  /**
   * With {@code -Dnodepage.screenshots=DIR} (dev/node-page-screenshots), a PNG of the page as it is now, for the docs;
   * never compared. The charts first get a few more samples, so that they show a line rather than a point.
   */
  private void screenshot(String name) {
    String dir = System.getProperty("nodepage.screenshots");
    if (dir == null) {
      return;
    }
    try {
      browser.viewport(1200, 900);
      Thread.sleep(8_000);
      browser.screenshot(Path.of(dir, name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Whether the chart's canvas holds a drawn pixel (uPlot draws axes and series into it). */
  static final String DREW =
      "(() => { const c = document.querySelector('#%s canvas'); if (!c || c.width === 0) return false;"
          + " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
          + " for (let i = 3; i < d.length; i += 4) { if (d[i] !== 0) return true; } return false; })()";

  /** The sample times of the daemon's node history, oldest first (ms since the epoch). */
  private List<Long> sampleTimes() {
    try {
      List<Long> times = new ArrayList<>();
      new ObjectMapper().readTree(daemon.get("/api/v1/history/node").body()).path("times")
          .forEach(t -> times.add(t.asLong()));
      return times;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The newest sample the open page shows, or 0 before its first update. */
  private long newestShown() {
    String newest = browser.eval("document.body.dataset.newestSample ?? ''").asText();
    return newest.isEmpty() ? 0 : Long.parseLong(newest);
  }

  private Set<String> tableUids() {
    JsonNode uids =
        browser.eval("Array.from(document.querySelectorAll('#pods tbody tr.pod')).map(r => r.dataset.uid)");
    Set<String> out = new TreeSet<>();
    uids.forEach(u -> out.add(u.asText()));
    return out;
  }

  private static Set<String> readyPodUids(CriTestClient client) {
    Set<String> uids = new TreeSet<>();
    client.runtime()
        .listPodSandbox(
            ListPodSandboxRequest.newBuilder()
                .setFilter(PodSandboxFilter.newBuilder().setState(
                    PodSandboxStateValue.newBuilder().setState(PodSandboxState.SANDBOX_READY)))
                .build())
        .getItemsList()
        .forEach(p -> uids.add(p.getMetadata().getUid()));
    return uids;
  }
}
