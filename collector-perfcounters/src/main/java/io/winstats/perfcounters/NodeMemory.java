package io.winstats.perfcounters;

import org.jspecify.annotations.Nullable;

/**
 * Node memory in bytes (and fault counts). A {@code null} component is one the source does not have: every figure
 * may be absent from a replayed counter log, which holds only the counters its author chose (no PDH counter holds the
 * physical memory size, so a typeperf log never has it); procfs and PDH always fill the total and the working set.
 *
 * @param totalBytes physical memory ({@code MemTotal}; {@code GlobalMemoryStatusEx.ullTotalPhys}); {@code null} when
 *     unknown (a counter log not written by this daemon), and then nothing derived from it is reported
 * @param availableBytes memory available to new work ({@code MemAvailable}; {@code Memory\Available Bytes})
 * @param workingSetBytes the kubelet's node working set: on Linux usage minus inactive file pages (cAdvisor's
 *     definition, total − free − inactive_file); on Windows {@code Process(_Total)\Working Set - Private}; {@code
 *     null} when unknown (a counter log without that counter)
 * @param usageBytes on Linux total − free (page cache included, as the root cgroup's usage); on Windows committed bytes,
 *     as the kubelet reports it
 * @param freeBytes unused memory ({@code MemFree}; {@code Memory\Free & Zero Page List Bytes})
 * @param cacheBytes page or system cache ({@code Cached + Buffers}; {@code Memory\Cache Bytes})
 * @param committedBytes committed virtual memory ({@code Committed_AS}; {@code Memory\Committed Bytes})
 * @param commitLimitBytes ({@code CommitLimit}; {@code Memory\Commit Limit})
 * @param pageFaults cumulative page faults ({@code pgfault}; {@code Memory\Page Faults/sec} raw)
 * @param majorPageFaults cumulative major page faults ({@code pgmajfault}; {@code Memory\Pages/sec} raw on Windows is
 *     the closest and is not used here)
 * @param swapTotalBytes swap or page file size
 * @param swapFreeBytes free swap
 */
public record NodeMemory(
    @Nullable Long totalBytes,
    @Nullable Long availableBytes,
    @Nullable Long workingSetBytes,
    @Nullable Long usageBytes,
    @Nullable Long freeBytes,
    @Nullable Long cacheBytes,
    @Nullable Long committedBytes,
    @Nullable Long commitLimitBytes,
    @Nullable Long pageFaults,
    @Nullable Long majorPageFaults,
    @Nullable Long swapTotalBytes,
    @Nullable Long swapFreeBytes) {
  public NodeMemory {
    requireNonNegative("totalBytes", totalBytes);
    requireNonNegative("workingSetBytes", workingSetBytes);
    requireNonNegative("availableBytes", availableBytes);
    requireNonNegative("usageBytes", usageBytes);
    requireNonNegative("freeBytes", freeBytes);
    requireNonNegative("cacheBytes", cacheBytes);
    requireNonNegative("committedBytes", committedBytes);
    requireNonNegative("commitLimitBytes", commitLimitBytes);
    requireNonNegative("pageFaults", pageFaults);
    requireNonNegative("majorPageFaults", majorPageFaults);
    requireNonNegative("swapTotalBytes", swapTotalBytes);
    requireNonNegative("swapFreeBytes", swapFreeBytes);
  }

  static void requireNonNegative(String name, @Nullable Long value) {
    if (value != null && value < 0) {
      throw new IllegalArgumentException(name + " must not be negative: " + value);
    }
  }
}
