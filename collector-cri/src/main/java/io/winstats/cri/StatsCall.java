package io.winstats.cri;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which CRI call a round reads pod and container stats with.
 *
 * <p>{@link #LIST_POD_SANDBOX_STATS} gives the most: pod figures from the pod's own cgroup, pod network and process
 * counts. Its price is the runtime's: containerd before 2.0 runs {@code runc ps} for the sandbox and for every running
 * container on each call, about 20 ms of CPU each (2.2 CPU-seconds per round at 110 pods measured here, against 0.4 for
 * {@link #LIST_CONTAINER_STATS}; docs/PERFORMANCE.md). {@link #LIST_CONTAINER_STATS} sums container CPU and memory into
 * the pod, as the kubelet does when it has no pod figures, and has no pod network or process counts.
 */
public enum StatsCall {
  LIST_POD_SANDBOX_STATS("ListPodSandboxStats"),
  LIST_CONTAINER_STATS("ListContainerStats");

  private final String rpcName;

  StatsCall(String rpcName) {
    this.rpcName = rpcName;
  }

  /** The RPC's name in runtime.v1, which is also how flags and logs spell the choice. */
  public String rpcName() {
    return rpcName;
  }

  /** The call named {@code name} (case-insensitive RPC name); throws with the valid names otherwise. */
  public static StatsCall parse(String name) {
    String wanted = name.strip().toLowerCase(Locale.ROOT);
    for (StatsCall c : values()) {
      if (c.rpcName.toLowerCase(Locale.ROOT).equals(wanted)) {
        return c;
      }
    }
    throw new IllegalArgumentException(
        "'" + name + "' is not one of "
            + Arrays.stream(values()).map(StatsCall::rpcName).collect(Collectors.joining(", ")));
  }
}
