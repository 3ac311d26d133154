package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.registry.MetricType;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Collects data points by family, then builds client_java snapshots. A family is a client_java {@link
 * MetricFamilyDescriptor} (name, help, type, label names), declared once as a constant of the collector that serves
 * it ({@link #counter}, {@link #gauge}) and returned by that collector's {@code getMetricFamilyDescriptors()}; a point
 * names its family by that constant. Families come out in the order of their first point. Not thread-safe: one
 * instance per rendering.
 */
final class FamiliesBuilder {
  private final Map<MetricFamilyDescriptor, List<Object>> families = new LinkedHashMap<>();

  /**
   * A counter family, named as the wire shows it ({@code container_cpu_usage_seconds_total}); client_java keeps the
   * name without {@code _total} and writes it back.
   */
  static MetricFamilyDescriptor counter(String wireName, String help, List<String> labelNames) {
    if (!wireName.endsWith("_total")) {
      throw new IllegalArgumentException("counter names end in _total: " + wireName);
    }
    return MetricFamilyDescriptor.counter(wireName.substring(0, wireName.length() - "_total".length()))
        .help(help)
        .labelNames(labelNames)
        .build();
  }

  /** A gauge family. */
  static MetricFamilyDescriptor gauge(String name, String help, List<String> labelNames) {
    return MetricFamilyDescriptor.gauge(name).help(help).labelNames(labelNames).build();
  }

  /** {@code base} and then {@code more}: a family's label names when they extend a shared set. */
  static List<String> labelNames(List<String> base, String... more) {
    return Stream.concat(base.stream(), Stream.of(more)).toList();
  }

  /** {@code at} in whole seconds since the epoch, as the boot and start times are served; null when absent. */
  static @Nullable Long epochSeconds(@Nullable Instant at) {
    return at == null ? null : at.getEpochSecond();
  }

  /** Adds a point to {@code family}; {@code at} is the sample's own time, or {@code null} for scrape time. */
  void add(MetricFamilyDescriptor family, double value, Labels labels, @Nullable Instant at) {
    Object point;
    if (family.getType() == MetricType.COUNTER) {
      CounterDataPointSnapshot.Builder counter = CounterDataPointSnapshot.builder().value(value).labels(labels);
      if (at != null) {
        counter.scrapeTimestampMillis(at.toEpochMilli());
      }
      point = counter.build();
    } else if (family.getType() == MetricType.GAUGE) {
      GaugeDataPointSnapshot.Builder gauge = GaugeDataPointSnapshot.builder().value(value).labels(labels);
      if (at != null) {
        gauge.scrapeTimestampMillis(at.toEpochMilli());
      }
      point = gauge.build();
    } else {
      throw new IllegalArgumentException(family.getPrometheusName() + " is a " + family.getType());
    }
    families.computeIfAbsent(family, f -> new ArrayList<>()).add(point);
  }

  /**
   * Adds a point from a count. Sample values are float64 on the wire and in client_java, so a count above 2^53 keeps
   * only its 53 most significant bits, as cAdvisor's and node_exporter's uint64 counters do.
   */
  void add(MetricFamilyDescriptor family, long value, Labels labels, @Nullable Instant at) {
    add(family, (double) value, labels, at);
  }

  /** Adds a point where the value may be absent; an absent value adds nothing, as the kubelet skips nil. */
  void addIfPresent(MetricFamilyDescriptor family, @Nullable Long value, Labels labels, @Nullable Instant at) {
    if (value != null) {
      add(family, (double) value, labels, at);
    }
  }

  // Each list holds the point type its family's type says (add builds them so).
  @SuppressWarnings("unchecked")
  MetricSnapshots build() {
    List<MetricSnapshot> out = new ArrayList<>(families.size());
    families.forEach(
        (family, points) -> {
          if (family.getType() == MetricType.COUNTER) {
            out.add(new CounterSnapshot(family.getMetadata(), (List<CounterDataPointSnapshot>) (List<?>) points));
          } else {
            out.add(new GaugeSnapshot(family.getMetadata(), (List<GaugeDataPointSnapshot>) (List<?>) points));
          }
        });
    return new MetricSnapshots(out);
  }
}
