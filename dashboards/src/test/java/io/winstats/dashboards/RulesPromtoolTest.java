package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.testing.Requires;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The rule files pass {@code promtool check rules} and their unit tests ({@code promtool test rules}, every alert
 * firing and not firing), every alert carries its guidance, and every series a rule reads is one the daemon emits,
 * one of our recording rules, or an explicitly external one.
 */
class RulesPromtoolTest {
  private static final Path UNIT_TESTS = Path.of("src", "test", "resources", "prometheus", "winstats-rules.test.yml");

  @Test
  @Requires(tools = "promtool")
  void promtoolChecksTheRules() {
    List<String> command = new ArrayList<>(List.of(Tools.path("promtool").toString(), "check", "rules"));
    Rules.files().forEach(f -> command.add(f.toString()));
    Tools.Result r = Tools.run(Duration.ofSeconds(60), command);
    System.out.println(r.output());
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS").doesNotContain("FAILED");
  }

  @Test
  @Requires(tools = "promtool")
  void promtoolUnitTestsPass() {
    Tools.Result r =
        Tools.run(
            Duration.ofSeconds(60), List.of(Tools.path("promtool").toString(), "test", "rules", UNIT_TESTS.toString()));
    System.out.println(r.output());
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS");
  }

  /** The unit tests name every alert at least twice: once expecting no alert, once expecting it to fire. */
  @Test
  void everyAlertIsUnitTestedFiringAndNotFiring() throws Exception {
    var tests = Rules.YAML.readTree(UNIT_TESTS.toFile());
    Set<String> firing = new TreeSet<>();
    Set<String> quiet = new TreeSet<>();
    for (var t : tests.path("tests")) {
      for (var a : t.path("alert_rule_test")) {
        (a.path("exp_alerts").isEmpty() ? quiet : firing).add(a.path("alertname").asText());
      }
    }
    Set<String> alerts = new TreeSet<>();
    Rules.all().stream().filter(Rules.Rule::isAlert).forEach(r -> alerts.add(r.alert()));
    assertThat(alerts).hasSize(10);
    assertThat(firing).isEqualTo(alerts);
    assertThat(quiet).isEqualTo(alerts);
  }

  /**
   * Every alert links its runbook as the ecosystem does (runbook_url, as kubernetes-mixin and node-mixin alerts), into
   * docs/RUNBOOKS.md, where a section of the alert's name has numbered steps; the steps name the namespace the docs
   * install into, never the stack's monitoring.
   */
  @Test
  void everyAlertLinksItsRunbookInDocs() throws java.io.IOException {
    String runbooks = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "RUNBOOKS.md"));
    String base = "https://github.com/winstats/winstats-exporter/blob/main/docs/RUNBOOKS.md#";
    for (Rules.Rule r : Rules.all()) {
      if (!r.isAlert()) {
        continue;
      }
      var a = r.node().path("annotations");
      assertThat(a.has("runbook")).as("no multi-line runbook annotation on %s", r.alert()).isFalse();
      assertThat(a.path("runbook_url").asText()).as("runbook_url of %s", r.alert())
          .isEqualTo(base + r.alert().toLowerCase(java.util.Locale.ROOT));
      int at = runbooks.indexOf("\n## " + r.alert() + "\n");
      assertThat(at).as("docs/RUNBOOKS.md has a section %s (GitHub's anchor is the lower-cased heading)", r.alert())
          .isNotNegative();
      int next = runbooks.indexOf("\n## ", at + 1);
      String section = runbooks.substring(at, next < 0 ? runbooks.length() : next);
      assertThat(section).as("steps of %s", r.alert()).contains("\n1. ", "\n2. ");
    }
    assertThat(runbooks).doesNotContain("-n monitoring").contains("-n winstats-exporter");
  }

  @Test
  void everyAlertHasGuidanceADurationAndOneThreshold() {
    for (Rules.Rule r : Rules.all()) {
      if (!r.isAlert()) {
        continue;
      }
      var a = r.node().path("annotations");
      assertThat(a.path("summary").asText()).as("summary of %s", r.alert()).isNotBlank();
      assertThat(a.path("description").asText()).as("description of %s", r.alert()).isNotBlank();
      assertThat(r.node().path("for").asText()).as("for of %s", r.alert()).matches("\\d+m");
      assertThat(r.node().at("/labels/severity").asText()).isIn("warning", "critical");
      assertThat(PromQl.withoutThreshold(r.expr())).isNotBlank();
    }
  }

  @Test
  void rulesReadOnlyEmittedRecordedOrExternalSeries() {
    Set<String> known = new TreeSet<>(EmittedSeries.all());
    known.addAll(DashboardSeriesTest.KUBE_STATE_METRICS);
    known.add("up");
    Rules.all().stream().filter(r -> !r.isAlert()).forEach(r -> known.add(r.record()));
    Set<String> used = new TreeSet<>();
    Rules.all().forEach(r -> used.addAll(PromQl.metricNames(r.expr())));
    assertThat(known).containsAll(used);
    assertThat(used).contains("winstats_exporter_sample_age_seconds", "container_scrape_error", "up");
  }
}
