package io.winstats.cri.rounds;

import io.grpc.Status;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.StatsCall;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which {@link StatsRound} a reader reads its pods with, and when it falls back from one to another.
 *
 * <p>{@link PodSandboxStatsRound} ({@code ListPodSandboxStats}) by default: pods with their containers, pod network
 * and process count. If the runtime lacks that call ({@code UNIMPLEMENTED}, or {@code UNKNOWN} saying "not
 * implemented": containerd before 1.7 on Windows), {@link ContainerStatsRound} ({@code ListPodSandbox} + {@code
 * ListContainers} + {@code ListContainerStats}) until the runtime restarts; if the operator chose {@link
 * StatsCall#LIST_CONTAINER_STATS} because the other call costs the runtime too much, for good. That round sums
 * container CPU and memory into the pod, as the kubelet's {@code addPodCPUMemoryStats} does; pods then have no
 * network or process count from the runtime.
 *
 * <p>With task metrics chosen (a Windows node's default) a {@link TasksStatsRound} first: the listings for identity and
 * containerd's {@code Tasks.Metrics} for the figures, no CRI stats call. When that call fails for the Tasks service's
 * own reasons (not implemented, refused, an answer for none of the node's tasks, statistics that do not decode), the
 * round reads CRI stats instead, says so once ({@code event=cri_tasks_fallback} at WARN, {@link
 * RuntimeSample#fallbacksStarted()}), and tries the Tasks service again after {@link
 * RuntimeStatsReader#TASKS_RETRY_AFTER}; a runtime that is down fails the round as before.
 *
 * <p>Used under the reader's lock only.
 */
final class StatsRoundChooser {
  private static final Logger LOG = LoggerFactory.getLogger(CriStatsReader.class);

  private final RuntimeContext context;
  private final StatsRound podSandboxStats;
  private final StatsRound containerStats;

  private StatsRound criStats;
  // ListContainerStats because the operator chose it, not because the runtime lacked the other call.
  private boolean containerStatsChosen;
  private @Nullable StatsRound tasksStats;
  // Since when Tasks.Metrics failed; null while it answers (or was never chosen).
  private @Nullable Long tasksFailedAtNanos;

  StatsRoundChooser(RuntimeContext context, StatsRound podSandboxStats, StatsRound containerStats) {
    this.context = Objects.requireNonNull(context, "context");
    this.podSandboxStats = Objects.requireNonNull(podSandboxStats, "podSandboxStats");
    this.containerStats = Objects.requireNonNull(containerStats, "containerStats");
    this.criStats = podSandboxStats;
  }

  /**
   * The pods through the chosen round.
   *
   * @throws RuntimeCalls.RpcFailure when a call fails for the round as a whole
   */
  List<PodSample> read(RoundContext round) {
    StatsRound tasksStats = this.tasksStats;
    if (tasksStats != null
        && (tasksFailedAtNanos == null
            || context.ticker().read() - tasksFailedAtNanos >= RuntimeStatsReader.TASKS_RETRY_AFTER.toNanos())) {
      try {
        List<PodSample> pods = tasksStats.read(round);
        if (tasksFailedAtNanos != null) {
          LOG.info("event=cri_tasks_recovered endpoint={} path={}", context.target(), tasksStats.rpcName());
          tasksFailedAtNanos = null;
        }
        return pods;
      } catch (RuntimeCalls.RpcFailure f) {
        if (!TasksStatsRound.METHODS.contains(f.method) || isOutage(f)) {
          throw f;
        }
        tasksFailed(round, f.summary());
      } catch (TasksStatsRound.NoTaskMetrics | TaskMetrics.UndecodableTask e) {
        tasksFailed(round, e.getMessage());
      }
    }
    return readCriStats(round);
  }

  /** The call the last round read its figures with, for logs. */
  String rpcName() {
    StatsRound tasksStats = this.tasksStats;
    return tasksStats != null && tasksFailedAtNanos == null ? tasksStats.rpcName() : criStats.rpcName();
  }

  /** Reads with {@code ListContainerStats} from the next round on, as if the runtime lacked the other call. */
  void useContainerStats() {
    criStats = containerStats;
    containerStatsChosen = true;
  }

  /**
   * The next round runs on a new connection: the runtime may have restarted as a version that has {@code
   * ListPodSandboxStats} (containerd 1.6 to 1.7 on Windows), so a fallback the runtime forced is undone and the call
   * asked again; the operator's choice stays.
   */
  void forgetMissing() {
    if (!containerStatsChosen) {
      criStats = podSandboxStats;
    }
  }

  /**
   * The runtime restarted as another version: the Tasks service is asked again from the next round, without waiting
   * out {@link RuntimeStatsReader#TASKS_RETRY_AFTER}, and the Tasks round forgets what it learnt of the old version.
   */
  void runtimeChanged() {
    StatsRound tasks = tasksStats;
    if (tasks != null) {
      tasksFailedAtNanos = null;
      tasks.runtimeChanged();
    }
  }

  /** Reads with {@code tasks} from the next round on, falling back to CRI stats while the Tasks service fails. */
  void useTaskMetrics(StatsRound tasks) {
    tasksStats = Objects.requireNonNull(tasks, "tasks");
    tasksFailedAtNanos = null;
  }

  /** Whether the last round read CRI stats although task metrics were chosen. */
  boolean fellBackFromTaskMetrics() {
    return tasksStats != null && tasksFailedAtNanos != null;
  }

  /** Whether CRI stats are read with {@code ListContainerStats}. */
  boolean usesContainerStats() {
    return criStats == containerStats;
  }

  /** The runtime itself is down or slow: the round fails as any other, and the Tasks service is not blamed. */
  private static boolean isOutage(RuntimeCalls.RpcFailure f) {
    return f.code() == Status.Code.UNAVAILABLE || f.code() == Status.Code.DEADLINE_EXCEEDED;
  }

  private void tasksFailed(RoundContext round, @Nullable String cause) {
    if (tasksFailedAtNanos == null) {
      round.fallbacksStarted.add(RuntimeStatsReader.TASKS_FALLBACK);
      LOG.warn(
          "event=cri_tasks_fallback endpoint={} path={} retryAfter={} cause={}",
          context.target(),
          criStats.rpcName(),
          RuntimeStatsReader.TASKS_RETRY_AFTER,
          cause);
    } else {
      LOG.debug("event=cri_tasks_still_failing endpoint={} cause={}", context.target(), cause);
    }
    tasksFailedAtNanos = context.ticker().read();
  }

  /** The pods through CRI stats; without {@code ListPodSandboxStats} the other call, until the runtime restarts. */
  private List<PodSample> readCriStats(RoundContext round) {
    try {
      return criStats.read(round);
    } catch (RuntimeCalls.RpcFailure f) {
      if (criStats != podSandboxStats || !f.isNotImplemented()) {
        throw f;
      }
      criStats = containerStats;
      LOG.info(
          "event=cri_fallback endpoint={} path=ListContainerStats code={} cause={}",
          context.target(),
          f.code(),
          "ListPodSandboxStats is not implemented; pod network and process counts will be missing");
      return criStats.read(round);
    }
  }
}
