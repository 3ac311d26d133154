package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

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
      "The node series under node_exporter's names (Linux) or windows_exporter's (Windows, with each of its"
          + " collectors switched by collector.windows.NAME) on the Prometheus endpoint. Off: not built; the node"
          + " counters are still read for the other endpoints.",
      (snapshots, platform) -> platform == NodePlatform.WINDOWS ? null : new NodeExporterSeries(snapshots)),
  WINDOWS_CPU(WindowsExporterCollector.CPU, NODE, "windows_cpu_*, windows_cs_logical_processors"),
  WINDOWS_MEMORY(
      WindowsExporterCollector.MEMORY,
      NODE,
      "windows_memory_*, windows_os_visible_memory_bytes, windows_cs_physical_memory_bytes"),
  WINDOWS_NET(WindowsExporterCollector.NET, NODE, "windows_net_*"),
  WINDOWS_LOGICAL_DISK(WindowsExporterCollector.LOGICAL_DISK, NODE, "windows_logical_disk_*"),
  WINDOWS_PHYSICAL_DISK(WindowsExporterCollector.PHYSICAL_DISK, NODE, "windows_physical_disk_*"),
  WINDOWS_SYSTEM(WindowsExporterCollector.SYSTEM, NODE, "windows_system_*"),
  WINDOWS_OS(WindowsExporterCollector.OS, NODE, "windows_os_info, windows_os_hostname, windows_cs_hostname"),
  WINDOWS_SERVICE(WindowsExporterCollector.SERVICE, NODE, "windows_service_*"),
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
  private final BiFunction<Supplier<Snapshot>, NodePlatform, @Nullable MultiCollector> series;

  /**
   * @param flagName the NAME of {@code --collector.NAME}, the start line's word
   * @param onByDefault whether it runs unless turned off
   * @param platforms the kinds of node it runs on
   * @param needs the collectors it reads from, without which it does nothing
   * @param onCadvisorPath whether its series are also served on {@code /metrics/cadvisor}, as the kubelet's are
   * @param help the flag's usage text
   * @param series its series on the Prometheus endpoint, from the published snapshot; null where other rows serve
   *     them
   */
  Collector(
      String flagName,
      boolean onByDefault,
      Set<NodePlatform> platforms,
      List<Collector> needs,
      boolean onCadvisorPath,
      String help,
      BiFunction<Supplier<Snapshot>, NodePlatform, @Nullable MultiCollector> series) {
    this.flagName = flagName;
    this.onByDefault = onByDefault;
    this.platforms = Set.copyOf(platforms);
    this.needs = List.copyOf(needs);
    this.onCadvisorPath = onCadvisorPath;
    this.help = help;
    this.series = series;
  }

  /**
   * One of windows_exporter's collectors, on a Windows node when the node collector is on: {@code
   * --[no-]collector.windows.NAME}, NAME as windows_exporter's {@code --collectors.enabled} spells it.
   */
  Collector(WindowsExporterCollector collector, Collector node, String families) {
    this(
        "windows." + collector.upstreamName(),
        true,
        EnumSet.of(NodePlatform.WINDOWS),
        List.of(node),
        false,
        "On a Windows node, windows_exporter's " + collector.upstreamName() + " collector (" + families + "). Off:"
            + " not built.",
        (snapshots, platform) -> new WindowsExporterSeries(snapshots, collector));
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

  @Nullable MultiCollector series(Supplier<Snapshot> snapshots, NodePlatform platform) {
    return series.apply(snapshots, platform);
  }
}
