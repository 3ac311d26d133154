package io.winstats.exporter;

import com.fasterxml.jackson.databind.JsonNode;
import io.winstats.exporter.http.OperatorFiles;
import io.winstats.perfcounters.counters.CustomCounter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The YAML configuration file: every setting {@link Settings} declares for it, nested by its dots ({@code web:
 * {listen-address: ":9844"}}) or written with them ({@code web.listen-address: ":9844"}), plus the {@code perfcounters}
 * list of custom PDH counters. A flag given on the command line overrides the file. Every problem is collected, none is
 * fatal alone.
 */
final class ConfigFile {
  /** The keys a file may set: the names of the settings {@link Settings} declares for it. */
  static final Set<String> KEYS =
      Settings.inFile().stream().map(Setting::name).collect(Collectors.toUnmodifiableSet());

  static final String PERFCOUNTERS = "perfcounters";

  private final @Nullable Path path;
  private final Map<String, String> values;
  private final List<CustomCounter> customCounters;

  private ConfigFile(@Nullable Path path, Map<String, String> values, List<CustomCounter> customCounters) {
    this.path = path;
    this.values = values;
    this.customCounters = customCounters;
  }

  static ConfigFile empty() {
    return new ConfigFile(null, Map.of(), List.of());
  }

  /** The file read, or null for {@link #empty()}. */
  @Nullable Path path() {
    return path;
  }

  /** Reads {@code file}, adding every problem to {@code problems}; what could be read is kept. */
  static ConfigFile read(Path file, List<String> problems) {
    JsonNode root;
    try {
      root = OperatorFiles.readYaml(file);
    } catch (OperatorFiles.Unreadable e) {
      problems.add(file + ": " + e.getMessage());
      return empty();
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      return empty();
    }
    if (!root.isObject()) {
      problems.add(file + ": the top level must be a mapping of settings");
      return empty();
    }
    Map<String, String> values = new TreeMap<>();
    List<CustomCounter> counters = new ArrayList<>();
    for (Map.Entry<String, JsonNode> field : root.properties()) {
      if (field.getKey().equals(PERFCOUNTERS)) {
        counters.addAll(customCounters(file, field.getValue(), problems));
      } else {
        flatten(file, field.getKey(), field.getValue(), values, problems);
      }
    }
    return new ConfigFile(file, values, List.copyOf(counters));
  }

  private static void flatten(
      Path file, String key, JsonNode node, Map<String, String> values, List<String> problems) {
    if (node.isObject()) {
      node.properties().forEach(f -> flatten(file, key + "." + f.getKey(), f.getValue(), values, problems));
      return;
    }
    if (!KEYS.contains(key)) {
      problems.add(
          file + ": unknown setting '" + key + "'; known: " + String.join(", ", new TreeSet<>(KEYS)) + ", "
              + PERFCOUNTERS);
      return;
    }
    if (!node.isValueNode() || node.isNull()) {
      problems.add(file + ": '" + key + "' must be a single value");
      return;
    }
    values.put(key, node.asText());
  }

  private static List<CustomCounter> customCounters(Path file, JsonNode list, List<String> problems) {
    List<CustomCounter> out = new ArrayList<>();
    if (!list.isArray()) {
      problems.add(file + ": '" + PERFCOUNTERS + "' must be a list");
      return out;
    }
    Set<String> known = Set.of("path", "name", "type", "labels", "instance-label");
    for (int i = 0; i < list.size(); i++) {
      JsonNode entry = list.get(i);
      String where = file + ": " + PERFCOUNTERS + "[" + i + "]";
      if (!entry.isObject()) {
        problems.add(where + ": must be a mapping with path, name and type");
        continue;
      }
      List<String> unknown = new ArrayList<>();
      entry.fieldNames().forEachRemaining(n -> {
        if (!known.contains(n)) {
          unknown.add(n);
        }
      });
      if (!unknown.isEmpty()) {
        problems.add(where + ": unknown keys " + unknown + "; known: path, name, type, labels, instance-label");
        continue;
      }
      String type = entry.path("type").asText("gauge").toUpperCase(Locale.ROOT);
      if (!type.equals("GAUGE") && !type.equals("COUNTER")) {
        problems.add(where + ": type must be gauge or counter, not '" + entry.path("type").asText() + "'");
        continue;
      }
      Map<String, String> labels = new LinkedHashMap<>();
      entry.path("labels").properties().forEach(l -> labels.put(l.getKey(), l.getValue().asText()));
      try {
        out.add(
            new CustomCounter(
                text(entry, "path"),
                text(entry, "name"),
                CustomCounter.Type.valueOf(type),
                labels,
                entry.hasNonNull("instance-label") ? entry.get("instance-label").asText() : null));
      } catch (RuntimeException e) {
        problems.add(where + ": " + e.getMessage());
      }
    }
    return out;
  }

  private static String text(JsonNode entry, String key) {
    if (!entry.hasNonNull(key)) {
      throw new IllegalArgumentException("'" + key + "' is required");
    }
    return entry.get(key).asText();
  }

  /** The file's value for a flag (without dashes), or {@code null}. */
  @Nullable String value(String key) {
    return values.get(key);
  }

  List<CustomCounter> customCounters() {
    return customCounters;
  }

  /** The effective configuration as YAML, in the file's own form (for {@code --print-config}). */
  static String toYaml(ExporterConfig config) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Setting<?> setting : Settings.inFile()) {
      Object value = setting.printedValue(config);
      if (value != null) {
        out.put(setting.name(), value);
      }
    }
    List<Map<String, Object>> counters = new ArrayList<>();
    for (CustomCounter c : config.customCounters()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("path", c.path());
      m.put("name", c.metricName());
      m.put("type", c.type().name().toLowerCase(Locale.ROOT));
      if (!c.labels().isEmpty()) {
        m.put("labels", c.labels());
      }
      if (c.instanceLabel() != null) {
        m.put("instance-label", c.instanceLabel());
      }
      counters.add(m);
    }
    if (!counters.isEmpty()) {
      out.put(PERFCOUNTERS, counters);
    }
    return OperatorFiles.yaml(out);
  }
}
