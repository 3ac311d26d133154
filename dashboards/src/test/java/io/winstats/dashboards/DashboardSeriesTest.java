package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every dashboard is well formed for current Grafana and queries only series the daemon emits (as pinned by the
 * exporter's golden scrapes).
 */
class DashboardSeriesTest {
  private static final Pattern METRIC_NAME = Pattern.compile("\\b([a-z_][a-z0-9_]*)\\s*(\\{|\\[)");
  private static final Set<String> PROMQL_WORDS =
      Set.of("rate", "irate", "sum", "max", "min", "avg", "count", "by", "without", "changes", "increase",
          "label_values", "topk", "bottomk", "on", "ignoring", "group_left", "group_right", "delta", "deriv");

  @ParameterizedTest
  @ValueSource(strings = {"pods-and-containers.json"})
  void usesOnlyEmittedSeries(String dashboard) throws IOException {
    JsonNode json = read(dashboard);
    Set<String> emitted = emittedSeries();
    Set<String> used = new TreeSet<>();
    for (String expr : expressions(json)) {
      Matcher m = METRIC_NAME.matcher(expr);
      while (m.find()) {
        if (!PROMQL_WORDS.contains(m.group(1))) {
          used.add(m.group(1));
        }
      }
    }
    assertThat(used).isNotEmpty();
    assertThat(emitted).containsAll(used);
  }

  @ParameterizedTest
  @ValueSource(strings = {"pods-and-containers.json"})
  void isWellFormed(String dashboard) throws IOException {
    JsonNode json = read(dashboard);
    assertThat(json.path("uid").asText()).isNotBlank();
    assertThat(json.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(36);
    Set<Integer> ids = new HashSet<>();
    for (JsonNode panel : json.path("panels")) {
      assertThat(ids.add(panel.path("id").asInt())).as("unique panel id %s", panel.path("id")).isTrue();
      assertThat(panel.at("/fieldConfig/defaults/unit").asText()).as("unit of %s", panel.path("title")).isNotBlank();
      assertThat(panel.at("/datasource/uid").asText()).isEqualTo("${datasource}");
    }
    List<String> variables = json.at("/templating/list").findValuesAsText("name");
    assertThat(variables).contains("datasource", "node", "namespace", "pod");
  }

  private static JsonNode read(String dashboard) throws IOException {
    try (InputStream in = DashboardSeriesTest.class.getResourceAsStream("/grafana/" + dashboard)) {
      assertThat(in).as(dashboard).isNotNull();
      return new ObjectMapper().readTree(in);
    }
  }

  private static List<String> expressions(JsonNode dashboard) {
    List<String> out = new ArrayList<>();
    dashboard.path("panels").forEach(p -> p.path("targets").forEach(t -> out.add(t.path("expr").asText())));
    dashboard.at("/templating/list").forEach(v -> out.add(v.path("query").asText()));
    return out;
  }

  /** Series names in the exporter's golden scrapes (`_total` as on the wire). */
  private static Set<String> emittedSeries() throws IOException {
    Path golden = Path.of("..", "exporter", "src", "test", "resources", "golden", "prometheus");
    Set<String> names = new TreeSet<>();
    try (Stream<Path> files = Files.list(golden)) {
      for (Path f : files.toList()) {
        for (String line : Files.readAllLines(f)) {
          if (!line.isEmpty() && !line.startsWith("#")) {
            names.add(line.split("[{ ]", 2)[0]);
          }
        }
      }
    }
    assertThat(names).as("golden scrapes in %s", golden).isNotEmpty();
    return names;
  }
}
