package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One version for the daemon, its images and the chart (docs/RELEASING.md): a release version in the poms is the
 * chart's version and appVersion, the kustomize base's image tag and a dated CHANGELOG.md section; between releases
 * the poms carry a {@code -SNAPSHOT} and the chart keeps its last released version.
 */
class ReleaseVersionTest {
  private static final Path ROOT = Path.of("..");
  private static final Pattern SEMVER = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");

  /** The project's version: the root pom's own {@code <version>}, the first one at two spaces of indent. */
  static String mavenVersion() throws IOException {
    Matcher m = Pattern.compile("(?m)^  <version>([^<]+)</version>").matcher(Files.readString(ROOT.resolve("pom.xml")));
    assertThat(m.find()).as("the root pom's version").isTrue();
    return m.group(1);
  }

  @Test
  void theChartTheImagesAndTheChangelogCarryTheReleaseVersion() throws IOException {
    String maven = mavenVersion();
    assertThat(maven).as("the Maven version").matches(SEMVER.pattern() + "(-SNAPSHOT)?");
    JsonNode chart = Rules.YAML.readTree(HelmChart.DIR.resolve("Chart.yaml").toFile());
    String chartVersion = chart.path("version").asText();
    assertThat(chartVersion).as("Chart.yaml version").matches(SEMVER.pattern());
    assertThat(chart.path("appVersion").asText()).as("Chart.yaml appVersion").isEqualTo(chartVersion);
    String changelog = Files.readString(ROOT.resolve("CHANGELOG.md"));
    // docs/RELEASING.md: a version set on main but not tagged is still open, and what is merged before its tag goes
    // into its own section; [Unreleased] exists only once main has moved on to the next -SNAPSHOT.
    if (maven.endsWith("-SNAPSHOT")) {
      assertThat(changelog).as("CHANGELOG.md collects the next release's notes first").contains("\n## [Unreleased]\n");
      assertThat(changelog.indexOf("\n## [Unreleased]")).isLessThan(changelog.indexOf("\n## [" + chartVersion + "]"));
    } else {
      assertThat(changelog).as("version %s is not tagged yet: its notes go into its own section", maven)
          .doesNotContain("\n## [Unreleased]");
    }
    assertThat(changelog).as("a dated section for the chart's version")
        .containsPattern("\n## \\[" + Pattern.quote(chartVersion) + "\\] - \\d{4}-\\d{2}-\\d{2}\n");
    for (Path k : List.of(KustomizeBaseTest.DIR.resolve("kustomization.yaml"), KustomizeBaseTest.DIR.resolve("linux/kustomization.yaml"))) {
      Rules.YAML.readTree(k.toFile()).path("images").forEach(i ->
          assertThat(i.path("newTag").asText()).as("%s image tag of %s", k, i.path("name")).isEqualTo(chartVersion));
    }
    if (maven.endsWith("-SNAPSHOT")) {
      assertThat(compare(chartVersion, maven.substring(0, maven.length() - "-SNAPSHOT".length())))
          .as("the chart's last release %s precedes %s", chartVersion, maven).isNegative();
    } else {
      assertThat(chartVersion).as("a release: the chart is the Maven version").isEqualTo(maven);
    }
  }

  /**
   * Where the project lives, said everywhere a user or Artifact Hub looks: the POM's url, scm and licence, the chart's
   * home and sources, each image's org.opencontainers.image.source label, all one URL, the one whose registry
   * namespace (ghcr.io/winstats) the chart installs from; the chart's Artifact Hub image list carries the version.
   */
  @Test
  void theProjectsAddressIsTheSameInThePomTheChartAndTheImages() throws IOException {
    String url = "https://github.com/winstats/winstats-exporter";
    String pom = Files.readString(ROOT.resolve("pom.xml"));
    assertThat(pom).contains("<url>" + url + "</url>", "<name>Apache-2.0</name>",
        "<connection>scm:git:" + url + ".git</connection>");
    JsonNode chart = Rules.YAML.readTree(HelmChart.DIR.resolve("Chart.yaml").toFile());
    assertThat(chart.path("home").asText()).isEqualTo(url);
    assertThat(chart.path("sources")).extracting(JsonNode::asText).containsExactly(url);
    assertThat(chart.at("/annotations/artifacthub.io~1license").asText()).isEqualTo("Apache-2.0");
    JsonNode images = Rules.YAML.readTree(chart.at("/annotations/artifacthub.io~1images").asText());
    String version = chart.path("version").asText();
    assertThat(images.findValuesAsText("image")).contains(
        "ghcr.io/winstats/winstats-exporter:" + version, "ghcr.io/winstats/winstats-exporter-windows:" + version);
    JsonNode values = Rules.YAML.readTree(HelmChart.DIR.resolve("values.yaml").toFile());
    assertThat(values.at("/image/registry").asText() + "/" + values.at("/image/repository").asText())
        .isEqualTo("ghcr.io/winstats/winstats-exporter");
    for (String dockerfile : List.of("Dockerfile.linux", "Dockerfile.windows")) {
      assertThat(Files.readString(ROOT.resolve("deploy/images").resolve(dockerfile))).as(dockerfile)
          .contains("org.opencontainers.image.source=\"" + url + "\"", "org.opencontainers.image.licenses=\"Apache-2.0\"");
    }
    assertThat(Files.readString(HelmChart.DIR.resolve("README.md"))).contains(url);
  }

  /** The release workflow's first step: a tag that is the version passes, any other is refused with the reason. */
  @Test
  void theReleaseCheckAcceptsOnlyATagOfTheseVersions() throws IOException {
    Path check = ROOT.resolve("deploy/release/check-version");
    String chartVersion = Rules.YAML.readTree(HelmChart.DIR.resolve("Chart.yaml").toFile()).path("version").asText();
    Tools.Result bad = Tools.run(Duration.ofSeconds(30), List.of("bash", check.toString(), "v" + chartVersion + "9"));
    assertThat(bad.exitCode()).isEqualTo(1);
    assertThat(bad.output()).contains("Chart.yaml version is " + chartVersion, "CHANGELOG.md has no section");
    assertThat(Tools.run(Duration.ofSeconds(30), List.of("bash", check.toString(), chartVersion)).output())
        .contains("is not vMAJOR.MINOR.PATCH");
    Tools.Result tag = Tools.run(Duration.ofSeconds(30), List.of("bash", check.toString(), "v" + mavenVersion()));
    if (mavenVersion().endsWith("-SNAPSHOT")) {
      assertThat(tag.exitCode()).as("no release from a SNAPSHOT").isNotZero();
    } else {
      assertThat(tag.exitCode()).as(tag.output()).isZero();
      assertThat(tag.output().strip()).isEqualTo(mavenVersion());
    }
    assertThat(Files.readString(ROOT.resolve(".github/workflows/release.yml")))
        .as("the workflow runs the check on the tag").contains("deploy/release/check-version \"$GITHUB_REF_NAME\"");
  }

  private static int compare(String a, String b) {
    Matcher x = SEMVER.matcher(a);
    Matcher y = SEMVER.matcher(b);
    assertThat(x.matches() && y.matches()).isTrue();
    for (int i = 1; i <= 3; i++) {
      int c = Integer.compare(Integer.parseInt(x.group(i)), Integer.parseInt(y.group(i)));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }
}
