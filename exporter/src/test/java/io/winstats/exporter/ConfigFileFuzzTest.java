package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.Fuzz;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The daemon's YAML config file (issue 44), through the command as the daemon starts: whatever the file holds, the
 * daemon starts (0) or refuses with its problems listed (2), never crashes (picocli's 1 for an exception). Inputs:
 * the daemon's own --print-config output bent, with custom counters, and any text.
 */
class ConfigFileFuzzTest {
  private static final String CUSTOM_COUNTERS =
      """
      perfcounters:
        - path: '\\Memory\\Pool Paged Bytes'
          name: windows_custom_pool_paged_bytes
          type: gauge
        - path: '\\Processor Information(*)\\% Processor Time'
          name: cpu_busy
          type: counter
          instance-label: core
      """;
  private static final List<String> YAML_TOKENS =
      List.of(":", ": ", "- ", "\n", "\n  ", "  ", "[", "]", "{", "}", "'", "\"", "&a", "*a", "!!binary ", "~", "null",
          "<<: ", "#", "---", "\"10s\"", "\"-1s\"", "true", "pdh", "procfs", "unix:///x", "npipe:////./pipe/x", "*",
          "\\", "(*)", "0.0.0.0:");

  @TempDir Path dir;

  private int run(StringWriter err, String... args) {
    CommandLine cli = ExporterCommand.commandLine(config -> 0);
    cli.setErr(new PrintWriter(err, true));
    cli.setOut(new PrintWriter(new StringWriter(), true));
    return cli.execute(args);
  }

  @Test
  void aBentConfigFileStartsTheDaemonOrIsRefusedWithItsProblems() throws Exception {
    StringWriter printed = new StringWriter();
    CommandLine print = ExporterCommand.commandLine(config -> 0);
    print.setOut(new PrintWriter(printed, true));
    assertThat(print.execute("--print-config")).isZero();
    String valid = printed + CUSTOM_COUNTERS;
    Path file = dir.resolve("config.yml");
    StringWriter first = new StringWriter();
    assertThat(run(first, "--config.file=" + Files.writeString(file, valid), "--node.source=pdh")).as(first.toString())
        .isZero();
    // a command line costs ~10 ms: a fifth of the tries
    Fuzz.forAll("config file: --print-config bent, and any bytes", 5,
        r -> r.nextInt(8) == 0
            ? Fuzz.bytes(r, 200)
            : Fuzz.mutate(r, valid, YAML_TOKENS).getBytes(StandardCharsets.UTF_8),
        yaml -> {
          StringWriter err = new StringWriter();
          int code = run(err, "--config.file=" + Files.write(file, yaml), "--node.source=pdh");
          assertThat(code).as("exit code; stderr: %s", err).isIn(0, 2);
          if (code == 2) {
            assertThat(err.toString()).as("a refusal names its problem").contains("the fix is in " + file)
                .doesNotContain("Exception");
          }
        });
  }
}
