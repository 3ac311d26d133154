package io.winstats.exporter;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.StatsCall;
import io.winstats.cri.WindowsStatsSource;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupSampler;
import io.winstats.cri.rounds.CriStatsReaders;
import io.winstats.exporter.http.ListenAddress;
import io.winstats.exporter.http.WebConfigCheck;
import io.winstats.exporter.metrics.Collector;
import io.winstats.exporter.parts.PartStatus;
import io.winstats.exporter.parts.PartsReport;
import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.counters.CounterHealth;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One pass over every part the daemon depends on, each probed the way the daemon uses it (the same sources, readers
 * and settings), as rows of {@link PartStatus}: what {@code check} prints.
 */
final class SelfCheck {
  static final String NODE_SOURCE = "node_source";
  static final String RUNTIME = "runtime";
  static final String POD_STATS = "runtime.pod_stats";
  static final String CONTAINER_STATS = "runtime.container_stats";
  static final String STREAMING = "runtime.streaming";
  static final String TASKS_METRICS = "tasks_metrics";
  static final String HNS = "hns";
  static final String CGROUPS = "cgroups";
  static final String WEB_CONFIG = "web_config";
  static final String LISTEN = "listen_address";

  /** The task source's calls, as a row of {@link #TASKS_METRICS} says they answered. */
  static final String TASK_CALLS =
      "Tasks.Metrics, Tasks.ListPids, Snapshots.Usage, Containers.Get and Introspection.Plugins answered";

  /**
   * Of a round read with task metrics, the calls other than {@code Tasks.Metrics} that did not answer, each with its
   * cause, for the {@link #TASKS_METRICS} row; {@code null} when every call asked answered. Their failure leaves a
   * process count or a layer unmeasured, never the figures {@code Tasks.Metrics} gave.
   */
  static @Nullable String tasksCallsFailed(RuntimeSample round) {
    if (round.callsFailed().isEmpty()) {
      return null;
    }
    StringBuilder cause = new StringBuilder();
    round.callsFailed().forEach(
        (call, why) -> cause.append(cause.length() == 0 ? "" : "; ").append(call).append(" did not answer: ")
            .append(why));
    return cause.append(" (those figures unmeasured; CPU and memory still from Tasks.Metrics)").toString();
  }

  /** How a reader of the runtime is opened: as the daemon opens it, or (in tests) with a fake HNS. */
  @FunctionalInterface
  interface Readers {
    CriStatsReader open(ExporterConfig config, Clock clock, StatsCall call, WindowsStatsSource source);
  }

  private final ExporterConfig config;
  private final SettingValues settings;
  private final Clock clock;
  private final Readers readers;
  private final List<PartStatus> rows = new ArrayList<>();

  private SelfCheck(ExporterConfig config, Clock clock, Readers readers) {
    this.config = config;
    this.settings = config.settings();
    this.clock = clock;
    this.readers = readers;
  }

  /** Probes every part once, as the daemon would; never throws for a part that fails, which is a row. */
  static PartsReport run(ExporterConfig config, Clock clock) {
    return run(config, clock, SelfCheck::daemonReader);
  }

  /** As above, with the runtime's readers from {@code readers}. */
  static PartsReport run(ExporterConfig config, Clock clock, Readers readers) {
    SelfCheck check = new SelfCheck(config, clock, readers);
    NodePlatform platform = check.nodeSource();
    check.runtime(platform);
    check.webConfig();
    check.listenAddress();
    return new PartsReport(check.rows);
  }

  /** The node source opened and sampled once; on PDH every bound counter path's health. */
  private NodePlatform nodeSource() {
    NodePlatform platform = HostOs.current().isWindows() ? NodePlatform.WINDOWS : NodePlatform.LINUX;
    try (NodeCounterSource source = Daemon.openNodeSource(config, clock)) {
      platform = source.platform();
      NodeSample sample = source.sample();
      String detail =
          source.name() + " cores=" + (sample.cpu() == null ? 0 : sample.cpu().cores().size()) + " interfaces="
              + sample.interfaces().size() + " filesystems=" + sample.filesystems().size() + " disks="
              + sample.disks().size();
      List<CounterHealth> health =
          source.perfCounterReadings().map(r -> r.health()).orElse(List.of());
      List<String> failing =
          health.stream().filter(h -> !h.ok()).map(h -> h.path() + " " + h.status()).toList();
      if (!health.isEmpty()) {
        detail += " counters=" + (health.size() - failing.size()) + "/" + health.size();
      }
      List<String> missing = new ArrayList<>(failing);
      sample.missing().forEach((part, why) -> missing.add(part.name().toLowerCase(java.util.Locale.ROOT) + ": " + why));
      rows.add(
          missing.isEmpty()
              ? PartStatus.ok(NODE_SOURCE, detail, clock.instant())
              : PartStatus.degraded(NODE_SOURCE, detail, String.join("; ", missing), clock.instant()));
    } catch (RuntimeException e) {
      rows.add(
          PartStatus.failed(
              NODE_SOURCE, String.valueOf(e.getMessage()),
              platform == NodePlatform.WINDOWS
                  ? "run on the node as a HostProcess pod (the chart's Windows DaemonSet); --node.source=pdh"
                  : "mount the host's /proc (the chart mounts it); --node.source=procfs"));
    } catch (Exception e) {
      rows.add(PartStatus.failed(NODE_SOURCE, e.toString(), "see the daemon's log"));
    }
    return platform;
  }

  private void runtime(NodePlatform platform) {
    if (!config.collectors().runs(Collector.CRI, platform)) {
      String why = "--no-collector.cri";
      for (String part : List.of(RUNTIME, POD_STATS, CONTAINER_STATS, STREAMING, TASKS_METRICS, HNS, CGROUPS)) {
        rows.add(PartStatus.notApplicable(part, why));
      }
      return;
    }
    boolean windows = platform == NodePlatform.WINDOWS;
    CriEndpoint endpoint = settings.value(CriSettings.ENDPOINT);
    WindowsStatsSource source = windows ? settings.value(CriSettings.WINDOWS_STATS) : WindowsStatsSource.CRI;
    RuntimeSample round;
    Map<String, Long> streams;
    String path;
    try (CriStatsReader reader = open(settings.value(CriSettings.STATS_CALL), source)) {
      round = reader.sample();
      streams = reader.streamFallbacks();
      path = reader.statsPath();
    } catch (CriException e) {
      rows.add(
          PartStatus.failed(
              RUNTIME, e.label() + ": " + e.getMessage(),
              "is the runtime running and its socket or pipe mounted at --cri.endpoint=" + endpoint
                  + "? (the chart mounts the node's containerd socket)"));
      for (String part : List.of(POD_STATS, CONTAINER_STATS, STREAMING)) {
        rows.add(new PartStatus(part, io.winstats.exporter.parts.PartState.FAILED, "", "not asked: the runtime does"
            + " not answer", null, null, null, 0));
      }
      windowsParts(windows, source, null);
      linuxCgroups(windows, null);
      return;
    }
    rows.add(
        PartStatus.ok(
            RUNTIME, round.runtimeName() + " at " + endpoint + " pods=" + round.pods().size() + " path="
                + path, clock.instant()));
    statsCall(POD_STATS, StatsCall.LIST_POD_SANDBOX_STATS);
    statsCall(CONTAINER_STATS, StatsCall.LIST_CONTAINER_STATS);
    List<String> unary = streams.entrySet().stream().filter(e -> e.getValue() > 0).map(Map.Entry::getKey).toList();
    rows.add(
        unary.isEmpty()
            ? PartStatus.ok(STREAMING, "every list is streamed (KEP-5825)", clock.instant())
            : PartStatus.notApplicable(
                STREAMING, "unary lists: the runtime lacks " + String.join(", ", unary) + " (KEP-5825)"));
    windowsParts(windows, source, round);
    linuxCgroups(windows, round);
  }

  /** One CRI stats call asked alone, with no fallback to the other: does it answer? */
  private void statsCall(String part, StatsCall call) {
    try (CriStatsReader reader = open(call, WindowsStatsSource.CRI)) {
      RuntimeSample round = reader.sample();
      String path = reader.statsPath();
      rows.add(
          path.equals(call.rpcName())
              ? PartStatus.ok(part, call.rpcName() + " pods=" + round.pods().size(), clock.instant())
              : PartStatus.degraded(
                  part, path + " instead", call.rpcName() + " is not implemented by the runtime", null));
    } catch (CriException e) {
      rows.add(PartStatus.degraded(part, "", call.rpcName() + ": " + e.label() + ": " + e.getMessage(), null));
    }
  }

  /** The task source and HNS, as the configured round found them (each falls back to CRI stats on its own). */
  private void windowsParts(boolean windows, WindowsStatsSource source, @Nullable RuntimeSample round) {
    if (!windows || source != WindowsStatsSource.TASKS) {
      String why = windows ? "--cri.windows-stats=" + source.word() : "a Linux node";
      rows.add(PartStatus.notApplicable(TASKS_METRICS, why));
      rows.add(PartStatus.notApplicable(HNS, why));
      return;
    }
    for (String part : List.of(TASKS_METRICS, HNS)) {
      String callsFailed = round == null || !part.equals(TASKS_METRICS) ? null : tasksCallsFailed(round);
      if (round == null) {
        rows.add(PartStatus.failed(part, "not asked: the runtime does not answer", "see the runtime row"));
      } else if (round.fallbacksStarted().contains(part)) {
        rows.add(
            PartStatus.degraded(
                part, "CRI stats instead", part + " failed; the daemon's log line event=cri_"
                    + (part.equals(HNS) ? "hns" : "tasks") + "_fallback names the call and its cause", null));
      } else if (callsFailed != null) {
        rows.add(PartStatus.degraded(part, "Tasks.Metrics answered", callsFailed, clock.instant()));
      } else {
        rows.add(PartStatus.ok(part, part.equals(TASKS_METRICS) ? TASK_CALLS : "answered", clock.instant()));
      }
    }
  }

  /** On Linux the cgroup version, and the files of the round's containers read once. */
  private void linuxCgroups(boolean windows, @Nullable RuntimeSample round) {
    if (windows) {
      rows.add(PartStatus.notApplicable(CGROUPS, "a Windows node"));
      return;
    }
    if (!config.collectors().runs(Collector.CGROUP, NodePlatform.LINUX)) {
      rows.add(PartStatus.notApplicable(CGROUPS, "--no-collector.cgroup"));
      return;
    }
    CgroupSampler cgroups = CgroupSampler.probeHost(clock);
    if (cgroups == null) {
      rows.add(PartStatus.failed(CGROUPS, "no /sys/fs/cgroup", "mount the host's /sys/fs/cgroup (the chart does)"));
      return;
    }
    if (round == null) {
      rows.add(PartStatus.degraded(CGROUPS, cgroups.version().toString(), "no container to read: no runtime", null));
      return;
    }
    CgroupSample sample = cgroups.sample(round);
    String detail =
        cgroups.version() + " containers=" + sample.containers().size() + " pods=" + sample.pods().size();
    rows.add(
        sample.missing().isEmpty()
            ? PartStatus.ok(CGROUPS, detail, clock.instant())
            : PartStatus.degraded(
                CGROUPS, detail, "unreadable: " + String.join("; ", sample.missing()), clock.instant()));
  }

  private void webConfig() {
    if (config.server().web() == null && config.server().bearerTokenFile() == null) {
      rows.add(PartStatus.notApplicable(WEB_CONFIG, "no --web.config.file or --web.auth.bearer-token-file"));
      return;
    }
    try {
      rows.add(PartStatus.ok(WEB_CONFIG, WebConfigCheck.describe(config.server()), clock.instant()));
    } catch (IllegalArgumentException e) {
      rows.add(
          PartStatus.failed(
              WEB_CONFIG, String.valueOf(e.getMessage()), "fix the file named (the chart mounts it from its Secret)"));
    }
  }

  /** Free, or held by a winstats-exporter (this daemon, when check runs in its pod): its landing page says so. */
  private void listenAddress() {
    ListenAddress listen = settings.value(WebSettings.LISTEN_ADDRESS);
    InetSocketAddress address = new InetSocketAddress(listen.bindHost(), listen.port());
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(address);
      rows.add(PartStatus.ok(LISTEN, listen + " free", clock.instant()));
      return;
    } catch (IOException e) {
      // held: whose is it?
    }
    String scheme = config.server().web() != null && config.server().web().tls() != null ? "https" : "http";
    String host =
        listen.bindHost().isEmpty() || listen.bindHost().equals("0.0.0.0") ? "127.0.0.1" : listen.bindHost();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    try {
      HttpResponse<String> page =
          HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()
              .send(
                  HttpRequest.newBuilder(URI.create(scheme + "://" + host + ":" + listen.port() + "/"))
                      .header("Accept", "text/plain").timeout(Duration.ofSeconds(2)).build(),
                  HttpResponse.BodyHandlers.ofString());
      if (page.body().startsWith("winstats-exporter") || page.statusCode() == 401) {
        rows.add(PartStatus.ok(LISTEN, listen + " held by a winstats-exporter (HTTP "
            + page.statusCode() + ")", clock.instant()));
        return;
      }
      rows.add(PartStatus.failed(LISTEN, listen + " is held by another server (HTTP "
          + page.statusCode() + ")", "choose another --web.listen-address, or stop what holds it"));
    } catch (IOException e) {
      rows.add(PartStatus.failed(LISTEN, listen + " is held, and does not answer HTTP: " + e,
          "choose another --web.listen-address, or stop what holds it"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      rows.add(PartStatus.failed(LISTEN, "interrupted", "run check again"));
    }
  }

  private CriStatsReader open(StatsCall call, WindowsStatsSource source) {
    return readers.open(config, clock, call, source);
  }

  private static CriStatsReader daemonReader(
      ExporterConfig config, Clock clock, StatsCall call, WindowsStatsSource source) {
    return CriStatsReaders.open(
        config.settings().value(CriSettings.ENDPOINT),
        CriReaderOptions.of(config.settings().value(CriSettings.TIMEOUT), clock)
            .withWindowsHost(HostOs.current().isWindows())
            .withStatsCall(call)
            .withInodes(Daemon::statvfsInodes)
            .withWindowsStats(source));
  }
}
