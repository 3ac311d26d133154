package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** docs/DASHBOARDS.md names every panel with every query, and every rule: it stands in for screenshots. */
class DocsListEveryPanelTest {
  private static final Path DOC = Path.of("..", "docs", "DASHBOARDS.md");
  private static final Path GRAFANA = Path.of("src", "main", "resources", "grafana");
  private static final Path RULES = Path.of("src", "main", "resources", "prometheus");

  @Test
  void everyPanelTitleAndQueryIsDocumented() throws IOException {
    String doc = Files.readString(DOC);
    List<String> missing = new ArrayList<>();
    try (Stream<Path> files = Files.list(GRAFANA)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
        JsonNode dashboard = new ObjectMapper().readTree(f.toFile());
        checkPanels(dashboard.path("panels"), doc, f.getFileName().toString(), missing);
      }
    }
    assertThat(missing).as("regenerate docs/DASHBOARDS.md").isEmpty();
  }

  private static void checkPanels(JsonNode panels, String doc, String file, List<String> missing) {
    for (JsonNode panel : panels) {
      checkPanels(panel.path("panels"), doc, file, missing);
      if (panel.path("type").asText().equals("row")) {
        continue;
      }
      if (!doc.contains("### " + panel.path("title").asText())) {
        missing.add(file + ": panel " + panel.path("title").asText());
      }
      for (JsonNode target : panel.path("targets")) {
        if (!doc.contains(target.path("expr").asText())) {
          missing.add(file + ": query " + target.path("expr").asText());
        }
      }
    }
  }

  @Test
  void everyRuleIsDocumented() throws IOException {
    String doc = Files.readString(DOC);
    List<String> missing = new ArrayList<>();
    try (Stream<Path> files = Files.list(RULES)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".rules.yml")).toList()) {
        for (String line : Files.readAllLines(f)) {
          String t = line.strip();
          for (String key : new String[] {"- alert: ", "alert: ", "- record: ", "record: "}) {
            if (t.startsWith(key)) {
              String name = t.substring(key.length()).strip();
              if (!doc.contains("`" + name + "`")) {
                missing.add(f.getFileName() + ": " + name);
              }
              break;
            }
          }
        }
      }
    }
    assertThat(missing).as("regenerate docs/DASHBOARDS.md").isEmpty();
  }
}
