package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Collects data points by family name, then builds client_java snapshots. Names are given as they appear on the wire
 * ({@code container_cpu_usage_seconds_total}); the {@code _total} of counters is client_java's to add back.
 * Not thread-safe: one instance per rendering.
 */
final class MetricFamilies {
  private enum Kind {
    COUNTER,
    GAUGE
  }

  private record Family(Kind kind, String help, List<Object> points) {}

  private final Map<String, Family> families = new LinkedHashMap<>();

  /** Adds a counter point; {@code at} is the sample's own time, or {@code null} for scrape time. */
  void counter(String wireName, String help, double value, Labels labels, @Nullable Instant at) {
    if (!wireName.endsWith("_total")) {
      throw new IllegalArgumentException("counter names end in _total: " + wireName);
    }
    String name = wireName.substring(0, wireName.length() - "_total".length());
    CounterDataPointSnapshot.Builder point = CounterDataPointSnapshot.builder().value(value).labels(labels);
    if (at != null) {
      point.scrapeTimestampMillis(at.toEpochMilli());
    }
    family(name, Kind.COUNTER, help).points().add(point.build());
  }

  /** Adds a gauge point; {@code at} is the sample's own time, or {@code null} for scrape time. */
  void gauge(String name, String help, double value, Labels labels, @Nullable Instant at) {
    GaugeDataPointSnapshot.Builder point = GaugeDataPointSnapshot.builder().value(value).labels(labels);
    if (at != null) {
      point.scrapeTimestampMillis(at.toEpochMilli());
    }
    family(name, Kind.GAUGE, help).points().add(point.build());
  }

  /**
   * Adds a counter point from a count. Sample values are float64 on the wire and in client_java, so a count above
   * 2^53 keeps only its 53 most significant bits, as cAdvisor's and node_exporter's uint64 counters do.
   */
  void counter(String wireName, String help, long value, Labels labels, @Nullable Instant at) {
    counter(wireName, help, (double) value, labels, at);
  }

  /** Adds a gauge point from a count; float64 as {@link #counter(String, String, long, Labels, Instant)} says. */
  void gauge(String name, String help, long value, Labels labels, @Nullable Instant at) {
    gauge(name, help, (double) value, labels, at);
  }

  /** Adds a gauge point where the value may be absent; an absent value adds nothing, as the kubelet skips nil. */
  void gaugeIfPresent(String name, String help, @Nullable Long value, Labels labels, @Nullable Instant at) {
    if (value != null) {
      gauge(name, help, value, labels, at);
    }
  }

  private Family family(String name, Kind kind, String help) {
    Family f = families.computeIfAbsent(name, n -> new Family(kind, help, new ArrayList<>()));
    if (f.kind() != kind) {
      throw new IllegalStateException(name + " is already a " + f.kind());
    }
    return f;
  }

  MetricSnapshots build() {
    List<MetricSnapshot> out = new ArrayList<>(families.size());
    families.forEach(
        (name, f) -> {
          if (f.kind() == Kind.COUNTER) {
            CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(f.help());
            f.points().forEach(p -> b.dataPoint((CounterDataPointSnapshot) p));
            out.add(b.build());
          } else {
            GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(f.help());
            f.points().forEach(p -> b.dataPoint((GaugeDataPointSnapshot) p));
            out.add(b.build());
          }
        });
    return new MetricSnapshots(out);
  }
}
