package io.winstats.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The Grafana dashboards of this module and the queries in them. */
final class Dashboards {
  static final Path DIR = Path.of("src", "main", "resources", "grafana");
  private static final ObjectMapper JSON = new ObjectMapper();

  private Dashboards() {}

  /** One query of one panel. */
  record PanelQuery(String dashboard, int panelId, String panelTitle, String refId, String expr) {
    /** {@code uid / title / refId}, the key of expected-empty lists. */
    String key() {
      return dashboard + " / " + panelTitle + " / " + refId;
    }
  }

  /** File names of every dashboard, sorted. */
  static List<String> files() {
    try (Stream<Path> s = Files.list(DIR)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode read(String file) {
    try {
      return JSON.readTree(DIR.resolve(file).toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Panels, with the panels of collapsed rows. */
  static List<JsonNode> panels(JsonNode dashboard) {
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode p : dashboard.path("panels")) {
      out.add(p);
      p.path("panels").forEach(out::add);
    }
    return out;
  }

  static List<PanelQuery> queries(String file) {
    JsonNode d = read(file);
    List<PanelQuery> out = new ArrayList<>();
    for (JsonNode p : panels(d)) {
      for (JsonNode t : p.path("targets")) {
        out.add(
            new PanelQuery(
                d.path("uid").asText(), p.path("id").asInt(), p.path("title").asText(), t.path("refId").asText(),
                t.path("expr").asText()));
      }
    }
    return out;
  }

  /** The query text of each template variable of type query, in order. */
  static List<JsonNode> queryVariables(JsonNode dashboard) {
    List<JsonNode> out = new ArrayList<>();
    dashboard.at("/templating/list").forEach(v -> {
      if (v.path("type").asText().equals("query")) {
        out.add(v);
      }
    });
    return out;
  }

  static String variableQuery(JsonNode variable) {
    JsonNode q = variable.path("query");
    return q.isObject() ? q.path("query").asText() : q.asText();
  }
}
