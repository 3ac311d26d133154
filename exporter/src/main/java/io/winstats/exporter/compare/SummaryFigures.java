package io.winstats.exporter.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.winstats.exporter.compare.Figures.Figure;
import io.winstats.exporter.compare.Figures.NotAFigureDocumentException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Map.Entry;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Every number of one kubelet Summary document ({@code stats/v1alpha1}), keyed by where it is: {@code
 * node.memory.workingSetBytes}, {@code pods[<uid>].containers[app].cpu.usageCoreNanoSeconds}, {@code
 * node.network.interfaces[eth0].rxBytes}. Pods are keyed by uid, every other list (containers, system containers,
 * interfaces, volumes) by name, so that two documents match element by element whatever their order. Each number
 * has the {@code time} of the nearest object around it that has one, else the document's fetch time; its kind and
 * floor follow its own name ({@link FigureKind#of(String)}).
 */
final class SummaryFigures {
  private SummaryFigures() {}

  /** The figures of {@code summary}, read at {@code fetchedAt}. */
  static Figures of(JsonNode summary, @Nullable Instant fetchedAt) throws NotAFigureDocumentException {
    JsonNode node = summary.path("node");
    if (!node.isObject() || !node.path("nodeName").isTextual()) {
      throw new NotAFigureDocumentException("not a kubelet Summary (stats/v1alpha1): it has no node.nodeName");
    }
    if (!summary.path("pods").isMissingNode() && !summary.path("pods").isArray()) {
      throw new NotAFigureDocumentException("not a kubelet Summary (stats/v1alpha1): its pods is not a list");
    }
    Map<String, Figure> figures = new TreeMap<>();
    Map<String, String> entities = new LinkedHashMap<>();
    walk(summary, "", fetchedAt, figures, entities);
    return new Figures(Collections.unmodifiableMap(figures), Collections.unmodifiableMap(entities));
  }

  /** The node's name, as the document gives it. */
  static String nodeName(JsonNode summary) {
    return summary.path("node").path("nodeName").asText();
  }

  private static void walk(
      JsonNode object,
      String path,
      @Nullable Instant inherited,
      Map<String, Figure> figures,
      Map<String, String> entities) {
    Instant time = inherited;
    JsonNode own = object.get("time");
    if (own != null && own.isTextual()) {
      time = instant(own.asText(), inherited);
    }
    for (Entry<String, JsonNode> field : object.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      String key = path.isEmpty() ? name : path + "." + name;
      if (value.isNumber()) {
        FigureKind kind = FigureKind.of(name);
        double floor = kind == FigureKind.GAUGE ? FigureKind.floor(name) : 0;
        figures.put(key, new Figure(name, value.asDouble(), time, time, kind, floor));
      } else if (value.isObject()) {
        walk(value, key, time, figures, entities);
      } else if (value.isArray()) {
        int index = 0;
        for (JsonNode element : value) {
          if (element.isObject()) {
            String elementKey = key + "[" + identity(name, element, index) + "]";
            entities.put(elementKey, displayName(name, element, elementKey));
            walk(element, elementKey, time, figures, entities);
          }
          index++;
        }
      }
    }
  }

  /** A pod by uid (two pods of one name are two pods), anything else by name, else by its place. */
  private static String identity(String list, JsonNode element, int index) {
    if (list.equals("pods")) {
      String uid = element.path("podRef").path("uid").asText("");
      if (!uid.isEmpty()) {
        return uid;
      }
    }
    String name = element.path("name").asText("");
    return name.isEmpty() ? "#" + index : name;
  }

  private static String displayName(String list, JsonNode element, String key) {
    if (list.equals("pods")) {
      JsonNode ref = element.path("podRef");
      return "pod " + ref.path("namespace").asText("?") + "/" + ref.path("name").asText("?");
    }
    String kind =
        switch (list) {
          case "containers" -> "container";
          case "systemContainers" -> "system container";
          case "interfaces" -> "interface";
          case "volume" -> "volume";
          default -> list;
        };
    int open = key.lastIndexOf('[');
    return kind + " " + key.substring(open + 1, key.length() - 1);
  }

  /** RFC 3339 as the kubelet writes it (metav1.Time: seconds, UTC {@code Z}); an unreadable time is the parent's. */
  private static @Nullable Instant instant(String text, @Nullable Instant fallback) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return fallback;
    }
  }
}
