package io.winstats.cri.testing;

/**
 * The containerd release line whose Windows CRI stats a {@link WindowsRuntimeFake} imitates. The lines differ in what
 * they fill, read from containerd's own code ({@code sandbox_stats_windows.go}: {@code pkg/cri/server/} up to 1.7,
 * {@code internal/cri/server/} from 2.0; Windows {@code ListContainerStats}: {@code container_stats_list_windows.go}
 * up to 1.7, {@code windowsContainerMetrics} in {@code container_stats_list.go} from 2.0):
 *
 * <ul>
 *   <li>{@link #V1_6}: {@code ListPodSandboxStats} answers {@code UNIMPLEMENTED} "... not implemented on windows";
 *       {@code ListContainerStats} as 1.7.
 *   <li>{@link #V1_7}: memory is the private working set only, no commit. A pod without sandbox statistics
 *       (HostProcess) gets its memory created with {@code working_set_bytes}, {@code available_bytes} and {@code
 *       page_faults} at 0; the latter two stay 0, no container reports them ({@code appendMemoryPodStats}).
 *   <li>{@link #V2_0} (2.0 and 2.1): {@code commit_memory_bytes} on the sandbox and each container (containerd#8951),
 *       but the pod's is the sandbox's alone: {@code appendMemoryPodStats} adds only the working set; the sandbox-less
 *       pod's memory is created with {@code commit_memory_bytes} at 0 too, and it stays 0.
 *   <li>{@link #V2_2} (2.2 and later): the pod's commit is the sandbox's plus the containers' and a sandbox-less pod
 *       gets no zeros; {@code ListContainerStats} sets {@code usage_bytes} to the commit (commit 7a46fe7e6, "Correct
 *       Commit Memory Aggregation for Windows Containers", containerd#12015).
 * </ul>
 */
public enum ContainerdLine {
  V1_6,
  V1_7,
  V2_0,
  V2_2;

  /** Whether {@code ListPodSandboxStats} exists for Windows pods (1.7 and later, containerd#7099). */
  public boolean hasPodSandboxStats() {
    return this != V1_6;
  }

  /** Whether sandbox and container memory carry {@code commit_memory_bytes} (2.0 and later). */
  public boolean reportsCommit() {
    return this == V2_0 || this == V2_2;
  }

  /** Whether the pod's commit includes its containers' and {@code ListContainerStats} carries it (2.2 and later). */
  public boolean sumsCommit() {
    return this == V2_2;
  }
}
