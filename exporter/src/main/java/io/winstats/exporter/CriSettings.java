package io.winstats.exporter;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.StatsCall;
import io.winstats.cri.WindowsStatsSource;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** The container runtime's settings ({@code cri.*}), in {@link #ALL}. */
final class CriSettings {
  private CriSettings() {}

  static final String DEFAULT_CRI_ENDPOINT_LINUX = "unix:///run/containerd/containerd.sock";
  static final String DEFAULT_CRI_ENDPOINT_WINDOWS = "npipe:////./pipe/containerd-containerd";

  static final Setting<CriEndpoint> ENDPOINT =
      Setting.valued(
          "cri.endpoint",
          "URI",
          defaultCriEndpoint(),
          "Container runtime CRI endpoint: unix:///path, tcp://HOST:PORT or npipe:////./pipe/NAME.",
          CriSettings::criEndpoint)
          .withExample("tcp://127.0.0.1:7777");

  // Not 5 s: containerd 1.6 runs `runc ps` per sandbox in ListPodSandboxStats, 2-8 s at 110 pods on a 2-core node
  // (docs/PERFORMANCE.md); a 5 s deadline failed the round there and retried it sooner, adding work. The kubelet
  // gives CRI calls 2 min; the sampling loop waits for a round before scheduling the next.
  static final Setting<Duration> TIMEOUT =
      Setting.valued(
          "cri.timeout",
          "DURATION",
          "30s",
          "Deadline of every CRI call.",
          text -> SettingChecks.duration(text, Duration.ofMillis(100)))
          .withExample("750ms");

  static final Setting<StatsCall> STATS_CALL =
      Setting.valued(
          "cri.stats-call",
          "RPC",
          defaultStatsCall().rpcName(),
          "The CRI call each round reads pods with: ListPodSandboxStats (pod cgroup figures, pod network and"
              + " process counts from the runtime) or ListContainerStats (pod CPU and memory summed over its"
              + " containers; on Linux pod network and process counts from the cgroup round, on Windows none)."
              + " Default: ListContainerStats on Linux, where containerd before 2.0 runs runc ps per sandbox and"
              + " container for the other call; ListPodSandboxStats on Windows, where a CRI stats call is made only"
              + " with --cri.windows-stats=cri or while a part of the task source falls back.",
          StatsCall::parse,
          c -> c.settings().value(CriSettings.STATS_CALL).rpcName())
          .withChoices(Arrays.stream(StatsCall.values()).map(StatsCall::rpcName).toList())
          .withExample(otherStatsCall().rpcName());

  static final Setting<WindowsStatsSource> WINDOWS_STATS =
      Setting.valued(
          "cri.windows-stats",
          "SOURCE",
          "tasks",
          "Windows nodes: where pod and container figures come from. tasks: containerd's own Tasks.Metrics (user and"
              + " kernel CPU, commit peak, storage I/O) and HNS endpoint statistics (packets), with no CRI stats call,"
              + " so the kubelet's own usageNanoCores is left alone; each part falls back to CRI stats while it fails."
              + " cri: CRI stats with --cri.stats-call, as on Linux. Ignored on Linux.",
          WindowsStatsSource::parse,
          c -> c.settings().value(CriSettings.WINDOWS_STATS).word())
          .withChoices(Arrays.stream(WindowsStatsSource.values()).map(WindowsStatsSource::word).toList())
          .withExample(WindowsStatsSource.CRI.word());

  /** The group's settings, in usage order ({@code --help}'s). */
  static final List<Setting<?>> ALL = List.of(ENDPOINT, TIMEOUT, STATS_CALL, WINDOWS_STATS);

  /**
   * The endpoint (empty is the platform's default). A named pipe is refused off Windows here, before anything starts,
   * rather than by the reader that could not open it.
   */
  private static CriEndpoint criEndpoint(String text) {
    CriEndpoint endpoint = CriEndpoint.parse(text.isEmpty() ? defaultCriEndpoint() : text);
    if (endpoint.scheme() == CriEndpoint.Scheme.NPIPE && !HostOs.current().isWindows()) {
      throw new Setting.Invalid(
          List.of(
              ENDPOINT.flag() + "=" + text + ": named pipes exist only on Windows; on Linux give the runtime's"
                  + " socket, as " + DEFAULT_CRI_ENDPOINT_LINUX));
    }
    return endpoint;
  }

  /**
   * The stats call on this host's platform: on Linux the cgroup round already reads every pod's network and
   * processes, so {@code ListContainerStats} serves the same series for a fifth of the runtime's CPU
   * (docs/PERFORMANCE.md, "The whole bill"); on Windows only {@code ListPodSandboxStats} brings pod network.
   */
  static StatsCall defaultStatsCall() {
    return HostOs.current().isWindows() ? StatsCall.LIST_POD_SANDBOX_STATS : StatsCall.LIST_CONTAINER_STATS;
  }

  /** The stats call that is not this host's default: the example of {@link #STATS_CALL}. */
  private static StatsCall otherStatsCall() {
    return defaultStatsCall() == StatsCall.LIST_POD_SANDBOX_STATS
        ? StatsCall.LIST_CONTAINER_STATS
        : StatsCall.LIST_POD_SANDBOX_STATS;
  }

  /** containerd's default endpoint on this host's platform. */
  static String defaultCriEndpoint() {
    return HostOs.current().isWindows() ? DEFAULT_CRI_ENDPOINT_WINDOWS : DEFAULT_CRI_ENDPOINT_LINUX;
  }
}
