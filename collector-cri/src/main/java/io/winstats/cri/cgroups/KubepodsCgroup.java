package io.winstats.cri.cgroups;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The cgroup above every pod cgroup, which the Linux kubelet reports as its {@code pods} system container.
 *
 * @param stats its figures, read as a container's are
 * @param memoryUsage its usage, working set and limit, which a container has from CRI but this cgroup only from its
 *     own files; {@code null} when they could not be read
 */
public record KubepodsCgroup(CgroupStats stats, @Nullable CgroupMemoryUsage memoryUsage) {
  public KubepodsCgroup {
    Objects.requireNonNull(stats, "stats");
  }
}
