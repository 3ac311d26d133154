package io.winstats.cri.cgroups;

import org.jspecify.annotations.Nullable;

/**
 * The node's pressure stall information from {@code /proc/pressure/{cpu,memory,io}} (Linux 4.20+ with PSI enabled);
 * each is {@code null} where the file is absent, and all three on a cgroup v1 host, where the kubelet reports none.
 */
public record NodePressure(@Nullable Pressure cpu, @Nullable Pressure memory, @Nullable Pressure io) {
  /** No pressure figure. */
  public static final NodePressure NONE = new NodePressure(null, null, null);
}
