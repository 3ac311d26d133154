package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.testing.DaemonProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code java -jar winstats-exporter.jar check} on Linux against a private containerd with one pod: every part ok
 * (also with the daemon itself holding the listen address, as when check runs in its pod), then with containerd
 * stopped (its socket removed) and killed (its socket left behind). The rows and the exit code are asserted.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CheckContainerdIT {
  /** Far above the few seconds check takes: only a hung check fails on it, never a slow machine. */
  private static final Duration RUN_LIMIT = Duration.ofMinutes(2);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> LINUX_ONLY_NOT_APPLICABLE = List.of("tasks_metrics", "hns");

  private record Run(int exit, String out, String err) {
    /** The rows by part name, in the order printed. */
    Map<String, JsonNode> rows() throws IOException {
      Map<String, JsonNode> rows = new LinkedHashMap<>();
      JSON.readTree(out).get("parts").forEach(r -> rows.put(r.get("name").asText(), r));
      return rows;
    }
  }

  @BeforeAll
  void onePod(ContainerdHarness harness, CriTestClient client) {
    harness.defer(client.runPod("checked", "check", List.of(ContainerSpec.sleeper("app"))));
  }

  /** The jar's check subcommand to completion, stdout (the report) apart from stderr (log lines). */
  private static Run check(Path dir, String... flags) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    List<String> command =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                DaemonProcess.jar().toString(), "check"));
    command.addAll(List.of(flags));
    Path err = Files.createTempFile(dir, "check", ".stderr");
    Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(RUN_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("check did not exit within " + RUN_LIMIT + "\n" + Files.readString(err));
    }
    Run run = new Run(p.exitValue(), out, Files.readString(err));
    System.out.printf(
        "CheckContainerdIT %s -> exit %d%n%s%s", String.join(" ", flags), run.exit(), run.out(), run.err());
    return run;
  }

  private static String state(Map<String, JsonNode> rows, String part) {
    assertThat(rows).as("rows").containsKey(part);
    return rows.get(part).get("state").asText();
  }

  @Test
  @Order(1)
  void everyPartOkAgainstARunningContainerdExitsZero(ContainerdHarness harness) throws Exception {
    Run run =
        check(
            harness.workDir().resolve("check"),
            "--cri.endpoint=" + harness.endpoint(),
            "--node.name=check-node",
            "--web.listen-address=127.0.0.1:" + DaemonProcess.freePort(),
            "--output=json");
    Map<String, JsonNode> rows = run.rows();
    assertThat(rows.keySet())
        .containsExactly(
            "node_source", "runtime", "runtime.pod_stats", "runtime.container_stats", "runtime.streaming",
            "tasks_metrics", "hns", "cgroups", "web_config", "listen_address");
    assertThat(state(rows, "node_source")).isEqualTo("ok");
    assertThat(rows.get("node_source").get("detail").asText()).startsWith("procfs");
    assertThat(state(rows, "runtime")).isEqualTo("ok");
    // The runtime's name and version as CRI Version gives them, then where, how many pods and the Linux default call.
    assertThat(rows.get("runtime").get("detail").asText())
        .matches("containerd \\S+ at " + Pattern.quote(harness.endpoint()) + " pods=1 path=ListContainerStats");
    assertThat(state(rows, "runtime.pod_stats")).isEqualTo("ok");
    assertThat(rows.get("runtime.pod_stats").get("detail").asText()).isEqualTo("ListPodSandboxStats pods=1");
    assertThat(state(rows, "runtime.container_stats")).isEqualTo("ok");
    assertThat(rows.get("runtime.container_stats").get("detail").asText()).isEqualTo("ListContainerStats pods=1");
    // Streaming lists (KEP-5825) are ok where the runtime has them, else not applicable with the lists it lacks.
    assertThat(state(rows, "runtime.streaming")).isIn("ok", "not_applicable");
    for (String part : LINUX_ONLY_NOT_APPLICABLE) {
      assertThat(state(rows, part)).as(part).isEqualTo("not_applicable");
      assertThat(rows.get(part).get("detail").asText()).as(part).isEqualTo("a Linux node");
    }
    assertThat(state(rows, "cgroups")).isEqualTo("ok");
    assertThat(rows.get("cgroups").get("detail").asText()).containsPattern("containers=1 pods=1$");
    assertThat(state(rows, "web_config")).isEqualTo("not_applicable");
    assertThat(state(rows, "listen_address")).isEqualTo("ok");
    assertThat(rows.get("listen_address").get("detail").asText()).endsWith(" free");
    assertThat(JSON.readTree(run.out()).get("state").asText()).isEqualTo("ok");
    assertThat(run.exit()).as(run.err()).isZero();
  }

  /** In the daemon's pod the daemon holds the address: a winstats-exporter's landing page answers there, so ok. */
  @Test
  @Order(2)
  void theDaemonHoldingTheAddressIsOkAndTheTextHasOneRowPerPart(ContainerdHarness harness) throws Exception {
    try (DaemonProcess daemon =
        DaemonProcess.start(
            harness.workDir().resolve("check").resolve("daemon.log"),
            "--cri.endpoint=" + harness.endpoint(),
            "--node.name=check-node")) {
      Deadline.await(
          "/healthz 200\n" + daemon.log(), Duration.ofSeconds(30), () -> daemon.get("/healthz").status() == 200);
      Run run =
          check(
              harness.workDir().resolve("check"),
              "--cri.endpoint=" + harness.endpoint(),
              "--node.name=check-node",
              "--web.listen-address=" + daemon.address());
      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out().lines())
          .hasSize(11)
          .anySatisfy(l -> assertThat(l).matches("runtime +ok +containerd \\S+ at .* pods=1 path=ListContainerStats"))
          .anySatisfy(
              l -> assertThat(l).matches("listen_address +ok +" + daemon.address() + " held by a winstats-exporter.*"))
          .anySatisfy(l -> assertThat(l).matches("hns +not_applicable +a Linux node"))
          .last()
          .isEqualTo("overall: ok");
      // The running daemon's own rows at /status, each with its last success and error count, linked from "/".
      String body =
          Deadline.poll(
              "the runtime ok in /status",
              Duration.ofSeconds(30),
              () -> {
                DaemonProcess.Response r = daemon.get("/status");
                return r.status() == 200 && r.body().contains("\"runtime\",\"state\":\"ok\"") ? r.body() : null;
              });
      JsonNode status = JSON.readTree(body);
      Map<String, JsonNode> parts = new LinkedHashMap<>();
      status.get("parts").forEach(p -> parts.put(p.get("name").asText(), p));
      assertThat(parts.get("runtime").get("detail").asText()).matches("containerd \\S+ path=ListContainerStats pods=1");
      assertThat(parts.get("runtime").get("last_success").asText()).isNotEmpty();
      assertThat(parts.get("runtime").get("error_count").asInt()).isZero();
      assertThat(parts.get("hns").get("state").asText()).isEqualTo("not_applicable");
      assertThat(daemon.get("/").body()).contains("/status");
    }
  }

  /**
   * containerd stopped (SIGTERM removes its socket) and killed (SIGKILL leaves the socket, so connects are refused):
   * the runtime row fails with its cause and the fix, the stats calls are not asked, the cgroups have no container to
   * read, and check exits 4. The node source and the listen address stay ok.
   */
  @Test
  @Order(3)
  void anEndpointThatIsGoneFailsTheRuntimeAndExitsFour(ContainerdHarness harness) throws Exception {
    Map<String, String> causeByHow = new LinkedHashMap<>();
    causeByHow.put("stopped", "endpoint_missing: ");
    causeByHow.put("killed", "connection_refused: ");
    for (Map.Entry<String, String> how : causeByHow.entrySet()) {
      if (how.getKey().equals("stopped")) {
        harness.stopRuntime();
      } else {
        harness.startRuntime();
        harness.killRuntime();
        assertThat(harness.socket()).as("the socket a killed containerd leaves").exists();
      }
      try {
        Run run =
            check(
                harness.workDir().resolve("check"),
                "--cri.endpoint=" + harness.endpoint(),
                "--node.name=check-node",
                "--web.listen-address=127.0.0.1:" + DaemonProcess.freePort(),
                "--output=json");
        Map<String, JsonNode> rows = run.rows();
        assertThat(run.exit()).as(how.getKey() + "\n" + run.err()).isEqualTo(4);
        assertThat(state(rows, "runtime")).as(how.getKey()).isEqualTo("failed");
        assertThat(rows.get("runtime").get("cause").asText()).as(how.getKey()).startsWith(how.getValue())
            .contains(harness.socket().toString());
        assertThat(rows.get("runtime").get("fix").asText()).as(how.getKey())
            .contains("--cri.endpoint=" + harness.endpoint());
        for (String part : List.of("runtime.pod_stats", "runtime.container_stats", "runtime.streaming")) {
          assertThat(state(rows, part)).as(how.getKey() + " " + part).isEqualTo("failed");
          assertThat(rows.get(part).get("cause").asText()).as(part).contains("the runtime does not answer");
        }
        assertThat(state(rows, "cgroups")).as(how.getKey()).isEqualTo("degraded");
        assertThat(rows.get("cgroups").get("cause").asText()).isEqualTo("no container to read: no runtime");
        for (String part : LINUX_ONLY_NOT_APPLICABLE) {
          assertThat(state(rows, part)).as(part).isEqualTo("not_applicable");
        }
        assertThat(state(rows, "node_source")).isEqualTo("ok");
        assertThat(state(rows, "listen_address")).isEqualTo("ok");
        assertThat(JSON.readTree(run.out()).get("state").asText()).isEqualTo("failed");
      } finally {
        if (how.getKey().equals("killed")) {
          harness.startRuntime();
        }
      }
    }
  }

}
