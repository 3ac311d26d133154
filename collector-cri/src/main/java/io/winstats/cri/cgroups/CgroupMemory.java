package io.winstats.cri.cgroups;

import io.soabase.recordbuilder.core.RecordBuilder;
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
@RecordBuilder
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
  public static CgroupMemoryBuilder builder() {
    return CgroupMemoryBuilder.builder();
  }
}
