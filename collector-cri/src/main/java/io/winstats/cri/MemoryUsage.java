package io.winstats.cri;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Memory of a container or pod, in bytes. A {@code null} component is one the runtime did not fill.
 *
 * @param workingSetBytes on Linux usage minus inactive file; on Windows the private working set
 * @param availableBytes limit minus working set (Linux; absent without a limit)
 * @param usageBytes cgroup usage (Linux); commit (Windows, from {@code ListContainerStats})
 * @param commitBytes Windows commit memory ({@code commit_memory_bytes}, containerd 2.0+)
 */
public record MemoryUsage(
    Instant timestamp,
    @Nullable Long workingSetBytes,
    @Nullable Long availableBytes,
    @Nullable Long usageBytes,
    @Nullable Long rssBytes,
    @Nullable Long pageFaults,
    @Nullable Long majorPageFaults,
    @Nullable Long commitBytes) {
  public MemoryUsage {
    Objects.requireNonNull(timestamp, "timestamp");
  }
}
