package io.winstats.cri;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Memory of a container or pod, in bytes. A {@code null} component is one the runtime did not fill.
 *
 * @param workingSetBytes on Linux usage minus inactive file; on Windows the private working set
 * @param availableBytes limit minus working set (Linux; absent without a limit, and on Windows, where containerd never
 *     measures it)
 * @param usageBytes cgroup usage (Linux); commit (Windows containers); the sum of the containers' commit (Windows pods)
 * @param pageFaults page faults (Linux); absent on Windows pods, where containerd sends only a filler 0
 * @param commitBytes Windows commit memory as the runtime reports it ({@code commit_memory_bytes}, containerd 2.0+; a
 *     pod's is the sandbox's alone before 2.2)
 * @param commitPeakBytes the highest commit since the container started (Windows task statistics: hcsshim's {@code
 *     memory_usage_commit_peak_bytes}); {@code null} from CRI, which does not carry it
 */
@RecordBuilder
public record MemoryUsage(
    Instant timestamp,
    @Nullable Long workingSetBytes,
    @Nullable Long availableBytes,
    @Nullable Long usageBytes,
    @Nullable Long rssBytes,
    @Nullable Long pageFaults,
    @Nullable Long majorPageFaults,
    @Nullable Long commitBytes,
    @Nullable Long commitPeakBytes) {
  public MemoryUsage {
    Objects.requireNonNull(timestamp, "timestamp");
  }

  /** A builder for a reading taken at {@code timestamp}, every figure absent until set. */
  public static MemoryUsageBuilder builder(Instant timestamp) {
    return MemoryUsageBuilder.builder().timestamp(timestamp);
  }
}
