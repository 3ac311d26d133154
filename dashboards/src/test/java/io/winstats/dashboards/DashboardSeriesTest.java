package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every dashboard is well formed for current Grafana and queries only series the daemon emits: the names pinned by
 * the exporter's golden scrapes of /metrics plus the committed list of names seen in live scrapes of the real jar
 * (see {@link EmittedSeries}), and, for requests and limits only, kube-state-metrics.
 */
class DashboardSeriesTest {
  /** Series from kube-state-metrics that panels may show next to the daemon's, when it is scraped. */
  static final Set<String> KUBE_STATE_METRICS =
      Set.of("kube_pod_container_resource_requests", "kube_pod_container_resource_limits");
  /** Series Prometheus itself attaches to every target. */
  static final Set<String> PROMETHEUS_SCRAPE_SERIES = Set.of("up", "scrape_duration_seconds", "scrape_samples_scraped");

  static List<String> dashboards() {
    return Dashboards.files();
  }

  @Test
  void allThreeDashboardsExist() {
    assertThat(dashboards()).containsExactly("exporter-health.json", "node-overview.json", "pods-and-containers.json");
  }

  @ParameterizedTest
  @MethodSource("dashboards")
  void usesOnlyEmittedSeries(String dashboard) {
    JsonNode json = Dashboards.read(dashboard);
    Set<String> used = new TreeSet<>();
    Dashboards.queries(dashboard).forEach(q -> used.addAll(PromQl.metricNames(q.expr())));
    Dashboards.queryVariables(json).forEach(v -> used.addAll(PromQl.metricNames(Dashboards.variableQuery(v))));
    Set<String> known = new TreeSet<>(EmittedSeries.all());
    known.addAll(KUBE_STATE_METRICS);
    known.addAll(PROMETHEUS_SCRAPE_SERIES);
    assertThat(used).isNotEmpty();
    assertThat(known).as("series the daemon emits (golden + live list)").containsAll(used);
  }

  @ParameterizedTest
  @MethodSource("dashboards")
  void isWellFormed(String dashboard) {
    JsonNode json = Dashboards.read(dashboard);
    assertThat(json.path("uid").asText()).matches("winstats-[a-z-]+");
    assertThat(json.path("title").asText()).startsWith("winstats / ");
    assertThat(json.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(36);
    Set<Integer> ids = new HashSet<>();
    for (JsonNode panel : Dashboards.panels(json)) {
      assertThat(ids.add(panel.path("id").asInt())).as("unique panel id %s", panel.path("id")).isTrue();
      assertThat(panel.path("id").asInt()).isPositive();
      assertThat(panel.path("gridPos").path("w").asInt()).as("width of %s", panel.path("title")).isBetween(1, 24);
      if (panel.path("type").asText().equals("row")) {
        continue;
      }
      assertThat(panel.at("/fieldConfig/defaults/unit").asText()).as("unit of %s", panel.path("title")).isNotBlank();
      assertThat(panel.at("/datasource/uid").asText()).isEqualTo("${datasource}");
      assertThat(panel.path("targets")).as("targets of %s", panel.path("title")).isNotEmpty();
      Set<String> refIds = new HashSet<>();
      for (JsonNode t : panel.path("targets")) {
        assertThat(refIds.add(t.path("refId").asText())).isTrue();
        assertThat(t.path("expr").asText()).isNotBlank();
        assertThat(t.at("/datasource/uid").asText()).isEqualTo("${datasource}");
      }
    }
    List<String> variables = json.at("/templating/list").findValuesAsText("name");
    assertThat(variables).startsWith("datasource", "cluster", "job", "node");
    if (dashboard.equals("pods-and-containers.json")) {
      assertThat(variables).contains("namespace", "pod");
    }
    for (JsonNode v : Dashboards.queryVariables(json)) {
      assertThat(v.at("/datasource/uid").asText()).isEqualTo("${datasource}");
      assertThat(Dashboards.variableQuery(v)).startsWith("label_values(");
    }
  }

  @Test
  void uidsAreUnique() {
    Set<String> uids = new HashSet<>();
    dashboards().forEach(d -> assertThat(uids.add(Dashboards.read(d).path("uid").asText())).isTrue());
  }

  /** The name check itself bites: a name the daemon does not emit is caught. */
  @Test
  void anUnknownNameIsCaught() {
    assertThat(EmittedSeries.all())
        .contains("container_cpu_usage_seconds_total", "windows_cpu_time_total", "node_cpu_seconds_total",
            "winstats_exporter_collector_success", "jvm_memory_used_bytes")
        .doesNotContain("container_accelerator_duty_cycle", "windows_net_route_info",
            "windows_logical_disk_readonly");
  }
}
