package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The snapshot-built families of {@code /metrics} as one snapshot version serves them, in terms that name no metrics
 * library: what a push sends (the OTLP exporter reads these, never a second collection).
 *
 * @param version the snapshot version every family was built from
 * @param families the families in the order {@code /metrics} serves them, after {@code --metrics.include/exclude}
 */
public record ServedFamilies(long version, List<Family> families) {
  public ServedFamilies {
    families = List.copyOf(families);
  }

  /** How a family is typed on {@code /metrics}. */
  public enum Type {
    COUNTER,
    GAUGE,
    INFO
  }

  /**
   * One family.
   *
   * @param name the name as {@code /metrics} writes its samples ({@code container_cpu_usage_seconds_total},
   *     {@code winstats_exporter_build_info})
   * @param help the help text
   * @param type counter, gauge or info (value 1, its labels the information)
   * @param points the family's points
   */
  public record Family(String name, String help, Type type, List<Point> points) {
    public Family {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(help, "help");
      Objects.requireNonNull(type, "type");
      points = List.copyOf(points);
    }
  }

  /**
   * One point.
   *
   * @param labels the labels in {@code /metrics}' order
   * @param value the value {@code /metrics} writes
   * @param timestampMillis the sample's own time where {@code /metrics} writes one, else 0 (the time of the scrape)
   */
  public record Point(Map<String, String> labels, double value, long timestampMillis) {
    public Point {
      labels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    }
  }

  /** The families of client_java's {@code snapshots}, all of one {@code version}. */
  static ServedFamilies of(long version, MetricSnapshots snapshots) {
    List<Family> families = new ArrayList<>(snapshots.size());
    for (MetricSnapshot s : snapshots) {
      Type type;
      if (s instanceof CounterSnapshot) {
        type = Type.COUNTER;
      } else if (s instanceof GaugeSnapshot) {
        type = Type.GAUGE;
      } else if (s instanceof InfoSnapshot) {
        type = Type.INFO;
      } else {
        throw new IllegalArgumentException(s.getMetadata().getName() + " is not a counter, gauge or info");
      }
      String base = s.getMetadata().getPrometheusName();
      String name = type == Type.COUNTER ? base + "_total" : type == Type.INFO ? base + "_info" : base;
      List<Point> points = new ArrayList<>(s.getDataPoints().size());
      for (DataPointSnapshot p : s.getDataPoints()) {
        double value = 1.0;
        if (p instanceof CounterSnapshot.CounterDataPointSnapshot c) {
          value = c.getValue();
        } else if (p instanceof GaugeSnapshot.GaugeDataPointSnapshot g) {
          value = g.getValue();
        }
        points.add(new Point(labels(p.getLabels()), value, p.hasScrapeTimestamp() ? p.getScrapeTimestampMillis() : 0));
      }
      String help = s.getMetadata().getHelp();
      families.add(new Family(name, help == null ? "" : help, type, points));
    }
    return new ServedFamilies(version, families);
  }

  private static Map<String, String> labels(Labels labels) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < labels.size(); i++) {
      out.put(labels.getPrometheusName(i), labels.getValue(i));
    }
    return out;
  }
}
