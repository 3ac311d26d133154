package io.winstats.exporter.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.PerfCounterReadings;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the two Prometheus endpoints serve, assembled once at start-up: {@code /metrics} is the build info, the cAdvisor
 * and cgroup series, the node series under the names of the node's own exporter (windows_exporter or node_exporter),
 * on a Windows node windows_exporter's container series, and the pods' ephemeral storage, each when its collector
 * runs, all built once per snapshot version; plus the live part
 * (the self series, the process and JVM series unless switched off, the PDH source's counter health). {@code
 * /metrics/cadvisor} is the cAdvisor and cgroup collectors alone, as the kubelet serves that path. Closing releases
 * the Micrometer registry and the JVM binders.
 */
public final class Exposition implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Exposition.class);

  /** The build the daemon reports in {@code winstats_exporter_build_info}. */
  public record Build(String version, String revision, String date) {
    public Build {
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(revision, "revision");
      Objects.requireNonNull(date, "date");
    }
  }

  private final Deque<AutoCloseable> opened = new ArrayDeque<>();
  private final PrometheusRegistry liveSeries = new PrometheusRegistry();
  private final SelfMetrics self;
  private final MetricsRenderer metrics;
  private final MetricsRenderer cadvisor;

  /**
   * @param snapshots the published snapshot
   * @param platform the kind of node the node source describes
   * @param collectors which collectors run: the cgroup, node and container series are registered only when theirs do
   * @param exporterMetrics whether {@code /metrics} carries the daemon's own process and JVM series
   * @param families which families {@code /metrics} serves; {@code /metrics/cadvisor} serves them all
   * @param clock the self metrics' clock (sample ages)
   */
  public Exposition(
      Supplier<Snapshot> snapshots,
      NodePlatform platform,
      EnabledCollectors collectors,
      Build build,
      boolean exporterMetrics,
      FamilyFilter families,
      Clock clock) {
    // Series built from the snapshot render once per version; Micrometer's live series render per scrape.
    PrometheusRegistry snapshotSeries = new PrometheusRegistry();
    PrometheusMeterRegistry micrometer =
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, liveSeries, io.micrometer.core.instrument.Clock.SYSTEM);
    opened.push(micrometer::close);
    self = new SelfMetrics(micrometer, clock);
    if (exporterMetrics) {
      opened.push(self.bindProcessAndJvm(liveSeries));
    }
    snapshotSeries.register(
        SelfMetrics.buildInfo(build.version(), build.revision(), build.date(), platform.label()));
    // Each registry refuses a family that two collectors declare: container_processes is the runtime's on a Windows
    // node and the pids cgroup's on a Linux one, where alone cgroups are read.
    CadvisorSeriesCollector cadvisorSeries = new CadvisorSeriesCollector(snapshots, platform);
    PrometheusRegistry cadvisorOnly = new PrometheusRegistry();
    snapshotSeries.register(cadvisorSeries);
    cadvisorOnly.register(cadvisorSeries);
    for (Collector collector : collectors.running(platform)) {
      MultiCollector series = collector.series(snapshots, platform);
      if (series == null) {
        continue;
      }
      snapshotSeries.register(series);
      if (collector.onCadvisorPath()) {
        cadvisorOnly.register(series);
      }
    }
    metrics =
        new MetricsRenderer(
            snapshotSeries, liveSeries, () -> snapshots.get().version(), Duration.ofSeconds(1), System::nanoTime,
            families);
    cadvisor =
        new MetricsRenderer(
            cadvisorOnly, new PrometheusRegistry(), () -> snapshots.get().version(), Duration.ofSeconds(1),
            System::nanoTime);
    self.seriesCount(metrics::lastSeriesCount);
  }

  /**
   * Serves the PDH source's custom counters and counter health on {@code /metrics}, read on each scrape: both are
   * published by the sampling thread and cheap to copy.
   */
  public void perfCounters(PerfCounterReadings readings) {
    liveSeries.register(new PerfCounterSeries(readings::customValues, readings::health));
  }

  /** The daemon's own health series, for the sampling loops. */
  public SelfMetrics self() {
    return self;
  }

  /** {@code /metrics} (or the path {@code --web.telemetry-path} names). */
  public MetricsRenderer metrics() {
    return metrics;
  }

  /** {@code /metrics/cadvisor}. */
  public MetricsRenderer cadvisor() {
    return cadvisor;
  }

  @Override
  public void close() {
    while (!opened.isEmpty()) {
      try {
        opened.pop().close();
      } catch (Exception e) {
        LOG.warn("event=close_failed error={}", e.toString());
      }
    }
  }
}
