package io.winstats.cri.testing;

/**
 * The containerd release line whose Windows CRI stats a {@link WindowsRuntimeFake} imitates. The lines differ in what
 * they fill, read from containerd's own code:
 *
 * <ul>
 *   <li>{@link #V1_6}: {@code ListPodSandboxStats} answers {@code UNIMPLEMENTED} "pod sandbox stats not implemented on
 *       windows" ({@code pkg/cri/server/sandbox_stats_windows.go} on release/1.6); {@code ListContainerStats} as 1.7.
 *   <li>{@link #V1_7}: {@code WindowsMemoryUsage} carries the private working set only, no commit; a pod without
 *       sandbox stats (HostProcess) gets {@code working_set_bytes}, {@code available_bytes} and {@code page_faults} set
 *       to 0 ({@code appendMemoryPodStats} in {@code pkg/cri/server/sandbox_stats_windows.go} on release/1.7);
 *       {@code ListContainerStats} sets no {@code usage_bytes} ({@code containerMetrics} in {@code
 *       container_stats_list_windows.go}).
 *   <li>{@link #V2}: {@code commit_memory_bytes} on pods and containers (containerd#8951), no zeros for HostProcess
 *       pods, and {@code ListContainerStats} sets {@code usage_bytes} to the commit ({@code windowsContainerMetrics} in
 *       {@code internal/cri/server/container_stats_list.go}).
 * </ul>
 */
public enum ContainerdLine {
  V1_6,
  V1_7,
  V2;

  /** Whether {@code ListPodSandboxStats} exists for Windows pods (1.7 and later, containerd#7099). */
  public boolean hasPodSandboxStats() {
    return this != V1_6;
  }

  /** Whether the runtime reports commit memory (2.0 and later, containerd#8951). */
  public boolean reportsCommit() {
    return this == V2;
  }
}
