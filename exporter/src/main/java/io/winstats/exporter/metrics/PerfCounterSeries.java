package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.perfcounters.counters.CounterHealth;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.counters.InstanceValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The PDH source's own series: each configured custom counter under the name and labels the operator chose, and
 * {@code winstats_exporter_perfcounter_ok{path,status}} for every counter the source reads (1 while it reads, 0 with
 * the PDH status that stopped it), so a node with vanished or corrupted counters shows which.
 */
public final class PerfCounterSeries implements MultiCollector {
  static final MetricFamilyDescriptor PERFCOUNTER_OK =
      FamiliesBuilder.gauge(
          "winstats_exporter_perfcounter_ok",
          "1 while the performance counter is read, 0 when PDH stopped it (status says why).",
          List.of("path", "status"));

  private final Supplier<Map<CustomCounter, List<InstanceValue>>> customValues;
  private final Supplier<List<CounterHealth>> health;
  // The operator declares these families in the configuration file: one per metric name, described by its first
  // counter (counters of one name may differ in path and constant labels).
  private final Map<String, MetricFamilyDescriptor> customFamilies = new ConcurrentHashMap<>();

  public PerfCounterSeries(
      Supplier<Map<CustomCounter, List<InstanceValue>>> customValues, Supplier<List<CounterHealth>> health) {
    this.customValues = customValues;
    this.health = health;
  }

  @Override
  public MetricSnapshots collect() {
    FamiliesBuilder f = new FamiliesBuilder();
    customValues.get().forEach(
        (counter, values) -> {
          Labels constant =
              Labels.of(
                  counter.labels().keySet().toArray(String[]::new),
                  counter.labels().values().toArray(String[]::new));
          MetricFamilyDescriptor family =
              customFamilies.computeIfAbsent(wireName(counter), name -> family(name, counter));
          for (InstanceValue v : values) {
            Labels l = counter.instanceLabel() == null ? constant : constant.add(counter.instanceLabel(), v.instance());
            f.add(family, v.value(), l, null);
          }
        });
    for (CounterHealth h : health.get()) {
      f.add(PERFCOUNTER_OK, h.ok() ? 1 : 0, Labels.of("path", h.path(), "status", h.status()), null);
    }
    return f.build();
  }

  /** The name as served: a counter's ends in {@code _total}, added when the operator left it out. */
  private static String wireName(CustomCounter counter) {
    String name = counter.metricName();
    return counter.type() == CustomCounter.Type.COUNTER && !name.endsWith("_total") ? name + "_total" : name;
  }

  private static MetricFamilyDescriptor family(String wireName, CustomCounter counter) {
    String help = "Custom performance counter " + counter.path();
    List<String> labelNames = new ArrayList<>(counter.labels().keySet());
    if (counter.instanceLabel() != null) {
      labelNames.add(counter.instanceLabel());
    }
    return counter.type() == CustomCounter.Type.COUNTER
        ? FamiliesBuilder.counter(wireName, help, labelNames)
        : FamiliesBuilder.gauge(wireName, help, labelNames);
  }
}
