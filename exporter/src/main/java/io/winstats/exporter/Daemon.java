package io.winstats.exporter;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.InodeCounter;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.WindowsStatsSource;
import io.winstats.cri.cgroups.CgroupSampler;
import io.winstats.cri.rounds.CriStatsReaders;
import io.winstats.exporter.history.HistoryRecorder;
import io.winstats.exporter.history.NodeHistory;
import io.winstats.exporter.http.ExporterServer;
import io.winstats.exporter.http.ListenAddress;
import io.winstats.exporter.metrics.Collector;
import io.winstats.exporter.metrics.EnabledCollectors;
import io.winstats.exporter.metrics.Exposition;
import io.winstats.exporter.metrics.SelfMetrics;
import io.winstats.exporter.metrics.SeriesPush;
import io.winstats.exporter.parts.PartLedger;
import io.winstats.exporter.parts.PartState;
import io.winstats.exporter.parts.PartsReport;
import io.winstats.exporter.sampling.RuntimePublisher;
import io.winstats.exporter.sampling.SamplingLoop;
import io.winstats.exporter.sampling.SnapshotStore;
import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.procfs.Statvfs;
import io.winstats.perfcounters.replay.CounterLogRecorder;
import io.winstats.perfcounters.sources.NodeCounterSources;
import io.winstats.perfcounters.sources.NodeSourceSpec;
import io.winstats.summary.SummaryAssembler;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.ServiceLoader;
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
  private final PartLedger parts = new PartLedger();
  private final ExporterServer server;

  private Daemon(ExporterConfig config, Clock clock) {
    SettingValues settings = config.settings();
    Duration interval = settings.value(SamplingSettings.INTERVAL);
    ListenAddress listen = settings.value(WebSettings.LISTEN_ADDRESS);
    try {
      EnabledCollectors collectors = config.collectors();
      SnapshotStore store = collectors.isOn(Collector.CRI) ? new SnapshotStore() : SnapshotStore.withoutRuntime();
      NodeCounterSource nodeSource = openNodeSource(config, clock);
      started.push(nodeSource);
      NodePlatform platform = nodeSource.platform();

      Exposition exposition =
          new Exposition(
              store::current,
              platform,
              collectors,
              new Exposition.Build(BuildInfo.version(), BuildInfo.revision(), BuildInfo.buildDate()),
              !settings.value(WebSettings.DISABLE_EXPORTER_METRICS),
              config.families(),
              clock);
      started.push(exposition);
      nodeSource.perfCounterReadings().ifPresent(exposition::perfCounters);
      SelfMetrics self = exposition.self();
      self.samplingInterval(interval);

      // The node page's history, recorded after each publication; with the page off none is kept.
      NodeHistory history =
          settings.value(WebSettings.NODE_PAGE)
              ? new NodeHistory(NodeHistory.DEFAULT_SAMPLES, config.nodeName(), platform, interval)
              : null;
      HistoryRecorder historyRecorder =
          history == null ? null : new HistoryRecorder(history, new SummaryAssembler(config.nodeName(), platform));
      if (history != null) {
        self.history(history::bytes, history.limitBytes(), history::droppedSeries);
      }
      Consumer<NodeSample> publishNode = store::publishNode;
      if (historyRecorder != null) {
        publishNode = publishNode.andThen(sample -> historyRecorder.nodePublished(store.current()));
      }
      Path recordFile = settings.optional(NodeSettings.RECORD);
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
              tracked(
                  self.listener("node_" + nodeSource.name(), publishNode, NodeSample::timestamp, reason -> {}),
                  sample -> parts.ok(SelfCheck.NODE_SOURCE, nodeSource.name(), sample.timestamp()),
                  cause -> parts.error(SelfCheck.NODE_SOURCE, PartState.FAILED, cause, null)),
              interval);
      SamplingLoop<RuntimeSample> criLoop =
          collectors.runs(Collector.CRI, platform)
              ? criLoop(config, platform, store, self, clock, historyRecorder)
              : null;

      server =
          new ExporterServer(
              listen,
              config.server(),
              store::current,
              new SummaryAssembler(config.nodeName(), platform),
              exposition.metrics(),
              exposition.cadvisor(),
              history);
      server.parts(() -> new PartsReport(parts.rows()));
      server.start();
      started.push(server);
      parts.ok(SelfCheck.LISTEN, listen.toString(), clock.instant());
      if (config.server().web() != null || config.server().bearerTokenFile() != null) {
        parts.ok(SelfCheck.WEB_CONFIG, "loaded", clock.instant());
      } else {
        parts.notApplicable(SelfCheck.WEB_CONFIG, "no --web.config.file or --web.auth.bearer-token-file");
      }
      nodeLoop.start();
      started.push(nodeLoop);
      if (criLoop != null) {
        criLoop.start();
        started.push(criLoop);
      }
      if (settings.value(OtlpSettings.ENABLED)) {
        started.push(startPush(config, exposition));
      }
      LOG.info(
          "event=started version={} revision={} build_date={} listen={} {} collectors={} node_source={}"
              + " cri_endpoint={} {} interval={} node={}",
          BuildInfo.version(),
          BuildInfo.revision(),
          BuildInfo.buildDate(),
          listen,
          server.description(),
          collectors.running(platform).isEmpty() ? "none" : String.join(",", collectors.runningNames(platform)),
          nodeSource.name(),
          settings.value(CriSettings.ENDPOINT),
          podStatsFields(config, platform),
          DurationFlag.format(interval),
          config.nodeName());
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * Where pod and container figures come from, for the start line: the CRI stats call, and on a Windows node the
   * source chosen by --cri.windows-stats (with {@code tasks} the CRI call is only what a failing part falls back to).
   */
  static String podStatsFields(ExporterConfig config, NodePlatform platform) {
    String call = "cri_stats_call=" + config.settings().value(CriSettings.STATS_CALL).rpcName();
    return platform == NodePlatform.WINDOWS
        ? "windows_stats=" + config.settings().value(CriSettings.WINDOWS_STATS).word() + " " + call
        : call;
  }

  /**
   * The CRI reader on its loop, publishing each round; on a Linux node with the cgroup collector on, the round's
   * cgroups are read right after it is published. The history, if any, records the round once both are published.
   */
  private SamplingLoop<RuntimeSample> criLoop(
      ExporterConfig config,
      NodePlatform platform,
      SnapshotStore store,
      SelfMetrics self,
      Clock clock,
      @Nullable HistoryRecorder recorder) {
    SettingValues settings = config.settings();
    CriEndpoint endpoint = settings.value(CriSettings.ENDPOINT);
    // The node's kind, not the host's: a replayed Windows node on Linux reads its runtime's task metrics.
    WindowsStatsSource windowsStats =
        platform == NodePlatform.WINDOWS ? settings.value(CriSettings.WINDOWS_STATS) : WindowsStatsSource.CRI;
    CriStatsReader cri =
        CriStatsReaders.open(
            endpoint,
            CriReaderOptions.of(settings.value(CriSettings.TIMEOUT), clock)
                .withWindowsHost(HostOs.current().isWindows())
                .withStatsCall(settings.value(CriSettings.STATS_CALL))
                .withInodes(Daemon::statvfsInodes)
                .withWindowsStats(windowsStats));
    started.push(cri);
    self.criCacheEntries(cri::cacheEntries);
    self.criStreamFallbacks(cri::streamFallbacks);
    CgroupSampler cgroups =
        config.collectors().runs(Collector.CGROUP, platform) ? CgroupSampler.probeHost(clock) : null;
    Consumer<RuntimeSample> publish =
        cgroups == null ? store::publishRuntime : RuntimePublisher.readingCgroups(store, cgroups);
    // A part that began to fall back to CRI stats this round (Windows task metrics, HNS) is counted once as an error.
    Consumer<RuntimeSample> publishRuntime =
        sample -> {
          sample.fallbacksStarted().forEach(part -> self.fallbackStarted(cri.name(), part));
          publish.accept(sample);
          if (recorder != null) {
            recorder.runtimePublished(store.current());
          }
        };
    RuntimeParts runtimeParts =
        new RuntimeParts(parts, cri, platform == NodePlatform.WINDOWS ? windowsStats : null, clock);
    if (runtimeParts.readsTasks()) {
      self.criCallsFailed(runtimeParts::callFailures);
    }
    return new SamplingLoop<>(
        "cri",
        "no container runtime answers at " + endpoint + ": pod and container stats are missing, node"
            + " stats are served",
        cri::sample,
        Daemon::criReason,
        tracked(
            self.listener("cri", publishRuntime, RuntimeSample::timestamp, store::runtimeFailed),
            runtimeParts::answered,
            runtimeParts::failed),
        settings.value(SamplingSettings.INTERVAL));
  }

  /**
   * The OTLP push, found as a service: with the push off, neither it nor the OpenTelemetry SDK is loaded. It reads the
   * families {@code /metrics} serves, from the same per-snapshot caches.
   */
  private static SeriesPush startPush(ExporterConfig config, Exposition exposition) {
    SeriesPush.Provider provider =
        ServiceLoader.load(SeriesPush.Provider.class)
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("--otlp.enabled: this build has no OTLP push"));
    Runnable[] counts = exposition.self().otlpExports();
    return provider.start(
        new SeriesPush.Target(
            config.nodeName(), BuildInfo.version(), config.settings().optional(OtlpSettings.INTERVAL),
            exposition.metrics()::series, counts[0], counts[1]));
  }

  /** {@code listener}, also telling {@code ok} of each sample and {@code failed} of each failure's cause. */
  private static <T> SamplingLoop.Listener<T> tracked(
      SamplingLoop.Listener<T> listener, Consumer<T> ok, Consumer<String> failed) {
    return new SamplingLoop.Listener<>() {
      @Override
      public void succeeded(T sample, long durationNanos) {
        listener.succeeded(sample, durationNanos);
        ok.accept(sample);
      }

      @Override
      public void failed(String reason, RuntimeException error, long durationNanos) {
        listener.failed(reason, error, durationNanos);
        failed.accept(reason + ": " + error.getMessage());
      }
    };
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
  static NodeCounterSource openNodeSource(ExporterConfig config, Clock clock) {
    SettingValues settings = config.settings();
    NodeSourceSpec spec = settings.value(NodeSettings.SOURCE);
    try {
      return NodeCounterSources.open(
          spec,
          clock,
          config.customCounters(),
          settings.value(NodeSettings.MEMORY_WORKING_SET),
          settings.value(NodeSettings.KUBELET_ROOT_DIR),
          // A service collector that is off costs nothing: the Service Control Manager is not asked.
          config.collectors().runs(Collector.WINDOWS_SERVICE, NodePlatform.WINDOWS) ? config.nodeServices() : null,
          // Nor is the IP Helper API when the net collector is off.
          config.collectors().runs(Collector.WINDOWS_NET, NodePlatform.WINDOWS),
          // Nor are the volume management functions when the logical_disk collector is off.
          config.collectors().runs(Collector.WINDOWS_LOGICAL_DISK, NodePlatform.WINDOWS),
          // Nor are the registry and GetComputerNameExW when the os collector is off.
          config.collectors().runs(Collector.WINDOWS_OS, NodePlatform.WINDOWS),
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

  private static String nodeReason(RuntimeException e) {
    return e instanceof NodeSourceException n ? n.reason().label() : "internal";
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
  static InodeCounter.@Nullable Inodes statvfsInodes(java.nio.file.Path path) {
    Statvfs.Inodes inodes = Statvfs.inodes(path);
    return inodes == null ? null : new InodeCounter.Inodes(inodes.total(), inodes.free());
  }
}
