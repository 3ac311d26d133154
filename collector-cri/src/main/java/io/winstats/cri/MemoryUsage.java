package io.winstats.cri;

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

  /** The figures CRI carries, without a commit peak. */
  public MemoryUsage(
      Instant timestamp,
      @Nullable Long workingSetBytes,
      @Nullable Long availableBytes,
      @Nullable Long usageBytes,
      @Nullable Long rssBytes,
      @Nullable Long pageFaults,
      @Nullable Long majorPageFaults,
      @Nullable Long commitBytes) {
    this(
        timestamp,
        workingSetBytes,
        availableBytes,
        usageBytes,
        rssBytes,
        pageFaults,
        majorPageFaults,
        commitBytes,
        null);
  }

  /** A builder for a reading taken at {@code timestamp}, every figure absent until set. */
  public static Builder builder(Instant timestamp) {
    return new Builder(timestamp);
  }

  /** Names each figure of a {@link MemoryUsage}; not thread-safe. Unset figures are absent ({@code null}). */
  public static final class Builder {
    private final Instant timestamp;
    private @Nullable Long workingSetBytes;
    private @Nullable Long availableBytes;
    private @Nullable Long usageBytes;
    private @Nullable Long rssBytes;
    private @Nullable Long pageFaults;
    private @Nullable Long majorPageFaults;
    private @Nullable Long commitBytes;
    private @Nullable Long commitPeakBytes;

    private Builder(Instant timestamp) {
      this.timestamp = timestamp;
    }

    public Builder workingSetBytes(@Nullable Long value) {
      this.workingSetBytes = value;
      return this;
    }

    public Builder availableBytes(@Nullable Long value) {
      this.availableBytes = value;
      return this;
    }

    public Builder usageBytes(@Nullable Long value) {
      this.usageBytes = value;
      return this;
    }

    public Builder rssBytes(@Nullable Long value) {
      this.rssBytes = value;
      return this;
    }

    public Builder pageFaults(@Nullable Long value) {
      this.pageFaults = value;
      return this;
    }

    public Builder majorPageFaults(@Nullable Long value) {
      this.majorPageFaults = value;
      return this;
    }

    public Builder commitBytes(@Nullable Long value) {
      this.commitBytes = value;
      return this;
    }

    public Builder commitPeakBytes(@Nullable Long value) {
      this.commitPeakBytes = value;
      return this;
    }

    public MemoryUsage build() {
      return new MemoryUsage(
          timestamp,
          workingSetBytes,
          availableBytes,
          usageBytes,
          rssBytes,
          pageFaults,
          majorPageFaults,
          commitBytes,
          commitPeakBytes);
    }
  }
}
