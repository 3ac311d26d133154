package io.winstats.exporter.history;

import io.winstats.cri.RuntimeSample;
import io.winstats.exporter.history.NodeHistory.ContainerRow;
import io.winstats.exporter.history.NodeHistory.PodRow;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.SummaryAssembler;
import io.winstats.summary.SummaryTypes.ContainerStats;
import io.winstats.summary.SummaryTypes.CpuStats;
import io.winstats.summary.SummaryTypes.FsStats;
import io.winstats.summary.SummaryTypes.InterfaceStats;
import io.winstats.summary.SummaryTypes.MemoryStats;
import io.winstats.summary.SummaryTypes.NetworkStats;
import io.winstats.summary.SummaryTypes.NodeStats;
import io.winstats.summary.SummaryTypes.PodStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Records each published sample into a {@link NodeHistory}, as the figures {@code /stats/summary} serves for it: the
 * same {@link SummaryAssembler}, so the page and the Summary agree, and a figure the Summary lacks on this node (commit
 * off Windows, a pod's network where the runtime gives none) is absent here too. Called on the sampling loops'
 * threads, after their publication.
 */
public final class HistoryRecorder {
  // The kubelet's system container for the Windows node's commit (SummaryAssembler adds it on Windows nodes only).
  private static final String WINDOWS_COMMIT = "windows-global-commit-memory";

  private final NodeHistory history;
  private final SummaryAssembler assembler;

  public HistoryRecorder(NodeHistory history, SummaryAssembler assembler) {
    this.history = Objects.requireNonNull(history, "history");
    this.assembler = Objects.requireNonNull(assembler, "assembler");
  }

  /** Records the node sample of {@code snapshot}, if it has one. */
  public void nodePublished(Snapshot snapshot) {
    NodeSample node = snapshot.node();
    if (node == null) {
      return;
    }
    NodeStats stats = assembler.assemble(node, snapshot.previousNode(), null).node();
    history.recordNode(node.timestamp(), nodeRow(stats));
  }

  /**
   * Records the runtime sample of {@code snapshot} (after its cgroups are joined, on Linux), once a node sample exists
   * to assemble it with.
   */
  public void runtimePublished(Snapshot snapshot) {
    NodeSample node = snapshot.node();
    RuntimeSample runtime = snapshot.runtime();
    if (node == null || runtime == null) {
      return;
    }
    List<PodStats> pods = assembler.assemble(node, snapshot.previousNode(), runtime, snapshot.cgroups()).pods();
    List<PodRow> rows = new ArrayList<>(pods.size());
    for (PodStats pod : pods) {
      List<ContainerRow> containers = new ArrayList<>(pod.containers().size());
      for (ContainerStats c : pod.containers()) {
        containers.add(
            new ContainerRow(
                c.name(),
                new long[] {cpu(c.cpu()), workingSet(c.memory()), Series.held(used(c.rootfs()))}));
      }
      rows.add(
          new PodRow(
              pod.podRef().namespace(),
              pod.podRef().name(),
              pod.podRef().uid(),
              new long[] {
                cpu(pod.cpu()),
                workingSet(pod.memory()),
                network(pod.network(), InterfaceStats::rxBytes),
                network(pod.network(), InterfaceStats::txBytes),
                Series.held(used(pod.ephemeralStorage()))
              },
              containers));
    }
    history.recordPods(runtime.timestamp(), rows);
  }

  /** The node's figures in {@link Figure#NODE}'s order. */
  static long[] nodeRow(NodeStats node) {
    Long commit = null;
    if (node.systemContainers() != null) {
      for (ContainerStats c : node.systemContainers()) {
        if (c.name().equals(WINDOWS_COMMIT) && c.memory() != null) {
          commit = c.memory().usageBytes();
        }
      }
    }
    FsStats fs = node.fs();
    return new long[] {
      cpu(node.cpu()),
      workingSet(node.memory()),
      Series.held(commit),
      network(node.network(), InterfaceStats::rxBytes),
      network(node.network(), InterfaceStats::txBytes),
      Series.held(used(fs)),
      Series.held(fs == null ? null : fs.capacityBytes())
    };
  }

  private static long cpu(@Nullable CpuStats cpu) {
    return Series.held(cpu == null ? null : cpu.usageNanoCores());
  }

  private static long workingSet(@Nullable MemoryStats memory) {
    return Series.held(memory == null ? null : memory.workingSetBytes());
  }

  private static @Nullable Long used(@Nullable FsStats fs) {
    return fs == null ? null : fs.usedBytes();
  }

  /**
   * The sum over the interfaces the Summary lists (the kubelet's: on Linux without loopback and host-side veths), or
   * absent when there are none or one lacks the figure: a partial sum would read as a drop and then a reset.
   */
  private static long network(@Nullable NetworkStats network, Function<InterfaceStats, @Nullable Long> figure) {
    if (network == null) {
      return Series.ABSENT;
    }
    List<InterfaceStats> interfaces =
        network.interfaces() == null ? List.of(network.defaultInterface()) : network.interfaces();
    if (interfaces.isEmpty()) {
      return Series.ABSENT;
    }
    long sum = 0;
    for (InterfaceStats i : interfaces) {
      Long value = figure.apply(i);
      if (value == null) {
        return Series.ABSENT;
      }
      sum += value;
    }
    return sum;
  }
}
