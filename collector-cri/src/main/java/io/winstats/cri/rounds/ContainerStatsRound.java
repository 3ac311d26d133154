package io.winstats.cri.rounds;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.StatsCall;
import io.winstats.cri.api.Container;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.ContainerStatsRequest;
import io.winstats.cri.api.PodSandbox;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A round through {@code ListPodSandbox} + {@code ListContainers} (running) + {@code ListContainerStats} (or their
 * streams, {@link ListCalls}): containers
 * only, summed into their pod as the kubelet's {@code addPodCPUMemoryStats} does; pods have no network or process
 * count. The pod's cumulative CPU carries the containers that exited or restarted ({@link PodCpuTotals}), so it never
 * drops while the pod lives; its rate is the sum of the running containers' own rates.
 */
final class ContainerStatsRound implements StatsRound {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerStatsRound.class);

  private final RuntimeCalls calls;
  private final ListCalls lists;
  private final IdentityLister identities;
  private final StatsMapper mapper;
  private final PodCpuTotals podCpu;
  private final Clock clock;

  ContainerStatsRound(StatsRoundParts parts) {
    this.calls = parts.calls();
    this.lists = parts.lists();
    this.identities = parts.identities();
    this.mapper = parts.mapper();
    this.podCpu = parts.podCpu();
    this.clock = parts.context().clock();
  }

  @Override
  public String rpcName() {
    return StatsCall.LIST_CONTAINER_STATS.rpcName();
  }

  @Override
  public List<PodSample> read(RoundContext round) {
    List<PodSandbox> sandboxes = identities.pods(true);
    List<Container> running = identities.runningContainers();
    identities.replaceAll(sandboxes, running);
    RuntimeMetadata metadata = identities.metadata();

    Map<String, ContainerStats> statsById = new HashMap<>();
    try {
      lists.containerStats().forEach(c -> statsById.put(c.getAttributes().getId(), c));
    } catch (RuntimeCalls.RpcFailure f) {
      if (!f.isGone()) {
        throw f;
      }
      // A container removed mid-call fails the whole list: ask for each container on its own instead.
      LOG.debug("event=cri_container_list_failed endpoint={} cause={}", calls.target(), f.summary());
    }

    Instant now = clock.instant();
    Map<String, List<ContainerSample>> byPod = new HashMap<>();
    for (Container c : running) {
      RuntimeMetadata.Pod pod = metadata.pod(c.getPodSandboxId());
      RuntimeMetadata.Container cm = metadata.container(c.getId());
      if (pod == null || cm == null) {
        continue;
      }
      ContainerStats stats = statsById.get(c.getId());
      if (stats == null) {
        stats = containerStats(c.getId(), round);
        if (stats == null) {
          continue;
        }
      }
      ContainerStatsView view = ContainerStatsView.of(stats);
      PodSandboxStatsRound.add(
          byPod.computeIfAbsent(pod.id(), k -> new ArrayList<>()),
          round,
          c.getId(),
          () -> mapper.container(view, cm, now, round.host));
    }

    List<PodSample> pods = new ArrayList<>(sandboxes.size());
    for (PodSandbox sandbox : sandboxes) {
      RuntimeMetadata.Pod meta = metadata.pod(sandbox.getId());
      if (meta == null) {
        continue;
      }
      List<ContainerSample> containers = NewestContainers.perName(byPod.getOrDefault(sandbox.getId(), List.of()));
      try {
        pods.add(
            PodSample.builder(meta.ref(), meta.id())
                .createdAt(meta.createdAt())
                .labels(meta.labels())
                .hostProcess(meta.hostProcess())
                .cpu(podCpu(meta.id(), containers, now))
                .memory(StatsMapper.sumMemory(containers))
                .containers(containers)
                .build());
      } catch (IllegalArgumentException | ArithmeticException e) {
        round.skip(sandbox.getId(), "malformed stats: " + e.getMessage());
      }
    }
    return pods;
  }

  private @Nullable ContainerStats containerStats(String id, RoundContext round) {
    try {
      return calls.call(
              "ContainerStats", s -> s.containerStats(ContainerStatsRequest.newBuilder().setContainerId(id).build()))
          .getStats();
    } catch (RuntimeCalls.RpcFailure f) {
      if (!f.isGone()) {
        throw f;
      }
      round.skip(id, f.summary());
      return null;
    }
  }

  /**
   * The sum of the containers' CPU ({@link StatsMapper#sumCpu}) with its cumulative figure carried over exited and
   * restarted containers; stamped with the round's time and a rate of 0 when none of the pod's containers runs.
   */
  private @Nullable CpuUsage podCpu(String podId, List<ContainerSample> containers, Instant now) {
    Map<String, Long> running = new HashMap<>();
    for (ContainerSample c : containers) {
      if (c.cpu() != null) {
        running.put(c.id(), c.cpu().usageCoreNanos());
      }
    }
    Long total = podCpu.total(podId, null, running);
    if (total == null) {
      return null;
    }
    CpuUsage sum = StatsMapper.sumCpu(containers);
    return sum == null ? new CpuUsage(now, total, 0L) : new CpuUsage(sum.timestamp(), total, sum.usageNanoCores());
  }
}
