package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What users read is written for them: no project issue numbers and no test-class names in the user docs and the
 * chart's values (the evidence behind a statement belongs in CHANGELOG.md, docs/ARCHITECTURE.md, docs/PERFORMANCE.md,
 * docs/RELIABILITY.md or the tests themselves). An upstream reference names its project ({@code containerd#9531}).
 */
class UserDocsTest {
  private static final Path ROOT = Path.of("..");

  static final List<Path> USER_DOCS =
      List.of(
          Path.of("docs", "CADVISOR.md"),
          Path.of("docs", "COMPARE.md"),
          Path.of("docs", "DASHBOARDS.md"),
          Path.of("docs", "KUBELET.md"),
          Path.of("docs", "OTLP.md"),
          Path.of("docs", "RUNBOOKS.md"),
          Path.of("docs", "TROUBLESHOOTING.md"),
          Path.of("deploy", "helm", "winstats-exporter", "README.md"),
          Path.of("deploy", "helm", "winstats-exporter", "values.yaml"));

  /** "issue 32", "issue #32", "(issue 4)": this project's tracker, which users do not have. */
  private static final Pattern ISSUE = Pattern.compile("(?i)\\bissues? #?[0-9]+\\b");

  /** {@code CadvisorContractTest}, {@code OtlpPushIT}: a capitalised word with lower case after its first letter. */
  private static final Pattern TEST_CLASS = Pattern.compile("\\b[A-Z][a-z][A-Za-z0-9]*(Test|IT)\\b");

  @Test
  void userDocsNameNoIssueOfThisProjectAndNoTestClass() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path doc : USER_DOCS) {
      List<String> lines = Files.readAllLines(ROOT.resolve(doc));
      for (int i = 0; i < lines.size(); i++) {
        for (Pattern p : List.of(ISSUE, TEST_CLASS)) {
          Matcher m = p.matcher(lines.get(i));
          while (m.find()) {
            found.add(doc + ":" + (i + 1) + ": " + m.group());
          }
        }
      }
    }
    assertThat(found).as("issue numbers and test-class names in user docs").isEmpty();
  }

  @Test
  void thePatternsCatchWhatTheyAreFor() {
    assertThat(ISSUE.matcher("figures (issue 32: the IOPS)").find()).isTrue();
    assertThat(ISSUE.matcher("see issue #4").find()).isTrue();
    assertThat(ISSUE.matcher("containerd#9531 and kubernetes#122092").find()).isFalse();
    assertThat(TEST_CLASS.matcher("`CadvisorContractTest` fails").find()).isTrue();
    assertThat(TEST_CLASS.matcher("OtlpPushIT checks").find()).isTrue();
    assertThat(TEST_CLASS.matcher("a LIMIT, to EXIT, the Test suite").find()).isFalse();
  }
}
