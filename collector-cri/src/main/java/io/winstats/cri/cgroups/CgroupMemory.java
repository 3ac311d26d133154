package io.winstats.cri.cgroups;

import org.jspecify.annotations.Nullable;

/**
 * Memory accounting of one cgroup, with cAdvisor's meanings (google/cadvisor lib/container/libcontainer/handler.go
 * {@code setMemoryStats}). Fields a cgroup version or kernel configuration does not provide are {@code null}.
 *
 * @param cacheBytes page cache: v1 {@code total_cache}, v2 {@code file}
 * @param rssBytes anonymous memory: v1 {@code total_rss}, v2 {@code anon}
 * @param mappedFileBytes v1 {@code total_mapped_file}, v2 {@code file_mapped}
 * @param swapBytes v1 {@code total_swap} (only with swap accounting), v2 {@code memory.swap.current}
 * @param swapLimitBytes v2 {@code memory.swap.max} where swap is accounted and limited; {@code null} for {@code max}
 *     (unlimited), without swap accounting, and on v1 (whose {@code memory.memsw.limit_in_bytes} bounds memory plus
 *     swap, not swap)
 * @param kernelBytes v1 {@code memory.kmem.usage_in_bytes}, v2 {@code kernel} in {@code memory.stat} (Linux 5.18+)
 * @param failcnt times usage hit the limit: v1 {@code memory.failcnt}, v2 the {@code max} count of
 *     {@code memory.events}, as runc's cgroups library maps it
 * @param maxUsageBytes peak usage: v1 {@code memory.max_usage_in_bytes}, v2 {@code memory.peak} (Linux 5.19+)
 * @param pgfault cumulative page faults
 * @param pgmajfault cumulative major page faults
 * @param oomKills processes the OOM killer killed in this cgroup: {@code oom_kill} of v1 {@code memory.oom_control}
 *     (Linux 4.13+) or v2 {@code memory.events}
 */
public record CgroupMemory(
    long cacheBytes,
    long rssBytes,
    long mappedFileBytes,
    @Nullable Long swapBytes,
    @Nullable Long swapLimitBytes,
    @Nullable Long kernelBytes,
    @Nullable Long failcnt,
    @Nullable Long maxUsageBytes,
    long pgfault,
    long pgmajfault,
    @Nullable Long oomKills) {
  /** A builder with every component 0, empty or absent until set by name. */
  public static Builder builder() {
    return new Builder();
  }

  /** Names each component of a {@link CgroupMemory}; not thread-safe. */
  public static final class Builder {
    private long cacheBytes;
    private long rssBytes;
    private long mappedFileBytes;
    private @Nullable Long swapBytes;
    private @Nullable Long swapLimitBytes;
    private @Nullable Long kernelBytes;
    private @Nullable Long failcnt;
    private @Nullable Long maxUsageBytes;
    private long pgfault;
    private long pgmajfault;
    private @Nullable Long oomKills;

    private Builder() {
    }

    public Builder cacheBytes(long value) {
      this.cacheBytes = value;
      return this;
    }

    public Builder rssBytes(long value) {
      this.rssBytes = value;
      return this;
    }

    public Builder mappedFileBytes(long value) {
      this.mappedFileBytes = value;
      return this;
    }

    public Builder swapBytes(@Nullable Long value) {
      this.swapBytes = value;
      return this;
    }

    public Builder swapLimitBytes(@Nullable Long value) {
      this.swapLimitBytes = value;
      return this;
    }

    public Builder kernelBytes(@Nullable Long value) {
      this.kernelBytes = value;
      return this;
    }

    public Builder failcnt(@Nullable Long value) {
      this.failcnt = value;
      return this;
    }

    public Builder maxUsageBytes(@Nullable Long value) {
      this.maxUsageBytes = value;
      return this;
    }

    public Builder pgfault(long value) {
      this.pgfault = value;
      return this;
    }

    public Builder pgmajfault(long value) {
      this.pgmajfault = value;
      return this;
    }

    public Builder oomKills(@Nullable Long value) {
      this.oomKills = value;
      return this;
    }

    public CgroupMemory build() {
      return new CgroupMemory(
          cacheBytes,
          rssBytes,
          mappedFileBytes,
          swapBytes,
          swapLimitBytes,
          kernelBytes,
          failcnt,
          maxUsageBytes,
          pgfault,
          pgmajfault,
          oomKills);
    }
  }
}
