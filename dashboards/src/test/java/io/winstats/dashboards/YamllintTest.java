package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.Requires;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every YAML file under {@code deploy/} is yamllint-clean with {@code deploy/.yamllint}, and under {@code .github/}
 * with {@code .github/.yamllint}, warnings included. Needs
 * yamllint (Debian package yamllint, in dev/debian-packages.txt): skipped without it, failed under {@code CI=true}.
 */
class YamllintTest {
  private static final Path DEPLOY = Path.of("..", "deploy");

  @Test
  @Requires(tools = "yamllint")
  void deployIsYamllintClean() {
    assertClean(DEPLOY);
  }

  /** The Windows workflow, its composite action and the release workflow, with {@code .github/.yamllint}. */
  @Test
  @Requires(tools = "yamllint")
  void theWorkflowsAreYamllintClean() {
    assertClean(Path.of("..", ".github"));
  }

  /** yamllint, strict, over {@code dir} with the {@code .yamllint} it holds. */
  private static void assertClean(Path dir) {
    Path yamllint = Tools.path("yamllint");
    Tools.Result r =
        Tools.run(
            Duration.ofSeconds(60),
            List.of(
                yamllint.toString(), "--strict", "-f", "parsable", "-c", dir.resolve(".yamllint").toString(),
                dir.toString()));
    assertThat(r.output()).as("yamllint output").isEmpty();
    assertThat(r.exitCode()).isZero();
  }

  @Test
  @Requires(tools = "yamllint")
  void yamllintRejectsAWrongIndentation() throws Exception {
    Path yamllint = Tools.path("yamllint");
    Path bad = Files.createTempFile("bad", ".yaml");
    try {
      Files.writeString(bad, "spec:\n  containers:\n     - name: x\n");
      Tools.Result r =
          Tools.run(
              Duration.ofSeconds(60),
              List.of(yamllint.toString(), "--strict", "-c", DEPLOY.resolve(".yamllint").toString(), bad.toString()));
      assertThat(r.exitCode()).isNotZero();
      assertThat(r.output()).contains("indentation");
    } finally {
      Files.delete(bad);
    }
  }
}
