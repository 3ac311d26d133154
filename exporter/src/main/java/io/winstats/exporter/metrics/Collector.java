package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The daemon's collectors, one row each, as node_exporter registers a collector and its flag in one call. The flag
 * {@code --[no-]collector.NAME} and its help, the enabled set ({@link EnabledCollectors}), the series {@link
 * Exposition} registers and the start line's list all read the row. The CRI and cgroup rows also start sampling
 * work, which the daemon asks the enabled set about.
 */
// Each row's fields are immutable: List.copyOf, Set.copyOf and a lambda that keeps no state.
@SuppressWarnings("ImmutableEnumChecker")
public enum Collector {
  CRI(
      "cri",
      true,
      EnumSet.allOf(NodePlatform.class),
      List.of(),
      false,
      "The CRI round: pods and containers in the Summary, the cAdvisor and resource series. Off: no CRI call, no"
          + " pod series; the endpoints serve the node alone.",
      (snapshots, platform) -> new PodEphemeralStorageSeries(snapshots)),
  CGROUP(
      "cgroup",
      true,
      EnumSet.of(NodePlatform.LINUX),
      List.of(CRI),
      true,
      "On a Linux node, the cgroups of each CRI round's pods and containers (the cAdvisor series CRI lacks:"
          + " throttling, page cache, block IO, processes, PSI, pod packets). Off: no cgroup file is read.",
      (snapshots, platform) -> new CgroupSeriesCollector(snapshots)),
  NODE(
      "node",
      true,
      EnumSet.allOf(NodePlatform.class),
      List.of(),
      false,
      "The node series under node_exporter's names (Linux) or windows_exporter's (Windows) on the Prometheus"
          + " endpoint. Off: not built; the node counters are still read for the other endpoints.",
      (snapshots, platform) ->
          platform == NodePlatform.WINDOWS ? new WindowsExporterSeries(snapshots) : new NodeExporterSeries(snapshots)),
  CONTAINER(
      "container",
      true,
      EnumSet.of(NodePlatform.WINDOWS),
      List.of(CRI),
      false,
      "On a Windows node, windows_exporter's container series (windows_container_*). Off: not built.",
      (snapshots, platform) -> new WindowsContainerSeries(snapshots));

  private final String flagName;
  private final boolean onByDefault;
  private final Set<NodePlatform> platforms;
  private final List<Collector> needs;
  private final boolean onCadvisorPath;
  private final String help;
  private final BiFunction<Supplier<Snapshot>, NodePlatform, MultiCollector> series;

  /**
   * @param flagName the NAME of {@code --collector.NAME}, the start line's word
   * @param onByDefault whether it runs unless turned off
   * @param platforms the kinds of node it runs on
   * @param needs the collectors it reads from, without which it does nothing
   * @param onCadvisorPath whether its series are also served on {@code /metrics/cadvisor}, as the kubelet's are
   * @param help the flag's usage text
   * @param series its series on the Prometheus endpoint, from the published snapshot
   */
  Collector(
      String flagName,
      boolean onByDefault,
      Set<NodePlatform> platforms,
      List<Collector> needs,
      boolean onCadvisorPath,
      String help,
      BiFunction<Supplier<Snapshot>, NodePlatform, MultiCollector> series) {
    this.flagName = flagName;
    this.onByDefault = onByDefault;
    this.platforms = Set.copyOf(platforms);
    this.needs = List.copyOf(needs);
    this.onCadvisorPath = onCadvisorPath;
    this.help = help;
    this.series = series;
  }

  /** The NAME of {@code --collector.NAME}. */
  public String flagName() {
    return flagName;
  }

  public boolean onByDefault() {
    return onByDefault;
  }

  public String help() {
    return help;
  }

  /** Whether it runs on a node of this kind when it and every collector it needs are on. */
  boolean runsOn(NodePlatform platform) {
    return platforms.contains(platform);
  }

  List<Collector> needs() {
    return needs;
  }

  boolean onCadvisorPath() {
    return onCadvisorPath;
  }

  MultiCollector series(Supplier<Snapshot> snapshots, NodePlatform platform) {
    return series.apply(snapshots, platform);
  }
}
