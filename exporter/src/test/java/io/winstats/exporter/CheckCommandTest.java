package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code check} as a subcommand: its flags, exit codes and rows, with no runtime or one that is gone. */
class CheckCommandTest {
  @TempDir Path dir;

  private record Run(int exit, String out, String err) {}

  private static Run check(String... args) {
    CommandLine cli = ExporterCommand.commandLine(config -> {
      throw new AssertionError("check must not start the daemon");
    });
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    String[] all = new String[args.length + 1];
    all[0] = "check";
    System.arraycopy(args, 0, all, 1, args.length);
    int exit = cli.execute(all);
    return new Run(exit, out.toString(), err.toString());
  }

  /** The rows of a JSON report by part name. */
  private static Map<String, JsonNode> rows(String json) throws IOException {
    Map<String, JsonNode> rows = new HashMap<>();
    new ObjectMapper().readTree(json).get("parts").forEach(r -> rows.put(r.get("name").asText(), r));
    return rows;
  }

  @Test
  void helpListsTheExitCodes() {
    Run run = check("--help");
    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .contains("Exit codes:", "--output", "--redact", "--cri.endpoint", "--web.listen-address")
        .containsPattern("3\\s+a part is degraded")
        .containsPattern("4\\s+a part failed")
        .containsPattern("2\\s+a flag or the config file is invalid");
  }

  @Test
  void aBadFlagIsAUsageErrorNotAState() {
    assertThat(check("--output=xml").exit()).isEqualTo(2);
    assertThat(check("--cri.timeout=soon").exit()).isEqualTo(2);
  }

  @Test
  void aRuntimeThatIsGoneFailsWithItsCauseAndFix() throws IOException {
    String endpoint = "unix://" + dir.resolve("gone.sock");
    Run run =
        check(
            "--cri.endpoint=" + endpoint, "--node.source=procfs", "--web.listen-address=127.0.0.1:0", "--output=json");
    assertThat(run.exit()).as(run.err()).isEqualTo(4);
    Map<String, JsonNode> rows = rows(run.out());
    assertThat(rows.get("runtime").get("state").asText()).isEqualTo("failed");
    assertThat(rows.get("runtime").get("cause").asText()).startsWith("endpoint_missing: ");
    assertThat(rows.get("runtime").get("fix").asText()).contains("--cri.endpoint=" + endpoint);
    assertThat(rows.get("runtime.pod_stats").get("state").asText()).isEqualTo("failed");
    assertThat(rows.get("node_source").get("state").asText()).isIn("ok", "degraded");
    assertThat(rows.get("hns").get("state").asText()).isEqualTo("not_applicable");
    assertThat(rows.get("web_config").get("state").asText()).isEqualTo("not_applicable");
    assertThat(rows.get("listen_address").get("state").asText()).isEqualTo("ok");
  }

  @Test
  void withoutTheRuntimeCollectorItsPartsDoNotApply() throws IOException {
    Run run = check("--no-collector.cri", "--node.source=procfs", "--web.listen-address=127.0.0.1:0", "--output=json");
    Map<String, JsonNode> rows = rows(run.out());
    for (String part : new String[] {"runtime", "runtime.pod_stats", "tasks_metrics", "hns", "cgroups"}) {
      assertThat(rows.get(part).get("state").asText()).as(part).isEqualTo("not_applicable");
    }
    // This host's /proc answers in full unless a part is missing here, which the row then says.
    String node = rows.get("node_source").get("state").asText();
    assertThat(run.exit()).isEqualTo(node.equals("ok") ? 0 : 3);
  }

  @Test
  void anAddressHeldByAnotherServerFails() throws IOException {
    try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Run run =
          check("--no-collector.cri", "--node.source=procfs", "--web.listen-address=127.0.0.1:" + held.getLocalPort());
      assertThat(run.exit()).isEqualTo(4);
      assertThat(run.out()).containsPattern("listen_address\\s+failed").contains("fix: choose another");
    }
  }

  @Test
  void redactReplacesTheEndpointAndTheAddress() {
    String endpoint = "unix://" + dir.resolve("private-name.sock");
    Run run =
        check("--cri.endpoint=" + endpoint, "--node.source=procfs", "--web.listen-address=127.0.0.1:0", "--redact");
    assertThat(run.out()).doesNotContain("private-name", "127.0.0.1").contains("<runtime-endpoint>");
  }
}
