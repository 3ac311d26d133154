package io.winstats.summary;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The Summary goldens are written by our own code, so comparing with them cannot catch a field name we got wrong.
 * This holds every golden to the kubelet's own field list (stats/v1alpha1 types.go struct tags, pinned with its
 * commit in {@code upstream/kubelet-stats-v1alpha1-fields.txt}): every key is a field of its type, and every field
 * Go always writes (no omitempty) is there.
 */
class UpstreamSummaryFieldsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path GOLDEN = Path.of("src", "test", "resources", "golden", "summary");

  private record Field(boolean alwaysWritten, @Nullable String type) {}

  private static final Map<String, Map<String, Field>> KUBELET = kubeletFields();

  @Test
  void everyGoldenUsesOnlyKubeletFieldsAndHasEveryAlwaysWrittenOne() throws IOException {
    List<Path> goldens;
    try (Stream<Path> files = Files.list(GOLDEN)) {
      goldens = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    assertThat(goldens).hasSizeGreaterThanOrEqualTo(3);
    for (Path golden : goldens) {
      assertThat(problems(JSON.readTree(golden.toFile()))).as(golden.toString()).isEmpty();
    }
  }

  @Test
  void aMisspelledOrMissingFieldIsFound() throws IOException {
    JsonNode summary = JSON.readTree(
        "{\"node\": {\"nodeName\": \"n\", \"startTime\": \"t\", \"cpu\": {\"time\": \"t\", \"usageNanocores\": 1}},"
            + " \"pods\": [{\"podRef\": {\"name\": \"p\", \"namespace\": \"d\", \"uid\": \"u\"}, \"startTime\": \"t\"}]}");

    assertThat(problems(summary))
        .containsExactly("$.node.cpu.usageNanocores: not a CPUStats field", "$.pods[0]: PodStats lacks containers");
  }

  private static List<String> problems(JsonNode summary) {
    List<String> problems = new ArrayList<>();
    walk("Summary", summary, "$", problems);
    return problems;
  }

  private static void walk(String type, JsonNode value, String path, List<String> problems) {
    if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        walk(type, value.get(i), path + "[" + i + "]", problems);
      }
      return;
    }
    Map<String, Field> fields = KUBELET.get(type);
    for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      Field field = fields.get(e.getKey());
      if (field == null) {
        problems.add(path + "." + e.getKey() + ": not a " + type + " field");
      } else if (field.type() != null && !e.getValue().isNull()) {
        walk(field.type(), e.getValue(), path + "." + e.getKey(), problems);
      }
    }
    fields.forEach((name, field) -> {
      if (field.alwaysWritten() && !value.has(name)) {
        problems.add(path + ": " + type + " lacks " + name);
      }
    });
  }

  private static Map<String, Map<String, Field>> kubeletFields() {
    Map<String, Map<String, Field>> types = new LinkedHashMap<>();
    try (InputStream in = UpstreamSummaryFieldsTest.class.getResourceAsStream("/upstream/kubelet-stats-v1alpha1-fields.txt")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).forEach(line -> {
        String[] p = line.trim().split("\\s+");
        boolean always = p[1].startsWith("!");
        types.computeIfAbsent(p[0], t -> new LinkedHashMap<>())
            .put(always ? p[1].substring(1) : p[1], new Field(always, p.length > 2 ? p[2] : null));
      });
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return types;
  }
}
