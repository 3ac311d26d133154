package io.winstats.exporter;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.InodeCounter;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupSampler;
import io.winstats.exporter.http.ExporterServer;
import io.winstats.exporter.metrics.CadvisorSeriesCollector;
import io.winstats.exporter.metrics.CgroupSeriesCollector;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.metrics.NodeExporterSeries;
import io.winstats.exporter.metrics.PerfCounterSeries;
import io.winstats.exporter.metrics.SelfMetrics;
import io.winstats.exporter.metrics.WindowsContainerSeries;
import io.winstats.exporter.metrics.WindowsExporterSeries;
import io.winstats.exporter.sampling.RuntimePublisher;
import io.winstats.exporter.sampling.SamplingLoop;
import io.winstats.exporter.sampling.SnapshotStore;
import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.sources.NodeCounterSources;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.procfs.Statvfs;
import io.winstats.perfcounters.replay.CounterLogRecorder;
import io.winstats.summary.SummaryAssembler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running daemon: the node source and the CRI reader, each on its own sampling loop, publishing into one
 * snapshot store that the HTTP server reads. Closing stops everything in reverse order of start.
 */
public final class Daemon implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Daemon.class);

  private final Deque<AutoCloseable> started = new ArrayDeque<>();
  private final ExporterServer server;

  private Daemon(ExporterConfig config, Clock clock) {
    try {
      SnapshotStore store = new SnapshotStore();
      NodeCounterSource nodeSource = openNodeSource(config, clock);
      started.push(nodeSource);
      CriEndpoint endpoint = CriEndpoint.parse(config.criEndpoint());
      CriStatsReader cri =
          CriStatsReader.open(
              endpoint,
              config.criTimeout(),
              clock,
              config.criStatsCall(),
              Daemon::statvfsInodes,
              HostOs.current().isWindows());
      started.push(cri);

      // Series built from the snapshot render once per version; Micrometer's live series render per scrape.
      PrometheusRegistry snapshotSeries = new PrometheusRegistry();
      PrometheusRegistry liveSeries = new PrometheusRegistry();
      PrometheusMeterRegistry micrometer =
          new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, liveSeries, io.micrometer.core.instrument.Clock.SYSTEM);
      started.push(micrometer::close);
      if (config.exporterMetrics()) {
        bindExporterMetrics(micrometer, liveSeries);
      }
      // procfs describes a Linux node; PDH and replayed counter logs describe a Windows node.
      boolean windowsNode = !nodeSource.name().equals("procfs");
      snapshotSeries.register(SelfMetrics.buildInfo(
          BuildInfo.version(), BuildInfo.revision(), BuildInfo.buildDate(), windowsNode ? "windows" : "linux"));
      CadvisorSeriesCollector cadvisorSeries = new CadvisorSeriesCollector(store::current, windowsNode);
      CgroupSeriesCollector cgroupSeries = new CgroupSeriesCollector(store::current);
      snapshotSeries.register(cadvisorSeries);
      snapshotSeries.register(cgroupSeries);
      // /metrics/cadvisor: the same collectors alone, as the kubelet serves them on that path.
      PrometheusRegistry cadvisorOnly = new PrometheusRegistry();
      cadvisorOnly.register(cadvisorSeries);
      cadvisorOnly.register(cgroupSeries);
      snapshotSeries.register(
          windowsNode ? new WindowsExporterSeries(store::current) : new NodeExporterSeries(store::current));
      if (windowsNode) {
        snapshotSeries.register(new WindowsContainerSeries(store::current));
      }
      // Read on each scrape: both are published by the sampling thread and cheap to copy.
      nodeSource
          .perfCounterReadings()
          .ifPresent(r -> liveSeries.register(new PerfCounterSeries(r::customValues, r::health)));
      MetricsRenderer renderer =
          new MetricsRenderer(
              snapshotSeries, liveSeries, () -> store.current().version(), Duration.ofSeconds(1), System::nanoTime,
              config.families());
      MetricsRenderer cadvisorRenderer =
          new MetricsRenderer(
              cadvisorOnly, new PrometheusRegistry(), () -> store.current().version(), Duration.ofSeconds(1),
              System::nanoTime);
      SelfMetrics self = new SelfMetrics(micrometer, clock);
      self.seriesCount(renderer::lastSeriesCount);
      self.samplingInterval(config.samplingInterval());
      self.criCacheEntries(cri::cacheEntries);

      Consumer<NodeSample> publishNode = store::publishNode;
      Path recordFile = config.recordFile();
      if (recordFile != null) {
        CounterLogRecorder recorder = openRecorder(recordFile, config.nodeName());
        started.push(recorder);
        publishNode = publishNode.andThen(recorder::record);
      }
      SamplingLoop<NodeSample> nodeLoop =
          new SamplingLoop<>(
              "node_" + nodeSource.name(),
              "node figures stay at their last sample",
              nodeSource::sample,
              Daemon::nodeReason,
              self.listener("node_" + nodeSource.name(), publishNode, NodeSample::timestamp, reason -> {}),
              config.samplingInterval());
      SamplingLoop<RuntimeSample> criLoop =
          new SamplingLoop<>(
              "cri",
              "no container runtime answers at " + endpoint + ": pod and container stats are missing, node stats"
                  + " are served",
              cri::sample,
              Daemon::criReason,
              self.listener("cri", publishRuntime(store, windowsNode, clock), RuntimeSample::timestamp, store::runtimeFailed),
              config.samplingInterval());

      server =
          new ExporterServer(
              config.listenAddress(),
              config.server(),
              store::current,
              new SummaryAssembler(config.nodeName(), windowsNode),
              renderer,
              cadvisorRenderer);
      server.start();
      started.push(server);
      nodeLoop.start();
      started.push(nodeLoop);
      criLoop.start();
      started.push(criLoop);
      LOG.info(
          "event=started version={} revision={} build_date={} listen={} {} node_source={} cri_endpoint={}"
              + " cri_stats_call={} interval={} node={}",
          BuildInfo.version(),
          BuildInfo.revision(),
          BuildInfo.buildDate(),
          config.listenAddress(),
          server.description(),
          nodeSource.name(),
          endpoint,
          config.criStatsCall().rpcName(),
          DurationFlag.format(config.samplingInterval()),
          config.nodeName());
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Starts everything; throws {@link IllegalArgumentException} for a bad source, endpoint or record file. */
  public static Daemon start(ExporterConfig config, Clock clock) {
    return new Daemon(config, clock);
  }

  /** The bound HTTP port. */
  public int port() {
    return server.port();
  }

  /** A source that cannot open at start-up is a configuration problem: refuse to start, naming the flag. */
  private static NodeCounterSource openNodeSource(ExporterConfig config, Clock clock) {
    String spec = config.nodeSource();
    try {
      return NodeCounterSources.open(
          spec,
          clock,
          config.customCounters(),
          config.nodeWorkingSet(),
          config.kubeletRootDir(),
          HostOs.current().isWindows());
    } catch (NodeSourceException | IllegalArgumentException e) {
      throw new IllegalArgumentException("--node.source=" + spec + ": " + e.getMessage(), e);
    }
  }

  private static CounterLogRecorder openRecorder(Path file, String host) {
    try {
      return CounterLogRecorder.open(file, host);
    } catch (IOException e) {
      throw new IllegalArgumentException("--record: cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * On a Linux node with cgroups, each successful runtime round is published, then its containers' and pods'
   * cgroups, read on the same thread right after it (so a scrape never reads the OS); elsewhere the round alone.
   */
  private static Consumer<RuntimeSample> publishRuntime(SnapshotStore store, boolean windowsNode, Clock clock) {
    if (windowsNode || !Files.isDirectory(Path.of("/sys/fs/cgroup"))) {
      return store::publishRuntime;
    }
    CgroupSampler cgroups = CgroupSampler.host(clock);
    LOG.info("event=cgroups_enabled version={}", cgroups.version());
    return new RuntimePublisher(store, round -> readCgroups(cgroups, round));
  }

  private static @Nullable CgroupSample readCgroups(CgroupSampler cgroups, RuntimeSample round) {
    try {
      CgroupSample sample = cgroups.sample(round);
      if (!sample.missing().isEmpty()) {
        LOG.debug("event=cgroups_missing ids={}", sample.missing());
      }
      return sample;
    } catch (RuntimeException e) {
      // A malformed cgroup file loses this round's cgroup series, never the CRI figures.
      LOG.warn("event=cgroups_failed error={}", e.toString());
      return null;
    }
  }

  private static String nodeReason(RuntimeException e) {
    return e instanceof NodeSourceException n ? n.reason().label() : "internal";
  }

  /**
   * The daemon's own process and JVM series, which --web.disable-exporter-metrics leaves out as node_exporter's flag
   * leaves out process_* and go_*: client_java's process collector for the names every exporter dashboard and alert
   * uses (process_cpu_seconds_total, process_start_time_seconds, process_open_fds, process_max_fds,
   * process_resident_memory_bytes, process_virtual_memory_bytes; the last four where the JVM or /proc tells them),
   * Micrometer's JVM binders for jvm_*.
   */
  private void bindExporterMetrics(PrometheusMeterRegistry micrometer, PrometheusRegistry liveSeries) {
    ProcessMetrics.builder().register(liveSeries);
    // Micrometer's process_cpu_time_ns_total and system_cpu_count: promtool rejects both, and client_java's
    // process_cpu_seconds_total and machine_cpu_cores already say them.
    micrometer
        .config()
        .meterFilter(
            MeterFilter.deny(id -> id.getName().equals("process.cpu.time") || id.getName().equals("system.cpu.count")));
    new JvmMemoryMetrics().bindTo(micrometer);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(micrometer);
    started.push(gc);
    new JvmThreadMetrics().bindTo(micrometer);
    new ClassLoaderMetrics().bindTo(micrometer);
    new ProcessorMetrics().bindTo(micrometer);
  }

  private static String criReason(RuntimeException e) {
    return e instanceof CriException c ? c.label() : "internal";
  }

  @Override
  public void close() {
    while (!started.isEmpty()) {
      AutoCloseable c = started.pop();
      try {
        c.close();
      } catch (IOException e) {
        LOG.warn("event=close_failed error={}", e.getMessage());
      } catch (Exception e) {
        LOG.warn("event=close_failed error={}", e.toString());
      }
    }
  }


  /** The runtime filesystems' inode counts from {@code statvfs(3)}; none off Linux. */
  private static InodeCounter.@Nullable Inodes statvfsInodes(java.nio.file.Path path) {
    Statvfs.Inodes inodes = Statvfs.inodes(path);
    return inodes == null ? null : new InodeCounter.Inodes(inodes.total(), inodes.free());
  }
}
