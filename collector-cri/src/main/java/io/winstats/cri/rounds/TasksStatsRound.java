package io.winstats.cri.rounds;

import com.github.benmanes.caffeine.cache.Ticker;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeFilesystemUsage;
import io.winstats.cri.StorageIo;
import io.winstats.cri.api.Container;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.containerd.Statistics;
import io.winstats.cri.api.containerd.WindowsContainerStatistics;
import io.winstats.cri.hns.HnsException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Windows round that makes no CRI stats call: identity from {@code ListPodSandbox} (ready) and {@code
 * ListContainers} (running), figures from one containerd {@code Tasks.Metrics} call for every ready sandbox and running
 * container ({@link TaskMetrics}) and the pods' networks from HNS ({@link PodNetworks}). CRI's {@code usage_nano_cores}
 * cache, which each CRI stats call moves (containerd#9531; {@code getUsageNanoCores} writes the CRI container store
 * only), is left to the kubelet.
 *
 * <p>Each task's runhcs {@code Statistics} as the shim fills it (cmd/containerd-shim-runhcs-v1@v0.13.0):
 *
 * <ul>
 *   <li>a process-isolated container, and a Hyper-V isolated pod's containers: {@code windows} from HCS ({@code
 *       hcsPropertiesToWindowsStats}, task_hcs.go:793-823; {@code hcsTask.Stats}, task_hcs.go:825-850, adds {@code vm}
 *       only for a task that owns its utility VM);
 *   <li>a HostProcess container: {@code windows} from its job object (internal/jobcontainers/jobcontainer.go:514-567);
 *   <li>a process-isolated pod's sandbox: a real pause container ({@code newHcsTask}, pod.go:235-256), {@code windows};
 *   <li>a Hyper-V pod's sandbox: {@code vm} only ({@code wcowPodSandboxTask.Stats} with a utility VM,
 *       task_wcow_podsandbox.go:295-306; pod.go:203-214);
 *   <li>a HostProcess pod's sandbox: an empty {@code Statistics} (the faked task of pod.go:147-149 has no host).
 * </ul>
 *
 * <p>As containerd's Windows CRI code does ({@code toPodSandboxStats}, {@code convertToCRIStats},
 * sandbox_stats_windows.go:119-199,271-301@v2.3.4), a pod's CPU is the sandbox's {@code windows} processor time plus
 * its running containers', carried over exited containers ({@link PodCpuTotals}); a {@code vm} or empty sandbox adds
 * nothing. The pod's memory is its containers' summed, as the CRI path corrects containerd's ({@link
 * PodStatsView.Windows#memory}). A container's memory is its private working set ({@code workingSetBytes}), its commit
 * as usage (containerd 2.2+'s {@code windowsContainerMetrics}, container_stats_list.go:360-368@v2.3.4) and as {@code
 * commitBytes}, and the commit peak.
 *
 * <p>The writable layer's size and the pod's process count, which containerd's CRI code takes from its snapshot store
 * and {@code Task.Pids}, come from the same containerd services that code reads: {@code Snapshots.Usage} ({@link
 * WritableLayers}) and {@code Tasks.ListPids} ({@link TaskProcesses}), each kept for {@link WritableLayers#REFRESH}.
 * A failed {@code Usage} leaves that one layer unmeasured, a failed {@code Introspection.Plugins} every layer
 * ({@link WritableLayers}), a failed {@code ListPids} that pod's process count ({@link TaskProcesses}): none of them
 * drops the CPU and memory {@code Tasks.Metrics} gave, nor makes the round fall back ({@link #METHODS}).
 *
 * <p>A pod's endpoints are its network namespace's, read from the verbose sandbox status, as containerd finds them,
 * else those sharing its sandbox or containers ({@link PodNetworks}). When HNS cannot be read (no {@code
 * vmcompute.dll}, access denied, an error reply), the pods' networks come from one {@code ListPodSandboxStats} call
 * instead, said once ({@code event=cri_hns_fallback}, {@link io.winstats.cri.RuntimeSample#fallbacksStarted()}
 * {@value #HNS_FALLBACK}), and HNS is asked again after {@link RuntimeStatsReader#TASKS_RETRY_AFTER}.
 */
final class TasksStatsRound implements StatsRound {
  private static final Logger LOG = LoggerFactory.getLogger(TasksStatsRound.class);

  /** {@link io.winstats.cri.RuntimeSample#fallbacksStarted()}'s name for the pod networks. */
  static final String HNS_FALLBACK = "hns";

  /** The calls of this source whose failure (not an outage of the runtime) makes the round read CRI stats instead. */
  static final java.util.Set<String> METHODS =
      java.util.Set.of(TaskMetrics.METHOD, WritableLayers.GET);

  private final RuntimeCalls calls;
  private final ListCalls lists;
  private final IdentityLister identities;
  private final TaskMetrics tasks;
  private final TaskProcesses processes;
  private final WritableLayers layers;
  private final PodNetworks networks;
  private final StatsMapper mapper;
  private final PodCpuTotals podCpu;
  private final Clock clock;
  private final Ticker ticker;
  private @Nullable Long hnsFailedAtNanos;

  TasksStatsRound(
      StatsRoundParts parts, TaskMetrics tasks, TaskProcesses processes, WritableLayers layers, PodNetworks networks) {
    this.calls = parts.calls();
    this.lists = parts.lists();
    this.identities = parts.identities();
    this.tasks = Objects.requireNonNull(tasks, "tasks");
    this.processes = Objects.requireNonNull(processes, "processes");
    this.layers = Objects.requireNonNull(layers, "layers");
    this.networks = Objects.requireNonNull(networks, "networks");
    this.mapper = parts.mapper();
    this.podCpu = parts.podCpu();
    this.clock = parts.context().clock();
    this.ticker = parts.context().ticker();
  }

  /** The Tasks service answered, but not for this node's tasks: the round falls back to CRI stats. */
  static final class NoTaskMetrics extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoTaskMetrics(String message) {
      super(message, null, false, false);
    }
  }

  @Override
  public String rpcName() {
    return TaskMetrics.METHOD;
  }

  /** HNS is asked again at once, the snapshotter roots and the kept layers and counts are read anew. */
  @Override
  public void runtimeChanged() {
    hnsFailedAtNanos = null;
    layers.forget();
    processes.forget();
  }

  @Override
  public List<PodSample> read(RoundContext round) {
    List<PodSandbox> sandboxes = identities.pods(true);
    List<Container> running = identities.runningContainers();
    identities.replaceAll(sandboxes, running);
    RuntimeMetadata metadata = identities.metadata();
    if (sandboxes.isEmpty()) {
      return List.of();
    }
    List<String> ids = new ArrayList<>(sandboxes.size() + running.size());
    sandboxes.forEach(s -> ids.add(s.getId()));
    running.forEach(c -> ids.add(c.getId()));
    Map<String, TaskMetrics.Reading> readings = tasks.read(ids);
    if (readings.isEmpty() && !running.isEmpty()) {
      // A namespace without these tasks answers OK and empty (local.go:684-712@v2.3.4): not an empty node.
      throw new NoTaskMetrics(
          "Tasks.Metrics in namespace " + TaskMetrics.NAMESPACE + " answered no task while CRI lists " + running.size()
              + " running containers");
    }

    Instant now = clock.instant();
    Map<String, List<ContainerSample>> byPod = new HashMap<>();
    for (Container c : running) {
      RuntimeMetadata.Container cm = metadata.container(c.getId());
      if (cm == null || metadata.pod(c.getPodSandboxId()) == null) {
        continue;
      }
      TaskMetrics.Reading r = readings.get(c.getId());
      if (r == null) {
        round.skip(c.getId(), "no task metrics (task gone or its shim failed)");
        continue;
      }
      if (!r.statistics().hasWindows()) {
        round.skip(c.getId(), "task metrics without windows statistics");
        continue;
      }
      PodSandboxStatsRound.add(
          byPod.computeIfAbsent(c.getPodSandboxId(), k -> new ArrayList<>()),
          round,
          c.getId(),
          () -> container(cm, r, round));
    }

    PodNetworkSource network = networks(round, now, sandboxes, metadata);
    List<PodSample> pods = new ArrayList<>(sandboxes.size());
    for (PodSandbox sandbox : sandboxes) {
      RuntimeMetadata.Pod meta = metadata.pod(sandbox.getId());
      if (meta == null) {
        continue;
      }
      List<ContainerSample> containers = NewestContainers.perName(byPod.getOrDefault(sandbox.getId(), List.of()));
      try {
        Instant podTime = latest(containers, now);
        pods.add(
            PodSample.builder(meta.ref(), meta.id())
                .createdAt(meta.createdAt())
                .labels(meta.labels())
                .hostProcess(meta.hostProcess())
                .cpu(podCpu(meta, readings.get(sandbox.getId()), containers, podTime))
                .memory(StatsMapper.sumMemory(containers))
                .network(network.of(meta.id(), running, podTime))
                .processCount(processes.podCount(sandbox.getId(), runningIds(running, sandbox.getId())))
                .containers(containers)
                .build());
      } catch (IllegalArgumentException | ArithmeticException e) {
        round.skip(sandbox.getId(), "malformed stats: " + e.getMessage());
      }
    }
    round.callsFailed.putAll(layers.takeFailures());
    String processFailure = processes.takeFailure();
    if (processFailure != null) {
      round.callsFailed.put(TaskProcesses.METHOD, processFailure);
    }
    return pods;
  }

  /** The pods' networks of this round: HNS's, or CRI's while HNS fails. */
  private interface PodNetworkSource {
    @Nullable NetworkUsage of(String podId, List<Container> running, Instant at);
  }

  private PodNetworkSource networks(
      RoundContext round, Instant now, List<PodSandbox> sandboxes, RuntimeMetadata metadata) {
    if (hnsFailedAtNanos == null
        || ticker.read() - hnsFailedAtNanos >= RuntimeStatsReader.TASKS_RETRY_AFTER.toNanos()) {
      try {
        List<String> podIds = new ArrayList<>(sandboxes.size());
        Map<String, String> namespaces = new HashMap<>();
        for (PodSandbox s : sandboxes) {
          podIds.add(s.getId());
          RuntimeMetadata.Pod meta = metadata.pod(s.getId());
          String namespace = meta == null ? null : meta.netNamespace();
          if (namespace != null) {
            namespaces.put(s.getId(), namespace);
          }
        }
        PodNetworks.Reading hns = networks.read(podIds, namespaces);
        if (hnsFailedAtNanos != null) {
          LOG.info("event=cri_hns_recovered endpoint={}", calls.target());
          hnsFailedAtNanos = null;
        }
        return (podId, running, at) -> hnsNetwork(hns, podId, running, at);
      } catch (HnsException e) {
        if (hnsFailedAtNanos == null) {
          round.fallbacksStarted.add(HNS_FALLBACK);
          LOG.warn(
              "event=cri_hns_fallback endpoint={} path=ListPodSandboxStats retryAfter={} cause={}",
              calls.target(),
              RuntimeStatsReader.TASKS_RETRY_AFTER,
              e.getMessage());
        }
        hnsFailedAtNanos = ticker.read();
      }
    }
    Map<String, NetworkUsage> fromCri = criNetworks(now);
    return (podId, running, at) -> fromCri.get(podId);
  }

  /**
   * The pod's endpoints: its namespace's, else those its sandbox or containers share, each once, in HNS's order;
   * {@code null} without any.
   */
  private static @Nullable NetworkUsage hnsNetwork(
      PodNetworks.Reading hns, String podId, List<Container> running, Instant at) {
    List<InterfaceUsage> nics = hns.of(podId, runningIds(running, podId));
    return nics.isEmpty() ? null : new NetworkUsage(at, nics);
  }

  /**
   * The pods' networks from one {@code ListPodSandboxStats}, streamed where the runtime has the stream (CRI stats:
   * moves containerd's CPU cache).
   */
  private Map<String, NetworkUsage> criNetworks(Instant now) {
    Map<String, NetworkUsage> byPod = new HashMap<>();
    try {
      for (PodSandboxStats s : lists.podSandboxStats()) {
        PodStatsView view = PodStatsView.of(s);
        NetworkUsage n = view == null ? null : view.network(now);
        if (n != null) {
          byPod.put(s.getAttributes().getId(), n);
        }
      }
    } catch (RuntimeCalls.RpcFailure f) {
      if (!f.isGone() && !f.isNotImplemented()) {
        throw f;
      }
      LOG.debug("event=cri_pod_network_failed endpoint={} cause={}", calls.target(), f.summary());
    }
    return byPod;
  }

  private ContainerSample container(RuntimeMetadata.Container meta, TaskMetrics.Reading r, RoundContext round) {
    WindowsContainerStatistics w = r.statistics().getWindows();
    Instant at = w.hasTimestamp() ? TaskMetrics.instant(w.getTimestamp()) : r.collectedAt();
    CpuUsage cpu = null;
    if (w.hasProcessor()) {
      var p = w.getProcessor();
      long total = unsigned(p.getTotalRuntimeNs(), "total_runtime_ns");
      CpuRateCache.Key key = new CpuRateCache.Key(meta.id(), meta.attempt());
      CpuUsage rated = mapper.cpu(key, at, total);
      cpu =
          new CpuUsage(
              at,
              total,
              rated.usageNanoCores(),
              unsigned(p.getRuntimeUserNs(), "runtime_user_ns"),
              unsigned(p.getRuntimeKernelNs(), "runtime_kernel_ns"));
    }
    MemoryUsage memory = null;
    if (w.hasMemory()) {
      var m = w.getMemory();
      long commit = unsigned(m.getMemoryUsageCommitBytes(), "memory_usage_commit_bytes");
      memory =
          MemoryUsage.builder(at)
              .workingSetBytes(unsigned(m.getMemoryUsagePrivateWorkingSetBytes(), "private_working_set"))
              .usageBytes(commit)
              .commitBytes(commit)
              .commitPeakBytes(unsigned(m.getMemoryUsageCommitPeakBytes(), "memory_usage_commit_peak_bytes"))
              .build();
    }
    StorageIo storage = null;
    if (w.hasStorage()) {
      var s = w.getStorage();
      storage =
          new StorageIo(
              at,
              unsigned(s.getReadCountNormalized(), "read_count_normalized"),
              unsigned(s.getReadSizeBytes(), "read_size_bytes"),
              unsigned(s.getWriteCountNormalized(), "write_count_normalized"),
              unsigned(s.getWriteSizeBytes(), "write_size_bytes"));
    }
    WritableLayers.Layer layer = layers.of(meta.id());
    return StatsMapper.identified(meta, round.host)
        .cpu(cpu)
        .memory(memory)
        .storage(storage)
        .writableLayer(
            layer == null
                ? null
                : RuntimeFilesystemUsage.builder(layer.measuredAt(), layer.mountpoint())
                    .usedBytes(layer.usedBytes())
                    .capacity(round.host.capacity(layer.mountpoint()))
                    .build())
        .build();
  }

  /** The ids of the running containers of pod {@code podId} (the tasks {@code getSandboxPidCount} asks besides). */
  private static List<String> runningIds(List<Container> running, String podId) {
    List<String> ids = new ArrayList<>();
    for (Container c : running) {
      if (c.getPodSandboxId().equals(podId)) {
        ids.add(c.getId());
      }
    }
    return ids;
  }

  /**
   * The sandbox's own processor time (a process-isolated pod's pause container) plus the running containers', carried
   * over departed containers; {@code null} when nothing of the pod was ever read.
   */
  private @Nullable CpuUsage podCpu(
      RuntimeMetadata.Pod meta, TaskMetrics.@Nullable Reading sandbox, List<ContainerSample> containers, Instant at) {
    Map<String, Long> running = new HashMap<>();
    long runningSum = 0;
    for (ContainerSample c : containers) {
      CpuUsage cpu = c.cpu();
      if (cpu != null) {
        running.put(c.id(), cpu.usageCoreNanos());
        runningSum = Math.addExact(runningSum, cpu.usageCoreNanos());
      }
    }
    Long runtimeTotal = null;
    Statistics s = sandbox == null ? null : sandbox.statistics();
    if (s != null && s.hasWindows() && s.getWindows().hasProcessor()) {
      runtimeTotal =
          Math.addExact(runningSum, unsigned(s.getWindows().getProcessor().getTotalRuntimeNs(), "total_runtime_ns"));
    }
    Long total = podCpu.total(meta.id(), runtimeTotal, running);
    if (total == null) {
      return null;
    }
    return mapper.cpu(new CpuRateCache.Key(meta.id(), meta.attempt()), at, total);
  }

  private static Instant latest(List<ContainerSample> containers, Instant orElse) {
    Instant latest = null;
    for (ContainerSample c : containers) {
      if (c.cpu() != null && (latest == null || c.cpu().timestamp().isAfter(latest))) {
        latest = c.cpu().timestamp();
      }
    }
    return latest == null ? orElse : latest;
  }

  /** A protobuf {@code uint64} as a {@code long}: a figure above 2^63-1 is malformed here, never negative. */
  static long unsigned(long value, String field) {
    if (value < 0) {
      throw new IllegalArgumentException(field + " exceeds 2^63-1: " + Long.toUnsignedString(value));
    }
    return value;
  }
}
