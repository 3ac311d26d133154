package io.winstats.exporter.otlp;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The points of OTLP export requests, flattened: each with its metric's name, unit and kind, its resource's
 * attributes and its own.
 *
 * @param metric the metric's name
 * @param unit the metric's unit
 * @param kind gauge, counter (monotonic sum) or updowncounter (non-monotonic sum)
 * @param resource the resource's attributes
 * @param attributes the point's attributes
 * @param value the value
 * @param timeNanos the point's time
 */
public record OtlpPoints(
    String metric,
    String unit,
    String kind,
    Map<String, String> resource,
    Map<String, String> attributes,
    double value,
    long timeNanos) {

  /** Every point of {@code request}. */
  public static List<OtlpPoints> of(ExportMetricsServiceRequest request) {
    List<OtlpPoints> out = new ArrayList<>();
    for (ResourceMetrics rm : request.getResourceMetricsList()) {
      Map<String, String> resource = attributes(rm.getResource().getAttributesList());
      for (ScopeMetrics sm : rm.getScopeMetricsList()) {
        for (Metric m : sm.getMetricsList()) {
          String kind;
          List<NumberDataPoint> points;
          if (m.hasGauge()) {
            kind = "gauge";
            points = m.getGauge().getDataPointsList();
          } else if (m.hasSum()) {
            kind = m.getSum().getIsMonotonic() ? "counter" : "updowncounter";
            points = m.getSum().getDataPointsList();
          } else {
            throw new AssertionError(m.getName() + " is neither a gauge nor a sum: " + m.getDataCase());
          }
          for (NumberDataPoint p : points) {
            out.add(new OtlpPoints(m.getName(), m.getUnit(), kind, resource, attributes(p.getAttributesList()),
                p.getAsDouble(), p.getTimeUnixNano()));
          }
        }
      }
    }
    return out;
  }

  private static Map<String, String> attributes(List<KeyValue> list) {
    Map<String, String> out = new TreeMap<>();
    for (KeyValue kv : list) {
      out.put(kv.getKey(), kv.getValue().getStringValue());
    }
    return out;
  }
}
