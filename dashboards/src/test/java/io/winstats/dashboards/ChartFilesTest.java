package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.winstats.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart carries its dashboards and rules as files of its own, not as links to this module's: Git for Windows
 * checks a link out as a text file holding its target ({@code core.symlinks=false}), and a chart installed from such
 * a checkout rendered no dashboard and an empty PrometheusRule without a word. The copies are held to the sources
 * here; {@code -Dchart.update=true} writes them again after a dashboard or a rule changed.
 */
class ChartFilesTest {
  private static final Path SOURCES = Path.of("src", "main", "resources");
  private static final Path CHART_FILES = HelmChart.DIR.resolve("files");
  private static final List<String> FOLDERS = List.of("grafana", "prometheus");

  @Test
  void theChartsCopiesAreTheDashboardsAndRulesOfThisModule() throws IOException {
    boolean update = Boolean.getBoolean("chart.update");
    for (String folder : FOLDERS) {
      Path source = SOURCES.resolve(folder);
      Path copy = CHART_FILES.resolve(folder);
      if (update) {
        try (Stream<Path> stale = Files.list(copy)) {
          for (Path f : stale.toList()) {
            Files.delete(f);
          }
        }
        for (String name : names(source)) {
          Files.copy(source.resolve(name), copy.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
      }
      assertThat(Files.isSymbolicLink(copy)).as("%s is a folder of files, not a link", copy).isFalse();
      assertThat(names(copy)).as("files of %s (-Dchart.update=true copies %s)", copy, source).isEqualTo(names(source));
      for (String name : names(source)) {
        assertThat(Files.readAllBytes(copy.resolve(name)))
            .as("%s differs from %s: run the dashboards tests with -Dchart.update=true", copy.resolve(name), source)
            .isEqualTo(Files.readAllBytes(source.resolve(name)));
      }
    }
  }

  @Test
  void theChartHoldsNoLink() throws IOException {
    try (Stream<Path> all = Files.walk(HelmChart.DIR)) {
      assertThat(all.filter(Files::isSymbolicLink).toList()).as("links in the chart").isEmpty();
    }
  }

  /**
   * What a Windows user gets: this commit cloned with {@code core.symlinks=false}, its chart rendered with the preset,
   * has a ConfigMap per dashboard and every rule group of the rule files.
   */
  @Test
  @Requires(tools = "git")
  void aCloneWithoutSymlinksRendersEveryDashboardAndRule(@TempDir Path dir) throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    Path clone = dir.resolve("clone");
    Tools.Result r = Tools.run(Duration.ofMinutes(2), List.of(
        "git", "clone", "-q", "--no-hardlinks", "-c", "core.symlinks=false", root.toString(), clone.toString()));
    assertThat(r.exitCode()).as(r.output()).isZero();
    Path chart = clone.resolve("deploy").resolve("helm").resolve("winstats-exporter");
    Path preset = chart.resolve("presets").resolve("kube-prometheus-stack.yaml");
    List<JsonNode> docs = HelmChart.parse(HelmChart.template(chart, List.of(preset)));

    Set<String> dashboards = new TreeSet<>();
    for (JsonNode configMap : HelmChart.ofKind(docs, "ConfigMap")) {
      configMap.path("data").fieldNames().forEachRemaining(k -> {
        if (k.endsWith(".json")) {
          dashboards.add(k);
        }
      });
    }
    assertThat(dashboards).as("dashboards rendered from the clone").isEqualTo(names(SOURCES.resolve("grafana")));

    Set<String> groups = new TreeSet<>();
    HelmChart.ofKind(docs, "PrometheusRule")
        .forEach(rule -> rule.at("/spec/groups").forEach(g -> groups.add(g.path("name").asText())));
    Set<String> expected = new TreeSet<>();
    for (String name : names(SOURCES.resolve("prometheus"))) {
      Rules.YAML.readTree(SOURCES.resolve("prometheus").resolve(name).toFile())
          .path("groups").forEach(g -> expected.add(g.path("name").asText()));
    }
    assertThat(expected).isNotEmpty();
    assertThat(groups).as("rule groups rendered from the clone").isEqualTo(expected);
  }

  private static Set<String> names(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.map(f -> f.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
