package io.winstats.exporter;

/** The collectors' switches ({@code collector.*}), listed in {@link Settings#ALL}. */
final class CollectorSettings {
  private CollectorSettings() {}

  static final Setting<Boolean> CRI =
      Setting.onSwitch(
          "collector.cri",
          "The CRI round: pods and containers in the Summary, the cAdvisor and resource series. Off: no CRI call, no"
              + " pod series; the endpoints serve the node alone.",
          c -> c.collectors().cri());

  static final Setting<Boolean> CGROUP =
      Setting.onSwitch(
          "collector.cgroup",
          "On a Linux node, the cgroups of each CRI round's pods and containers (the cAdvisor series CRI lacks:"
              + " throttling, page cache, block IO, processes, PSI, pod packets). Off: no cgroup file is read.",
          c -> c.collectors().cgroup());

  static final Setting<Boolean> NODE =
      Setting.onSwitch(
          "collector.node",
          "The node series under node_exporter's names (Linux) or windows_exporter's (Windows) on the Prometheus"
              + " endpoint. Off: not built; the node counters are still read for the other endpoints.",
          c -> c.collectors().node());

  static final Setting<Boolean> CONTAINER =
      Setting.onSwitch(
          "collector.container",
          "On a Windows node, windows_exporter's container series (windows_container_*). Off: not built.",
          c -> c.collectors().container());
}
