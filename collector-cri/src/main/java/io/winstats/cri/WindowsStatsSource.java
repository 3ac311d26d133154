package io.winstats.cri;

import java.util.Locale;

/**
 * Where a Windows node's pod and container figures come from; identity (sandboxes, containers, labels) always comes
 * from CRI's listings.
 */
public enum WindowsStatsSource {
  /**
   * containerd's own {@code Tasks.Metrics} (runhcs statistics: total, user and kernel CPU, commit, commit peak, private
   * working set, storage I/O) and HNS endpoint statistics for pod networks: no CRI stats call, so containerd's shared
   * {@code usage_nano_cores} reading, which the kubelet's Summary passes on, is left to the kubelet.
   */
  TASKS,
  /** CRI stats ({@code ListPodSandboxStats} or {@code ListContainerStats}), as on Linux. */
  CRI;

  /** The setting's word: {@code tasks} or {@code cri}. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses {@code tasks} or {@code cri}.
   *
   * @throws IllegalArgumentException naming both choices
   */
  public static WindowsStatsSource parse(String word) {
    for (WindowsStatsSource s : values()) {
      if (s.word().equals(word)) {
        return s;
      }
    }
    throw new IllegalArgumentException("must be tasks or cri, not \"" + word + "\"");
  }
}
