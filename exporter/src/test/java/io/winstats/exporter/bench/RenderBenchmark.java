package io.winstats.exporter.bench;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.exporter.metrics.CadvisorSeriesCollector;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.metrics.NodeExporterSeries;
import io.winstats.exporter.metrics.ResourceMetrics;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SummaryAssembler;
import io.winstats.summary.SummaryJson;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The render paths at 110 pods / 220 containers: what a new snapshot costs once (full renders) and what every scrape
 * costs after that (cached snapshot part plus the live part). Run with {@code bench/jmh}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseSerialGC", "-Xmx256m"})
public class RenderBenchmark {
  private Snapshot snapshot;
  private SummaryAssembler assembler;
  private MetricsRenderer cachedRenderer;
  private MetricsRenderer fullRenderer;
  private MetricsRenderer cachedWithJvmRenderer;
  private final AtomicLong version = new AtomicLong();

  @Setup
  public void setUp() {
    snapshot = NodeScale.snapshot(110, 2);
    assembler = new SummaryAssembler("bench-node", NodePlatform.LINUX);
    // Each full render advances the version, so the collectors rebuild their series as for a new snapshot.
    Supplier<Snapshot> current =
        () -> new Snapshot(version.get(), snapshot.node(), snapshot.previousNode(), snapshot.runtime(), null);
    PrometheusRegistry snapshotSeries = new PrometheusRegistry();
    snapshotSeries.register(new CadvisorSeriesCollector(current, NodePlatform.LINUX));
    snapshotSeries.register(new NodeExporterSeries(current));
    cachedRenderer = new MetricsRenderer(snapshotSeries, new PrometheusRegistry(), () -> 1, Duration.ZERO, System::nanoTime);
    fullRenderer =
        new MetricsRenderer(snapshotSeries, new PrometheusRegistry(), version::incrementAndGet, Duration.ZERO, System::nanoTime);
    PrometheusRegistry live = new PrometheusRegistry();
    PrometheusMeterRegistry micrometer =
        new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, live, io.micrometer.core.instrument.Clock.SYSTEM);
    new JvmMemoryMetrics().bindTo(micrometer);
    new JvmGcMetrics().bindTo(micrometer);
    new JvmThreadMetrics().bindTo(micrometer);
    new ClassLoaderMetrics().bindTo(micrometer);
    new ProcessorMetrics().bindTo(micrometer);
    new UptimeMetrics().bindTo(micrometer);
    new FileDescriptorMetrics().bindTo(micrometer);
    // Live part rendered on every call: the cost the daemon's one-second live cache saves under load.
    cachedWithJvmRenderer = new MetricsRenderer(snapshotSeries, live, () -> 1, Duration.ZERO, System::nanoTime);
  }

  /** A later scrape with the daemon's real live part: Micrometer JVM, process and system meters. */
  @Benchmark
  public MetricsRenderer.Rendered metricsServeCachedWithJvmMetrics() {
    return cachedWithJvmRenderer.render(null, false);
  }

  /** A new snapshot's {@code /stats/summary} body: assemble and write JSON. */
  @Benchmark
  public byte[] summaryRender() {
    return SummaryJson.write(assembler.assemble(snapshot.node(), snapshot.previousNode(), snapshot.runtime()));
  }

  /** A new snapshot's {@code /metrics} body: build the cAdvisor and node series and write text 0.0.4. */
  @Benchmark
  public MetricsRenderer.Rendered metricsRenderNewSnapshot() {
    return fullRenderer.render(null, false);
  }

  /** Every later scrape of the same snapshot: the cached part plus an (empty) live part. */
  @Benchmark
  public MetricsRenderer.Rendered metricsServeCached() {
    return cachedRenderer.render(null, false);
  }

  /** A new snapshot's {@code /metrics} gzip body. */
  @Benchmark
  public MetricsRenderer.Rendered metricsRenderNewSnapshotGzip() {
    return fullRenderer.render(null, true);
  }

  /** A new snapshot's {@code /metrics/resource} body. */
  @Benchmark
  public byte[] resourceMetricsRender() {
    return cachedRenderer.renderText(ResourceMetrics.build(snapshot));
  }
}
