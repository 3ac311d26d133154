package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.exporter.ExporterCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * What users read is written for them: no project issue numbers and no test-class names in the user docs, the chart's
 * values, notes and presets, the generated schema (which carries the daemon's help texts) and the daemon's {@code
 * --help} (the evidence behind a statement belongs in CHANGELOG.md, docs/ARCHITECTURE.md, docs/VERIFICATION.md,
 * docs/PERFORMANCE.md, docs/RELIABILITY.md or the tests themselves). An upstream reference names its project ({@code
 * containerd#9531}).
 */
class UserDocsTest {
  private static final Path ROOT = Path.of("..");

  static final List<Path> USER_DOCS =
      List.of(
          Path.of("README.md"),
          Path.of("docs", "CADVISOR.md"),
          Path.of("docs", "COMPARE.md"),
          Path.of("docs", "DASHBOARDS.md"),
          Path.of("docs", "DEPLOYMENT.md"),
          Path.of("docs", "KUBELET.md"),
          Path.of("docs", "NODE-PAGE.md"),
          Path.of("docs", "OTLP.md"),
          Path.of("docs", "RUNBOOKS.md"),
          Path.of("docs", "TROUBLESHOOTING.md"),
          Path.of("deploy", "helm", "winstats-exporter", "README.md"),
          Path.of("deploy", "helm", "winstats-exporter", "values.yaml"),
          Path.of("deploy", "helm", "winstats-exporter", "values.schema.json"),
          Path.of("deploy", "helm", "winstats-exporter", "templates", "NOTES.txt"),
          Path.of("deploy", "helm", "winstats-exporter", "presets", "kube-prometheus-stack.yaml"),
          Path.of("deploy", "helm", "winstats-exporter", "presets", "kube-prometheus-stack-values.yaml"));

  /**
   * docs/*.md that are not for users: the code map and the pages of measurements and evidence, which name tests and
   * runs on purpose. A new page is a user doc unless it is added here.
   */
  static final List<String> CONTRIBUTOR_PAGES =
      List.of("ARCHITECTURE.md", "PERFORMANCE.md", "RELEASING.md", "RELIABILITY.md", "VERIFICATION.md");

  /**
   * "issue 32", "issue #32", "(issue 4)", "#32", "PR #12": this project's tracker, which users do not have. A number
   * right after a word, a slash or a dash is an upstream reference ({@code containerd#9531}) or an anchor.
   */
  private static final Pattern ISSUE = Pattern.compile("(?i)\\bissues? #?[0-9]+\\b|(?<![\\w/#-])#[0-9]+\\b");

  /** {@code CadvisorContractTest}, {@code OtlpPushIT}: a capitalised word with lower case after its first letter. */
  private static final Pattern TEST_CLASS = Pattern.compile("\\b[A-Z][a-z][A-Za-z0-9]*(Test|IT)\\b");

  @Test
  void userDocsNameNoIssueOfThisProjectAndNoTestClass() throws IOException {
    List<String> found = new ArrayList<>();
    for (Path doc : USER_DOCS) {
      found.addAll(references(doc.toString(), Files.readAllLines(ROOT.resolve(doc))));
    }
    assertThat(found).as("issue numbers and test-class names in user docs").isEmpty();
  }

  /** A Markdown link to a section: {@code [text](FILE.md#anchor)} or {@code [text](#anchor)}. */
  private static final Pattern SECTION_LINK = Pattern.compile("\\]\\(([^)\\s#]*\\.md)?#([^)\\s]+)\\)");

  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");

  private static final Pattern EXPLICIT_ANCHOR = Pattern.compile("<a id=\"([^\"]+)\"></a>");

  /** The docs link to one statement instead of restating it, so a renamed heading must not leave a dead link. */
  @Test
  void everyLinkToASectionFindsItsHeading() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path doc : USER_DOCS) {
      if (!doc.toString().endsWith(".md")) {
        continue;
      }
      Path file = ROOT.resolve(doc);
      Matcher link = SECTION_LINK.matcher(Files.readString(file));
      while (link.find()) {
        Path target = link.group(1) == null ? file : file.resolveSibling(link.group(1)).normalize();
        if (!Files.exists(target) || !anchors(target).contains(link.group(2))) {
          broken.add(doc + ": " + link.group());
        }
      }
    }
    assertThat(broken).as("links to a section that no heading of the target gives").isEmpty();
  }

  @Test
  void anAnchorIsTheHeadingAsGitHubWritesIt() throws IOException {
    assertThat(anchors(ROOT.resolve(Path.of("docs", "DEPLOYMENT.md"))))
        .contains("windows-pod-figures-the-default-source-and-what-it-costs-the-kubelet", "on-kubernetes")
        .doesNotContain("windows-pod-figures", "Windows pod figures: the default source and what it costs the kubelet");
  }

  /** GitHub's anchors of a Markdown file: headings outside code fences, lower-cased, punctuation dropped. */
  private static Set<String> anchors(Path markdown) throws IOException {
    Set<String> found = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(markdown)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      Matcher explicit = EXPLICIT_ANCHOR.matcher(line);
      while (explicit.find()) {
        found.add(explicit.group(1));
      }
      Matcher heading = HEADING.matcher(line);
      if (!fenced && heading.matches()) {
        String slug =
            heading.group(1).strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
        int before = seen.merge(slug, 1, Integer::sum) - 1;
        found.add(before == 0 ? slug : slug + "-" + before);
      }
    }
    return found;
  }

  @Test
  void theDaemonsHelpNamesNoIssueOfThisProjectAndNoTestClass() {
    CommandLine cli = ExporterCommand.commandLine(config -> 0);
    List<String> found = new ArrayList<>(references("--help", cli.getUsageMessage().lines().toList()));
    cli.getSubcommands()
        .forEach((name, sub) -> found.addAll(references(name + " --help", sub.getUsageMessage().lines().toList())));
    assertThat(found).as("issue numbers and test-class names in --help").isEmpty();
  }

  @Test
  void everyDocsPageIsAUserDocOrAContributorPage() throws IOException {
    List<String> pages;
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      pages = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".md")).sorted().toList();
    }
    List<String> userPages =
        USER_DOCS.stream().filter(d -> d.getNameCount() == 2 && d.startsWith("docs"))
            .map(d -> d.getFileName().toString()).toList();
    assertThat(pages).as("docs/*.md: each listed in USER_DOCS or CONTRIBUTOR_PAGES")
        .allMatch(p -> userPages.contains(p) || CONTRIBUTOR_PAGES.contains(p));
  }

  private static List<String> references(String where, List<String> lines) {
    List<String> found = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      for (Pattern p : List.of(ISSUE, TEST_CLASS)) {
        Matcher m = p.matcher(lines.get(i));
        while (m.find()) {
          found.add(where + ":" + (i + 1) + ": " + m.group());
        }
      }
    }
    return found;
  }

  @Test
  void thePatternsCatchWhatTheyAreFor() {
    assertThat(ISSUE.matcher("figures (issue 32: the IOPS)").find()).isTrue();
    assertThat(ISSUE.matcher("see issue #4").find()).isTrue();
    assertThat(ISSUE.matcher("containerd#9531 and kubernetes#122092").find()).isFalse();
    assertThat(ISSUE.matcher("fixed in #32").find()).isTrue();
    assertThat(ISSUE.matcher("(#32)").find()).isTrue();
    assertThat(ISSUE.matcher("containerd PR #10010").find()).isTrue();
    assertThat(ISSUE.matcher("Azure/AKS#4091, [the section](DEPLOYMENT.md#windows-figures)").find()).isFalse();
    assertThat(TEST_CLASS.matcher("`CadvisorContractTest` fails").find()).isTrue();
    assertThat(TEST_CLASS.matcher("OtlpPushIT checks").find()).isTrue();
    assertThat(TEST_CLASS.matcher("a LIMIT, to EXIT, the Test suite").find()).isFalse();
  }
}
