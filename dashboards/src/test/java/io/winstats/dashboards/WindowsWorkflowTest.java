package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the Windows workflow (.github/workflows/windows.yml) must keep, checked here because no Linux build runs it: every
 * test class the repository enables on Windows only is run by one of its jobs, which fails when that class did not
 * run or skipped a test (.github/scripts/assert-tests-ran.ps1 over the module's surefire reports); every job runs on
 * a pinned runner image; and every action it uses is pinned to a commit, as are the workflow's local actions.
 */
class WindowsWorkflowTest {
  private static final Path ROOT = Path.of("..");
  private static final Path WORKFLOW = ROOT.resolve(".github/workflows/windows.yml");
  private static final Pattern WINDOWS_ONLY_CLASS =
      Pattern.compile("@EnabledOnOs\\(\\{?\\s*OS\\.WINDOWS\\s*}?\\)\\s*(?:@\\w+(?:\\([^)]*\\))?\\s*)*(?:public\\s+)?"
          + "(?:final\\s+)?class\\s+(\\w+)");
  private static final Pattern ASSERTED =
      Pattern.compile("assert-tests-ran\\.ps1\\s+(\\S+)((?:\\s+\\w+)+)");
  private static final Pattern PINNED_ACTION = Pattern.compile("[\\w.-]+/[\\w.-]+@[0-9a-f]{40}");

  /** Every class-level {@code @EnabledOnOs(OS.WINDOWS)} test class, by simple name, with its module. */
  static Map<String, String> windowsOnlyTestClasses() throws IOException {
    Map<String, String> classes = new TreeMap<>();
    try (Stream<Path> modules = Files.list(ROOT)) {
      for (Path module : (Iterable<Path>) modules::iterator) {
        Path tests = module.resolve("src/test/java");
        if (!Files.isDirectory(tests)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(tests)) {
          for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
            Matcher m = WINDOWS_ONLY_CLASS.matcher(Files.readString(f));
            while (m.find()) {
              classes.put(m.group(1), module.getFileName().toString());
            }
          }
        }
      }
    }
    return classes;
  }

  /** The test classes each job asserts ran, by the surefire reports directory it reads them from. */
  static Map<String, List<String>> assertedByReports(JsonNode workflow) {
    Map<String, List<String>> asserted = new TreeMap<>();
    for (JsonNode job : workflow.path("jobs")) {
      for (JsonNode step : job.path("steps")) {
        Matcher m = ASSERTED.matcher(step.path("run").asText());
        while (m.find()) {
          asserted.computeIfAbsent(m.group(1), k -> new ArrayList<>()).addAll(List.of(m.group(2).trim().split("\\s+")));
        }
      }
    }
    return asserted;
  }

  @Test
  void everyWindowsOnlyTestClassIsRunAndAssertedByAJob() throws IOException {
    Map<String, String> windowsOnly = windowsOnlyTestClasses();
    Map<String, List<String>> asserted = assertedByReports(Rules.YAML.readTree(WORKFLOW.toFile()));

    assertThat(windowsOnly).as("the repository's Windows-only test classes").isNotEmpty();
    windowsOnly.forEach(
        (simpleName, module) ->
            assertThat(asserted.getOrDefault(module + "/target/surefire-reports", List.of()))
                .as("%s (%s) is asserted to have run, nothing skipped, over %s/target/surefire-reports", simpleName,
                    module, module)
                .contains(simpleName));
  }

  @Test
  void jobsRunOnAPinnedImageAndUseActionsPinnedToACommit() throws IOException {
    JsonNode workflow = Rules.YAML.readTree(WORKFLOW.toFile());
    List<JsonNode> steps = new ArrayList<>();
    workflow.path("jobs").forEach(job -> {
      assertThat(job.path("runs-on").asText()).as("runs-on").matches("windows-20\\d\\d");
      job.path("steps").forEach(steps::add);
    });
    Path localActions = ROOT.resolve(".github/actions");
    if (Files.isDirectory(localActions)) {
      try (Stream<Path> actions = Files.list(localActions)) {
        for (Path action : (Iterable<Path>) actions::iterator) {
          Rules.YAML.readTree(action.resolve("action.yml").toFile()).path("runs").path("steps").forEach(steps::add);
        }
      }
    }
    List<String> uses = steps.stream().map(s -> s.path("uses").asText()).filter(u -> !u.isEmpty()).toList();
    assertThat(uses).isNotEmpty().allSatisfy(u ->
        assertThat(u.startsWith("./.github/actions/") || PINNED_ACTION.matcher(u).matches())
            .as("%s: a local action or one pinned to a commit", u).isTrue());
  }
}
