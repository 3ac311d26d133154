package io.winstats.exporter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.winstats.exporter.http.WebConfigReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The daemon's settings as the Helm chart checks them before a pod starts, generated from the catalogue {@link
 * Settings#ALL}: the JSON Schema of the chart's {@code config} value (the configuration file: names, types, choices,
 * ranges) and a template holding every flag for the chart's checks of {@code config} keys and {@code extraArgs} (the
 * "did you mean" hints). The chart's copies are held equal to these by a test in the dashboards module, so that a
 * setting added to the catalogue reaches the chart by construction. Test code: it writes chart files at build time
 * and is no part of the daemon.
 */
public final class ConfigSchema {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private ConfigSchema() {}

  /** The JSON Schema of the chart's {@code config} value. */
  public static ObjectNode configSection() {
    ObjectNode config = level(Settings.inFile(), "");
    config.put(
        "description",
        "the daemon's configuration file (--config.file), as YAML: its settings nested by their dots or written with"
            + " them, and perfcounters. Generated from the daemon's settings; a name it does not know is refused at"
            + " render with the nearest ones.");
    ObjectNode properties = (ObjectNode) config.get("properties");
    properties.set(ConfigFile.PERFCOUNTERS, perfcounters());
    return config;
  }

  /** An object whose keys are the names of {@code settings} under {@code prefix}, nested or dotted. */
  private static ObjectNode level(List<Setting<?>> settings, String prefix) {
    Map<String, List<Setting<?>>> below = new LinkedHashMap<>();
    ObjectNode properties = JSON.objectNode();
    for (Setting<?> setting : settings) {
      String rest = setting.name().substring(prefix.length());
      properties.set(rest, value(setting));
      int dot = rest.indexOf('.');
      if (dot > 0) {
        below.computeIfAbsent(rest.substring(0, dot), k -> new ArrayList<>()).add(setting);
      }
    }
    below.forEach(
        (segment, under) -> {
          ObjectNode nested = level(under, prefix + segment + ".");
          JsonNode leaf = properties.get(segment);
          properties.set(segment, leaf == null ? nested : anyOf(leaf, nested));
        });
    ObjectNode object = JSON.objectNode().put("type", "object");
    object.set("properties", properties);
    return object;
  }

  private static ObjectNode value(Setting<?> setting) {
    ValueRule rule = setting.rule();
    ObjectNode value;
    if (!rule.choices().isEmpty()) {
      value = JSON.objectNode().put("type", "string");
      value.set("enum", strings(rule.choices()));
    } else {
      value =
          switch (rule.kind()) {
            case SWITCH -> {
              ObjectNode s = JSON.objectNode();
              s.set("enum", JSON.arrayNode().add(true).add(false).add("true").add("false"));
              yield s;
            }
            case DURATION ->
                JSON.objectNode().put("type", "string").put("pattern", "^(" + DurationFlag.PART.pattern() + ")+$");
            case SIZE -> number(rule, "^\\s*" + ByteSizeFlag.SIZE.pattern() + "\\s*$");
            case WHOLE_NUMBER -> number(rule, "^\\s*\\d+\\s*$");
            case TEXT -> {
              ObjectNode s = JSON.objectNode();
              s.set("type", strings(List.of("string", "number", "boolean")));
              yield s;
            }
          };
    }
    return value.put("description", setting.help());
  }

  /** A number within the rule's range, or text of {@code pattern} (whose range the daemon checks). */
  private static ObjectNode number(ValueRule rule, String pattern) {
    ObjectNode integer = JSON.objectNode().put("type", "integer");
    if (rule.minimum() != null) {
      integer.put("minimum", rule.minimum());
    }
    if (rule.maximum() != null) {
      integer.put("maximum", rule.maximum());
    }
    return anyOf(integer, JSON.objectNode().put("type", "string").put("pattern", pattern));
  }

  private static ObjectNode perfcounters() {
    ObjectNode counter = JSON.objectNode().put("type", "object").put("additionalProperties", false);
    counter.set("required", strings(List.of("path", "name")));
    ObjectNode properties = counter.putObject("properties");
    properties.putObject("path").put("type", "string").put("description", "the PDH counter path");
    properties.putObject("name").put("type", "string").put("description", "the series' name");
    properties.putObject("type").set("enum", strings(List.of("gauge", "counter")));
    properties.putObject("labels").put("type", "object").putObject("additionalProperties").put("type", "string");
    properties.putObject("instance-label").put("type", "string");
    ObjectNode list = JSON.objectNode().put("type", "array").put("description", "custom PDH counters");
    list.set("items", counter);
    return list;
  }

  private static ObjectNode anyOf(JsonNode first, JsonNode second) {
    ObjectNode either = JSON.objectNode();
    either.putArray("anyOf").add(first).add(second);
    return either;
  }

  private static ArrayNode strings(List<String> words) {
    ArrayNode array = JSON.arrayNode();
    words.forEach(array::add);
    return array;
  }

  /**
   * The chart's template of the daemon's flags: {@code winstats-exporter.daemonSettings} is a YAML mapping of every
   * flag name to {@code {switch, negatable, inFile, choices}}, and {@code winstats-exporter.bcrypt} the pattern of a
   * basic auth user's hash, as the daemon checks it.
   */
  public static String chartTemplate() {
    StringBuilder out = new StringBuilder();
    out.append("{{- /*\n")
        .append("The daemon's settings, generated from its catalogue by io.winstats.exporter.ConfigSchema;")
        .append(" do not edit:\n")
        .append("mvn -pl dashboards -am verify -Dchart.update=true writes it again.\n")
        .append("*/ -}}\n")
        .append("{{- define \"winstats-exporter.daemonSettings\" -}}\n");
    for (Setting<?> s : Settings.ALL) {
      out.append(s.name())
          .append(": {switch: ")
          .append(s.isSwitch())
          .append(", negatable: ")
          .append(s.isNegatable())
          .append(", inFile: ")
          .append(s.inFile())
          .append(", choices: [")
          .append(String.join(", ", quoted(s.rule().choices())))
          .append("]}\n");
    }
    out.append("{{- end }}\n\n")
        .append("{{- define \"winstats-exporter.bcrypt\" -}}\n")
        .append("^").append(WebConfigReader.BCRYPT.pattern()).append("$\n")
        .append("{{- end }}\n");
    return out.toString();
  }

  private static Set<String> quoted(List<String> words) {
    Set<String> out = new LinkedHashSet<>();
    words.forEach(w -> out.add("'" + w + "'"));
    return out;
  }
}
