package io.winstats.perfcounters;

import org.jspecify.annotations.Nullable;

/**
 * Node memory in bytes (and fault counts). A {@code null} component is one the platform does not have.
 *
 * @param totalBytes physical memory ({@code MemTotal}; {@code GlobalMemoryStatusEx.ullTotalPhys})
 * @param availableBytes memory available to new work ({@code MemAvailable}; {@code Memory\Available Bytes})
 * @param workingSetBytes the kubelet's node working set: on Linux usage minus inactive file pages (cAdvisor's
 *     definition, total − free − inactive_file); on Windows {@code Process(_Total)\Working Set - Private}
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
    long totalBytes,
    @Nullable Long availableBytes,
    long workingSetBytes,
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
