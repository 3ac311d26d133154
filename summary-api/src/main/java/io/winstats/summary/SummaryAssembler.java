package io.winstats.summary;

import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.SummaryTypes.FsStats;
import io.winstats.summary.SummaryTypes.NodeStats;
import io.winstats.summary.SummaryTypes.PodReference;
import io.winstats.summary.SummaryTypes.PodStats;
import io.winstats.summary.SummaryTypes.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Builds a kubelet {@link Summary} from the latest node and runtime samples. A pure function: no clock, no I/O; every
 * time in the result is a sample's own time. The node's part is {@link NodeStatsAssembler}'s, each pod's {@link
 * PodStatsAssembler}'s, the pressure in both {@link PressureStats}'.
 */
public final class SummaryAssembler {

  private final NodeStatsAssembler nodes;

  /**
   * @param nodeName the node's name as the kubelet registers it
   * @param platform the node's: a Windows node adds the {@code windows-global-commit-memory} system container
   */
  public SummaryAssembler(String nodeName, NodePlatform platform) {
    this.nodes = new NodeStatsAssembler(nodeName, platform);
  }

  /**
   * The full summary.
   *
   * @param node the newest node sample
   * @param previousNode the node sample before it, for {@code usageNanoCores}; {@code null} on the first sample
   * @param runtime the newest runtime sample; {@code null} when the runtime has not answered yet
   */
  public Summary assemble(NodeSample node, @Nullable NodeSample previousNode, @Nullable RuntimeSample runtime) {
    return build(node, previousNode, runtime, null, false);
  }

  /**
   * The full summary with pressure stall information: {@code psi} on the node's, pods' and containers' CPU and memory
   * and an {@code io} with IO pressure, from {@code cgroups} (the node's {@code /proc/pressure}, each cgroup's
   * {@code *.pressure}). Where a file is absent (cgroup v1, Windows, no PSI) the field is absent, never zero.
   */
  public Summary assemble(
      NodeSample node,
      @Nullable NodeSample previousNode,
      @Nullable RuntimeSample runtime,
      @Nullable CgroupSample cgroups) {
    return build(node, previousNode, runtime, cgroups, false);
  }

  /** The {@code ?only_cpu_and_memory=true} form: CPU and memory of the node, pods and containers only. */
  public Summary assembleCpuAndMemory(
      NodeSample node, @Nullable NodeSample previousNode, @Nullable RuntimeSample runtime) {
    return build(node, previousNode, runtime, null, true);
  }

  /** The {@code ?only_cpu_and_memory=true} form with CPU and memory pressure where the host has it. */
  public Summary assembleCpuAndMemory(
      NodeSample node,
      @Nullable NodeSample previousNode,
      @Nullable RuntimeSample runtime,
      @Nullable CgroupSample cgroups) {
    return build(node, previousNode, runtime, cgroups, true);
  }

  private Summary build(
      NodeSample node,
      @Nullable NodeSample previousNode,
      @Nullable RuntimeSample runtime,
      @Nullable CgroupSample cgroups,
      boolean cpuAndMemoryOnly) {
    FsStats rootFs = NodeStatsAssembler.rootFs(node);
    NodeStats nodeStats = nodes.assemble(node, previousNode, runtime, cgroups, rootFs, cpuAndMemoryOnly);
    List<PodStats> pods = new ArrayList<>();
    if (runtime != null) {
      for (PodSample pod : runtime.pods()) {
        pods.add(PodStatsAssembler.podStats(pod, cpuAndMemoryOnly, rootFs, cgroups));
      }
    }
    return new Summary(nodeStats, pods);
  }

  /** A pod's {@code ephemeral-storage} as {@link #assemble} reports it, for the same samples. */
  public record PodEphemeralStorage(PodReference pod, FsStats storage) {
    public PodEphemeralStorage {
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(storage, "storage");
    }
  }

  /**
   * Each pod's {@code ephemeral-storage}, the figure the full summary of {@code node} and {@code runtime} carries, in
   * the runtime's pod order; a pod whose summary has none (no container reports a writable layer) is left out. For
   * serving the same figures as series without assembling the whole summary.
   */
  public static List<PodEphemeralStorage> podEphemeralStorage(NodeSample node, @Nullable RuntimeSample runtime) {
    if (runtime == null) {
      return List.of();
    }
    FsStats rootFs = NodeStatsAssembler.rootFs(node);
    List<PodEphemeralStorage> pods = new ArrayList<>(runtime.pods().size());
    for (PodSample pod : runtime.pods()) {
      FsStats storage = PodStatsAssembler.ephemeralStorage(pod, rootFs);
      if (storage != null) {
        PodReference ref = new PodReference(pod.ref().name(), pod.ref().namespace(), pod.ref().uid());
        pods.add(new PodEphemeralStorage(ref, storage));
      }
    }
    return pods;
  }
}
