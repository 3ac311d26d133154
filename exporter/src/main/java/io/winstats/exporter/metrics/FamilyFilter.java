package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Which metric families the Prometheus endpoint serves ({@code --metrics.include} and {@code --metrics.exclude}): a
 * family is served when its exposed name ({@code container_cpu_usage_seconds_total}, {@code
 * winstats_exporter_build_info}) matches the include pattern and not the exclude pattern, both matched whole as
 * Prometheus' regexes are. Cardinality control for large clusters, as cAdvisor's {@code --disable_metrics} and
 * node_exporter's collector flags are.
 */
public record FamilyFilter(Pattern include, Pattern exclude) {
  /** Everything served. */
  public static final FamilyFilter ALL = new FamilyFilter(Pattern.compile(".*"), Pattern.compile(""));

  /** Whether {@code name}, as exposed, is served. */
  public boolean serves(String name) {
    return include.matcher(name).matches() && !exclude.matcher(name).matches();
  }

  MetricSnapshots apply(MetricSnapshots snapshots) {
    if (this.equals(ALL)) {
      return snapshots;
    }
    MetricSnapshots.Builder kept = MetricSnapshots.builder();
    for (MetricSnapshot s : snapshots) {
      if (serves(exposedName(s))) {
        kept.metricSnapshot(s);
      }
    }
    return kept.build();
  }

  /** The family's name as the text format writes it: counters end in _total, info series in _info. */
  static String exposedName(MetricSnapshot s) {
    String name = s.getMetadata().getPrometheusName();
    if (s instanceof CounterSnapshot) {
      return name + "_total";
    }
    if (s instanceof InfoSnapshot) {
      return name + "_info";
    }
    return name;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof FamilyFilter f
        && f.include.pattern().equals(include.pattern())
        && f.exclude.pattern().equals(exclude.pattern());
  }

  @Override
  public int hashCode() {
    return include.pattern().hashCode() * 31 + exclude.pattern().hashCode();
  }
}
