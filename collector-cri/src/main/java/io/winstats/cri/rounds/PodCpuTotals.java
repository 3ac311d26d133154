package io.winstats.cri.rounds;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pod's cumulative CPU that never goes backwards while the pod lives, where the runtime's pod figure is a sum over
 * its <em>running</em> containers: containerd on Windows sums the sandbox and the running containers ({@code
 * appendCPUPodStats}, called only for {@code CONTAINER_RUNNING} containers in {@code toPodSandboxStats}, {@code
 * internal/cri/server/sandbox_stats_windows.go}), and the {@code ListContainerStats} path sums running containers on
 * both platforms. There, a container that exits or restarts takes its CPU out of the pod's total, and a counter
 * ({@code container_cpu_usage_seconds_total{container=""}}, {@code pod_cpu_usage_seconds_total}) reads as a reset.
 *
 * <p>The pod total here is the sandbox's own part (the runtime's pod figure minus the containers it summed) plus the
 * last reading of every container ever seen in the pod, running or gone. Each part only rises: a lower reading of the
 * same part (a counter reset the runtime reported) keeps the higher one. The CPU a container used between its last
 * reading and its exit is not seen.
 *
 * <p>Bounded: one entry per pod, dropped when the pod goes unread for {@code expireAfterAccess}; per pod at most
 * {@link #MAX_CONTAINERS} containers by id, the oldest departed ones folded into one sum. Thread-safe.
 */
final class PodCpuTotals {
  /** Containers remembered by id per pod; beyond, the oldest departed ones are folded into a sum. */
  static final int MAX_CONTAINERS = 64;

  private static final class Pod {
    long sandboxNanos;
    long foldedNanos;
    final LinkedHashMap<String, Long> containers = new LinkedHashMap<>();
  }

  private final Cache<String, Pod> pods;

  PodCpuTotals(Duration expireAfterAccess, long maximumSize, Ticker ticker) {
    this.pods = ExpiringCaches.expiring(expireAfterAccess, maximumSize, ticker);
  }

  /**
   * Records one round's readings of a pod and returns its total.
   *
   * @param podId the sandbox id
   * @param runtimeTotalNanos the runtime's pod figure (sandbox plus the containers in {@code runningNanos}), or
   *     {@code null} where it has none and the pod is the sum of its containers
   * @param runningNanos cumulative CPU of each container the runtime reported with the pod this round, by id
   * @return the pod's cumulative CPU in nanoseconds including departed containers, or {@code null} when nothing was
   *     ever read for it
   */
  @Nullable
  Long total(String podId, @Nullable Long runtimeTotalNanos, Map<String, Long> runningNanos) {
    Objects.requireNonNull(podId, "podId");
    Pod pod = pods.get(podId, id -> new Pod());
    synchronized (pod) {
      long runningSum = 0;
      for (Map.Entry<String, Long> e : runningNanos.entrySet()) {
        runningSum = Math.addExact(runningSum, e.getValue());
        pod.containers.merge(e.getKey(), e.getValue(), Math::max);
      }
      if (runtimeTotalNanos != null) {
        pod.sandboxNanos = Math.max(pod.sandboxNanos, runtimeTotalNanos - runningSum);
      }
      Iterator<Map.Entry<String, Long>> oldest = pod.containers.entrySet().iterator();
      while (pod.containers.size() > MAX_CONTAINERS && oldest.hasNext()) {
        Map.Entry<String, Long> e = oldest.next();
        if (!runningNanos.containsKey(e.getKey())) {
          pod.foldedNanos = Math.addExact(pod.foldedNanos, e.getValue());
          oldest.remove();
        }
      }
      if (runtimeTotalNanos == null && pod.containers.isEmpty() && pod.foldedNanos == 0) {
        return null;
      }
      long total = Math.addExact(pod.sandboxNanos, pod.foldedNanos);
      for (long v : pod.containers.values()) {
        total = Math.addExact(total, v);
      }
      return total;
    }
  }

  /** Pods remembered; for tests and the self-metrics. */
  long size() {
    pods.cleanUp();
    return pods.estimatedSize();
  }
}
