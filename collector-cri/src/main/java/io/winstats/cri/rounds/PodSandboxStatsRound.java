package io.winstats.cri.rounds;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.StatsCall;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.PodSandboxStatsRequest;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A round through {@code ListPodSandboxStats} (or its stream, {@link ListCalls}): pods with their containers, pod
 * network and process count, joined with the identity the listings give. One pod that vanishes mid-call fails the
 * whole list in containerd 1.6; the round then asks {@code PodSandboxStats} pod by pod and skips the gone one.
 */
final class PodSandboxStatsRound implements StatsRound {
  private static final Logger LOG = LoggerFactory.getLogger(PodSandboxStatsRound.class);

  private final RuntimeCalls calls;
  private final ListCalls lists;
  private final IdentityLister identities;
  private final StatsMapper mapper;
  private final PodCpuTotals podCpu;
  private final Clock clock;

  PodSandboxStatsRound(StatsRoundParts parts) {
    this.calls = parts.calls();
    this.lists = parts.lists();
    this.identities = parts.identities();
    this.mapper = parts.mapper();
    this.podCpu = parts.podCpu();
    this.clock = parts.context().clock();
  }

  @Override
  public String rpcName() {
    return StatsCall.LIST_POD_SANDBOX_STATS.rpcName();
  }

  @Override
  public List<PodSample> read(RoundContext round) {
    List<PodSandboxStats> stats;
    try {
      stats = lists.podSandboxStats();
    } catch (RuntimeCalls.RpcFailure f) {
      if (!f.isGone()) {
        throw f;
      }
      LOG.debug("event=cri_pod_list_failed endpoint={} cause={}", calls.target(), f.summary());
      stats = oneByOne(round);
    }

    Set<String> podIds = new HashSet<>();
    for (PodSandboxStats s : stats) {
      podIds.add(s.getAttributes().getId());
    }
    identities.refresh(identities.knowsPods(podIds));

    Instant now = clock.instant();
    List<PodSample> pods = new ArrayList<>(stats.size());
    for (PodSandboxStats s : stats) {
      String id = s.getAttributes().getId();
      try {
        PodSample pod = pod(s, now, round);
        if (pod != null) {
          pods.add(pod);
        }
      } catch (IllegalArgumentException | ArithmeticException e) {
        round.skip(id, "malformed stats: " + e.getMessage());
      }
    }
    return pods;
  }

  private List<PodSandboxStats> oneByOne(RoundContext round) {
    List<PodSandboxStats> stats = new ArrayList<>();
    for (PodSandbox sandbox : identities.pods(true)) {
      try {
        stats.add(
            calls.call(
                    "PodSandboxStats",
                    s ->
                        s.podSandboxStats(
                            PodSandboxStatsRequest.newBuilder().setPodSandboxId(sandbox.getId()).build()))
                .getStats());
      } catch (RuntimeCalls.RpcFailure f) {
        if (!f.isGone()) {
          throw f;
        }
        round.skip(sandbox.getId(), f.summary());
      }
    }
    return stats;
  }

  private @Nullable PodSample pod(PodSandboxStats s, Instant now, RoundContext round) {
    String id = s.getAttributes().getId();
    RuntimeMetadata.Pod meta = identities.metadata().pod(id);
    if (meta == null) {
      round.skip(id, "not listed by ListPodSandbox (removed)");
      return null;
    }
    PodStatsView view = PodStatsView.of(s);
    if (view == null) {
      return PodSample.builder(meta.ref(), id)
          .createdAt(meta.createdAt())
          .labels(meta.labels())
          .hostProcess(meta.hostProcess())
          .build();
    }
    List<ContainerSample> containers = new ArrayList<>();
    for (ContainerStatsView c : view.containers()) {
      RuntimeMetadata.Container cm = identities.metadata().container(c.id());
      if (cm == null) {
        round.skip(c.id(), "not listed by ListContainers (removed)");
      } else {
        add(containers, round, cm.id(), () -> mapper.container(c, cm, now, round.host));
      }
    }
    CpuRateCache.Key key = new CpuRateCache.Key(id, meta.attempt());
    CpuUsage cpu =
        view.cpuSumsRunningContainers() ? monotonicCpu(id, view, key, now) : mapper.cpu(view.cpu(), key, now);
    Instant podTime = cpu != null ? cpu.timestamp() : now;
    return PodSample.builder(meta.ref(), id)
        .createdAt(meta.createdAt())
        .labels(meta.labels())
        .hostProcess(meta.hostProcess())
        .cpu(cpu)
        .memory(view.memory(podTime))
        .network(view.network(podTime))
        .processCount(view.processCount())
        .containers(NewestContainers.perName(containers))
        .build();
  }

  /** The runtime's pod CPU with the CPU of containers that have left the sum carried on ({@link PodCpuTotals}). */
  private @Nullable CpuUsage monotonicCpu(String podId, PodStatsView view, CpuRateCache.Key key, Instant now) {
    StatsMapper.CpuFields fields = view.cpu();
    if (fields == null || fields.usageCoreNanos() == null) {
      return null;
    }
    Map<String, Long> running = new HashMap<>();
    for (ContainerStatsView c : view.containers()) {
      StatsMapper.CpuFields cf = c.cpu();
      if (cf != null && cf.usageCoreNanos() != null) {
        running.put(c.id(), cf.usageCoreNanos());
      }
    }
    Long total = podCpu.total(podId, fields.usageCoreNanos(), running);
    return mapper.cpu(key, StatsMapper.instant(fields.timestampNanos(), now), Objects.requireNonNull(total));
  }

  static void add(List<ContainerSample> into, RoundContext round, String id, Supplier<ContainerSample> mapping) {
    try {
      into.add(mapping.get());
    } catch (IllegalArgumentException | ArithmeticException e) {
      round.skip(id, "malformed stats: " + e.getMessage());
    }
  }
}
