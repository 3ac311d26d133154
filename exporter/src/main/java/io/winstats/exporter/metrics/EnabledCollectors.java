package io.winstats.exporter.metrics;

import io.winstats.perfcounters.NodePlatform;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which of the daemon's collectors ({@link Collector}) are turned on ({@code --collector.X} / {@code --no-collector.X},
 * node_exporter's form). A collector that does not run does none of its work; the node counters always run, as every
 * endpoint describes the node.
 *
 * @param on the collectors turned on
 */
public record EnabledCollectors(Set<Collector> on) {
  /** Every collector on. */
  public static final EnabledCollectors ALL = new EnabledCollectors(EnumSet.allOf(Collector.class));

  public EnabledCollectors {
    on = on.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(on));
  }

  /** Every collector on by default. */
  public static EnabledCollectors defaults() {
    return new EnabledCollectors(
        Arrays.stream(Collector.values()).filter(Collector::onByDefault).collect(Collectors.toSet()));
  }

  /** Every collector on but {@code off}. */
  public static EnabledCollectors allBut(Collector... off) {
    Set<Collector> on = EnumSet.allOf(Collector.class);
    List.of(off).forEach(on::remove);
    return new EnabledCollectors(on);
  }

  /** Whether {@code collector} is turned on, whether or not it runs on this node. */
  public boolean isOn(Collector collector) {
    return on.contains(collector);
  }

  /** Whether {@code collector} runs on a node of this kind: on, made for the kind, and what it reads runs too. */
  public boolean runs(Collector collector, NodePlatform platform) {
    return isOn(collector)
        && collector.runsOn(platform)
        && collector.needs().stream().allMatch(needed -> runs(needed, platform));
  }

  /** The collectors that run on a node of this kind, in flag order. */
  public List<Collector> running(NodePlatform platform) {
    return Arrays.stream(Collector.values()).filter(c -> runs(c, platform)).toList();
  }

  /** Their names, for the start line. */
  public List<String> runningNames(NodePlatform platform) {
    return running(platform).stream().map(Collector::flagName).toList();
  }
}
