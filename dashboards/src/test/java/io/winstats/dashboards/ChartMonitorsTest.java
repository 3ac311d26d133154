package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.winstats.testing.Requires;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The monitoring.coreos.com objects the chart renders, checked by Prometheus' own tool: every ServiceMonitor becomes
 * the scrape configs the Prometheus Operator generates ({@link OperatorScrapeConfigs}) and {@code promtool check
 * config} reads them (relabel actions, regexes, label names, durations), and the PrometheusRule's groups pass
 * {@code promtool check rules}. The CRDs' own OpenAPI schemas are not committed here; DashboardsOnPrometheusIT runs
 * the preset's scrape configs in a real Prometheus.
 */
class ChartMonitorsTest {
  static List<List<Path>> valueSetsWithMonitors() throws IOException {
    List<List<Path>> sets = new ArrayList<>();
    for (List<Path> set : HelmChartTest.valueSets()) {
      if (!HelmChart.ofKind(HelmChart.objects(set), "ServiceMonitor").isEmpty()) {
        sets.add(set);
      }
    }
    assertThat(sets).as("the preset and ci/web-config-values.yaml").hasSizeGreaterThanOrEqualTo(2);
    return sets;
  }

  @ParameterizedTest
  @MethodSource("valueSetsWithMonitors")
  @Requires(tools = "promtool")
  void theOperatorsScrapeConfigsOfEveryServiceMonitorPassPromtool(List<Path> values, @TempDir Path dir) throws IOException {
    List<JsonNode> docs = HelmChart.objects(values);
    ObjectNode config = Rules.YAML.createObjectNode();
    ArrayNode jobs = config.putArray("scrape_configs");
    for (JsonNode monitor : HelmChart.ofKind(docs, "ServiceMonitor")) {
      String name = monitor.at("/metadata/name").asText();
      JsonNode service = one(docs, "Service", name);
      JsonNode daemonSet = one(docs, "DaemonSet", name);
      jobs.addAll(OperatorScrapeConfigs.serviceMonitor(monitor, List.of(new OperatorScrapeConfigs.Target("127.0.0.1:9844",
          OperatorScrapeConfigs.discoveredPod(service, daemonSet, "node-a", service.at("/spec/ports/0/name").asText())))));
    }
    Path file = dir.resolve("prometheus.yml");
    Rules.YAML.writeValue(file.toFile(), config);
    Tools.Result r = Tools.run(Duration.ofSeconds(60), List.of(Tools.path("promtool").toString(), "check", "config", file.toString()));
    assertThat(r.exitCode()).as("promtool check config %s\n%s", values, r.output()).isZero();
    assertThat(jobs).hasSizeGreaterThanOrEqualTo(1);
  }

  @Test
  @Requires(tools = "promtool")
  void thePrometheusRulePassesPromtool(@TempDir Path dir) throws IOException {
    JsonNode rule = HelmChart.ofKind(HelmChart.objects(List.of(HelmChart.PRESET)), "PrometheusRule").get(0);
    Path file = dir.resolve("rules.yml");
    Rules.YAML.writeValue(file.toFile(), rule.path("spec"));
    Tools.Result r = Tools.run(Duration.ofSeconds(60), List.of(Tools.path("promtool").toString(), "check", "rules", file.toString()));
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS");
  }

  @Test
  @Requires(tools = "promtool")
  void promtoolRefusesABadRelabelingAUserCouldGive(@TempDir Path dir) throws IOException {
    Path values = java.nio.file.Files.writeString(dir.resolve("bad.yaml"),
        "prometheus:\n  monitor:\n    enabled: true\n    metricRelabelings:\n      - {sourceLabels: [__name__], regex: 'windows_(', action: drop}\n");
    List<JsonNode> docs = HelmChart.objects(List.of(values));
    JsonNode monitor = HelmChart.ofKind(docs, "ServiceMonitor").get(0);
    ObjectNode config = Rules.YAML.createObjectNode();
    config.putArray("scrape_configs").addAll(OperatorScrapeConfigs.serviceMonitor(monitor, List.of()));
    Path file = dir.resolve("prometheus.yml");
    Rules.YAML.writeValue(file.toFile(), config);
    Tools.Result r = Tools.run(Duration.ofSeconds(60), List.of(Tools.path("promtool").toString(), "check", "config", file.toString()));
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.output()).contains("windows_(");
  }

  private static JsonNode one(List<JsonNode> docs, String kind, String name) {
    return HelmChart.ofKind(docs, kind).stream()
        .filter(d -> d.at("/metadata/name").asText().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
  }
}
