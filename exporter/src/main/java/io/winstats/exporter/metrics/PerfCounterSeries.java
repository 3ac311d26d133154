package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.perfcounters.counters.CounterHealth;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.counters.InstanceValue;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The PDH source's own series: each configured custom counter under the name and labels the operator chose, and
 * {@code winstats_exporter_perfcounter_ok{path,status}} for every counter the source reads (1 while it reads, 0 with
 * the PDH status that stopped it), so a node with vanished or corrupted counters shows which.
 */
public final class PerfCounterSeries implements MultiCollector {
  private final Supplier<Map<CustomCounter, List<InstanceValue>>> customValues;
  private final Supplier<List<CounterHealth>> health;

  public PerfCounterSeries(
      Supplier<Map<CustomCounter, List<InstanceValue>>> customValues, Supplier<List<CounterHealth>> health) {
    this.customValues = customValues;
    this.health = health;
  }

  @Override
  public MetricSnapshots collect() {
    MetricFamilies f = new MetricFamilies();
    customValues.get().forEach(
        (counter, values) -> {
          Labels constant = Labels.of(counter.labels().keySet().toArray(String[]::new), counter.labels().values().toArray(String[]::new));
          for (InstanceValue v : values) {
            Labels l = counter.instanceLabel() == null ? constant : constant.add(counter.instanceLabel(), v.instance());
            String help = "Custom performance counter " + counter.path();
            if (counter.type() == CustomCounter.Type.COUNTER) {
              String name = counter.metricName().endsWith("_total") ? counter.metricName() : counter.metricName() + "_total";
              f.counter(name, help, v.value(), l, null);
            } else {
              f.gauge(counter.metricName(), help, v.value(), l, null);
            }
          }
        });
    for (CounterHealth h : health.get()) {
      f.gauge(
          "winstats_exporter_perfcounter_ok",
          "1 while the performance counter is read, 0 when PDH stopped it (status says why).",
          h.ok() ? 1 : 0,
          Labels.of("path", h.path(), "status", h.status()),
          null);
    }
    return f.build();
  }
}
