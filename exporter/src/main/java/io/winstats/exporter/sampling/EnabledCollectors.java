package io.winstats.exporter.sampling;

import io.winstats.perfcounters.NodePlatform;
import java.util.ArrayList;
import java.util.List;

/**
 * Which of the daemon's collectors run ({@code --collector.X} / {@code --no-collector.X}, node_exporter's form). A
 * collector switched off does none of its work; the node counters always run, as every endpoint describes the node.
 *
 * @param cri the CRI round: pods and containers (a reader is opened, and its loop started, only when on)
 * @param cgroup on a Linux node, the cgroups of each CRI round's pods and containers, read after the round (so
 *     nothing without {@code cri})
 * @param node the node series under the names of the node's own exporter: node_exporter's on a Linux node,
 *     windows_exporter's on a Windows one
 * @param container on a Windows node, windows_exporter's container series ({@code windows_container_*}), from the
 *     CRI round
 */
public record EnabledCollectors(boolean cri, boolean cgroup, boolean node, boolean container) {
  /** Every collector on, the default. */
  public static final EnabledCollectors ALL = new EnabledCollectors(true, true, true, true);

  /** Whether cgroups are read: after each CRI round, when both run. */
  public boolean readsCgroups() {
    return cri && cgroup;
  }

  /** Whether windows_exporter's container series are served: from the CRI round, when both run. */
  public boolean servesContainers() {
    return cri && container;
  }

  /** The names of the collectors that run on a node of this kind, for the start-up line. */
  public List<String> running(NodePlatform platform) {
    boolean windowsNode = platform == NodePlatform.WINDOWS;
    List<String> names = new ArrayList<>();
    if (cri) {
      names.add("cri");
    }
    if (readsCgroups() && !windowsNode) {
      names.add("cgroup");
    }
    if (node) {
      names.add("node");
    }
    if (servesContainers() && windowsNode) {
      names.add("container");
    }
    return names;
  }
}
