package io.winstats.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The Prometheus rule files of this module. */
final class Rules {
  static final Path DIR = Path.of("src", "main", "resources", "prometheus");
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private Rules() {}

  /** One recording or alerting rule. */
  record Rule(String file, String group, String record, String alert, String expr, JsonNode node) {
    boolean isAlert() {
      return alert != null;
    }

    String name() {
      return isAlert() ? alert : record;
    }
  }

  static List<Path> files() {
    try (Stream<Path> s = Files.list(DIR)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".rules.yml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Rule> all() {
    List<Rule> out = new ArrayList<>();
    for (Path f : files()) {
      JsonNode doc;
      try {
        doc = YAML.readTree(f.toFile());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (JsonNode g : doc.path("groups")) {
        for (JsonNode r : g.path("rules")) {
          out.add(
              new Rule(
                  f.getFileName().toString(), g.path("name").asText(),
                  r.has("record") ? r.path("record").asText() : null, r.has("alert") ? r.path("alert").asText() : null,
                  r.path("expr").asText(), r));
        }
      }
    }
    return out;
  }
}
