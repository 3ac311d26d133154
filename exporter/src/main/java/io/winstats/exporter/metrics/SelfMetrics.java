package io.winstats.exporter.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.exporter.sampling.SamplingLoop;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The daemon's own health series ({@code winstats_exporter_*}) through Micrometer: per collector success, duration and
 * errors by reason, and per source the age of the newest sample.
 */
public final class SelfMetrics {
  private final MeterRegistry registry;
  private final Clock clock;
  private final Map<String, AtomicLong> success = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> durationNanos = new ConcurrentHashMap<>();
  private final Map<String, AtomicReference<Instant>> lastSample = new ConcurrentHashMap<>();

  public SelfMetrics(MeterRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  /**
   * A loop listener that publishes each sample and records the collector's health.
   *
   * @param collector the {@code collector} and {@code source} label
   * @param publish where a good sample goes
   * @param sampleTime the sample's own time, for {@code winstats_exporter_sample_age_seconds}
   * @param onFailure also told of every failed round, with its reason
   */
  public <T> SamplingLoop.Listener<T> listener(
      String collector, Consumer<T> publish, Function<T, Instant> sampleTime, Consumer<String> onFailure) {
    AtomicLong ok =
        success.computeIfAbsent(
            collector,
            c -> {
              AtomicLong v = new AtomicLong();
              Gauge.builder("winstats.exporter.collector.success", v, AtomicLong::doubleValue)
                  .description("1 if the collector's latest round succeeded, 0 if it failed.")
                  .tag("collector", c)
                  .register(registry);
              return v;
            });
    AtomicLong took =
        durationNanos.computeIfAbsent(
            collector,
            c -> {
              AtomicLong v = new AtomicLong();
              Gauge.builder("winstats.exporter.collector.duration", v, n -> n.get() / 1e9)
                  .description("How long the collector's latest round took.")
                  .baseUnit("seconds")
                  .tag("collector", c)
                  .register(registry);
              return v;
            });
    AtomicReference<Instant> last =
        lastSample.computeIfAbsent(
            collector,
            c -> {
              AtomicReference<Instant> v = new AtomicReference<>();
              Gauge.builder("winstats.exporter.sample.age", v, this::ageSeconds)
                  .description("Seconds since the newest sample of the source was taken (NaN before the first).")
                  .baseUnit("seconds")
                  .tag("source", c)
                  .register(registry);
              return v;
            });
    return new SamplingLoop.Listener<>() {
      @Override
      public void succeeded(T sample, long durationNanos) {
        publish.accept(sample);
        last.set(sampleTime.apply(sample));
        took.set(durationNanos);
        ok.set(1);
      }

      @Override
      public void failed(String reason, RuntimeException error, long durationNanos) {
        took.set(durationNanos);
        ok.set(0);
        errors(collector, reason).increment();
        onFailure.accept(reason);
      }
    };
  }

  /**
   * Counts, in {@code winstats_exporter_collector_errors_total{collector, reason="<part>_fallback"}}, a part of a
   * collector's round that began to be read from its fallback source (Windows task metrics or HNS, read from CRI stats
   * while they fail); the round itself succeeded.
   */
  public void fallbackStarted(String collector, String part) {
    errors(collector, part + "_fallback").increment();
  }

  /**
   * {@code winstats_exporter_otlp_exports_total} and {@code winstats_exporter_otlp_export_failures_total}, registered
   * only when the OTLP push is on: each push and each one that failed (refused, timed out, unreachable).
   *
   * @return the two counters' increments: {@code [exported, failed]}
   */
  public Runnable[] otlpExports() {
    Counter exports =
        Counter.builder("winstats.exporter.otlp.exports")
            .description("OTLP pushes attempted, each the figures of one snapshot.")
            .register(registry);
    Counter failures =
        Counter.builder("winstats.exporter.otlp.export.failures")
            .description("OTLP pushes that failed; the next interval pushes again.")
            .register(registry);
    return new Runnable[] {exports::increment, failures::increment};
  }

  private Counter errors(String collector, String reason) {
    return Counter.builder("winstats.exporter.collector.errors")
        .description("Failed collector rounds by reason.")
        .tag("collector", collector)
        .tag("reason", reason)
        .register(registry);
  }

  private double ageSeconds(AtomicReference<Instant> last) {
    Instant at = last.get();
    // A wall clock stepped back would make the age negative until the next sample; no sample is younger than now.
    return at == null ? Double.NaN : Math.max(0, Duration.between(at, clock.instant()).toNanos()) / 1e9;
  }

  /**
   * The daemon's own process and JVM series, which --web.disable-exporter-metrics leaves out as node_exporter's flag
   * leaves out process_* and go_*: client_java's process collector for the names every exporter dashboard and alert
   * uses (process_cpu_seconds_total, process_start_time_seconds, process_open_fds, process_max_fds,
   * process_resident_memory_bytes, process_virtual_memory_bytes; the last four where the JVM or /proc tells them),
   * Micrometer's JVM binders for jvm_*. Call before any other meter is registered: the filter applies to later meters.
   *
   * @param liveSeries the registry of the series rendered on each scrape, which the process collector joins
   * @return what releases the garbage collection listener
   */
  public AutoCloseable bindProcessAndJvm(PrometheusRegistry liveSeries) {
    ProcessMetrics.builder().register(liveSeries);
    // Micrometer's process_cpu_time_ns_total and system_cpu_count: promtool rejects both, and client_java's
    // process_cpu_seconds_total and machine_cpu_cores already say them.
    registry
        .config()
        .meterFilter(
            MeterFilter.deny(id -> id.getName().equals("process.cpu.time") || id.getName().equals("system.cpu.count")));
    new JvmMemoryMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    return gc;
  }

  /** {@code winstats_exporter_series}: data points in the snapshot part of {@code /metrics} as last rendered. */
  public void seriesCount(java.util.function.LongSupplier series) {
    Gauge.builder("winstats.exporter.series", series, s -> s.getAsLong())
        .description("Series in the snapshot-derived part of /metrics as last rendered.")
        .strongReference(true)
        .register(registry);
  }

  /**
   * {@code winstats_exporter_cri_cache_entries{cache}}: entries in each of the CRI reader's caches, read at scrape
   * time. After pods come and go they fall back to what the node runs once the stale entries expire.
   */
  public void criCacheEntries(java.util.function.Supplier<Map<String, Long>> entries) {
    for (String cache : entries.get().keySet()) {
      Gauge.builder("winstats.exporter.cri.cache.entries", entries, e -> e.get().getOrDefault(cache, 0L))
          .description("Entries in the CRI reader's caches: pod and container identities, previous CPU readings.")
          .tag("cache", cache)
          .strongReference(true)
          .register(registry);
    }
  }

  /**
   * {@code winstats_exporter_cri_stream_fallbacks_total{stream}}: how often the runtime lacked a CRI list stream
   * (KEP-5825) and the reader used the unary list call instead, read at scrape time. One per stream and runtime start
   * on a runtime without streams (containerd before 2.4); a count that keeps growing is a runtime that keeps
   * restarting.
   */
  public void criStreamFallbacks(java.util.function.Supplier<Map<String, Long>> fallbacks) {
    for (String stream : fallbacks.get().keySet()) {
      FunctionCounter.builder(
              "winstats.exporter.cri.stream.fallbacks", fallbacks, f -> f.get().getOrDefault(stream, 0L))
          .description("Times the runtime lacked a CRI list stream and the unary list call was used instead.")
          .tag("stream", stream)
          .register(registry);
    }
  }

  /**
   * {@code winstats_exporter_cri_calls_failed_total{call}}: on a Windows node reading the task source, how often each
   * of its calls that fail alone ({@code Tasks.ListPids}, {@code Snapshots.Usage}, {@code Introspection.Plugins}) did
   * not answer, read at scrape time; each failure leaves a process count or a layer unmeasured for that round.
   */
  public void criCallsFailed(java.util.function.Supplier<Map<String, Long>> failures) {
    for (String call : failures.get().keySet()) {
      FunctionCounter.builder("winstats.exporter.cri.calls.failed", failures, f -> f.get().getOrDefault(call, 0L))
          .description("Times a call of the Windows task source failed alone, leaving a process count or a layer"
              + " unmeasured.")
          .tag("call", call)
          .register(registry);
    }
  }

  /**
   * The node page's history: {@code winstats_exporter_history_bytes} (held now, counted as an upper bound), {@code
   * winstats_exporter_history_limit_bytes} (its hard limit) and {@code winstats_exporter_history_series_dropped_total}
   * (pods and containers left out at the limit). Registered only while the page is on.
   */
  public void history(
      java.util.function.LongSupplier bytes, long limitBytes, java.util.function.LongSupplier dropped) {
    Gauge.builder("winstats.exporter.history", bytes, b -> b.getAsLong())
        .description("Bytes the node page's history holds, counted as an upper bound.")
        .baseUnit("bytes")
        .strongReference(true)
        .register(registry);
    Gauge.builder("winstats.exporter.history.limit", () -> limitBytes)
        .description("The most bytes the node page's history may hold.")
        .baseUnit("bytes")
        .register(registry);
    FunctionCounter.builder("winstats.exporter.history.series.dropped", dropped, d -> d.getAsLong())
        .description("Pods and containers the node page's history left out because it was at its limit.")
        .register(registry);
  }

  /**
   * {@code winstats_exporter_sampling_interval_seconds}: the configured interval between samples, so that alerts can
   * say "no sample for 3 intervals" without hard-coding it.
   */
  public void samplingInterval(Duration interval) {
    double seconds = interval.toNanos() / 1e9;
    Gauge.builder("winstats.exporter.sampling.interval", () -> seconds)
        .description("The configured interval between two samples of each source.")
        .baseUnit("seconds")
        .register(registry);
  }

  /**
   * {@code winstats_exporter_build_info{version,revision,build_date,java_version,os}}, an info series of value 1.
   *
   * @param revision the git revision the jar was built from
   * @param buildDate when the jar was built
   * @param os the kind of node the daemon describes, {@code linux} or {@code windows}: from the node source (procfs
   *     describes a Linux node; PDH and replayed Windows counter logs a Windows node), not from the JVM's host
   */
  public static MultiCollector buildInfo(String version, String revision, String buildDate, String os) {
    MetricSnapshots snapshots =
        MetricSnapshots.of(
            new InfoSnapshot(
                BUILD_INFO.getMetadata(),
                List.of(
                    InfoSnapshot.InfoDataPointSnapshot.builder()
                        .labels(
                            Labels.of(
                                "version", version,
                                "revision", revision,
                                "build_date", buildDate,
                                "java_version", System.getProperty("java.version"),
                                "os", os))
                        .build())));
    return new MultiCollector() {
      @Override
      public MetricSnapshots collect() {
        return snapshots;
      }

      @Override
      public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
        return List.of(BUILD_INFO);
      }
    };
  }

  /** {@code winstats_exporter_build_info}, as node_exporter's {@code node_exporter_build_info} is built. */
  static final MetricFamilyDescriptor BUILD_INFO =
      MetricFamilyDescriptor.info("winstats_exporter_build")
          .help("The daemon's version and runtime.")
          .labelNames("version", "revision", "build_date", "java_version", "os")
          .build();
}
