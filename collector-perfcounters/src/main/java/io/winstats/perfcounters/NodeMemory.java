package io.winstats.perfcounters;

import io.soabase.recordbuilder.core.RecordBuilder;
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
 * @param usageBytes on Linux total − free (page cache included, as the root cgroup's usage); on Windows committed
 *     bytes, as the kubelet reports it
 * @param freeBytes unused memory ({@code MemFree}; {@code Memory\Free & Zero Page List Bytes})
 * @param cacheBytes page or system cache ({@code Cached + Buffers}; {@code Memory\Cache Bytes})
 * @param modifiedPageListBytes Windows: cached data and code on the modified page list ({@code Memory\Modified Page
 *     List Bytes}); absent on Linux
 * @param standbyCacheCoreBytes Windows: the core standby cache lists ({@code Memory\Standby Cache Core Bytes})
 * @param standbyCacheNormalPriorityBytes Windows: the normal-priority standby cache lists ({@code Memory\Standby Cache
 *     Normal Priority Bytes})
 * @param standbyCacheReserveBytes Windows: the reserve standby cache lists ({@code Memory\Standby Cache Reserve
 *     Bytes})
 * @param committedBytes committed virtual memory ({@code Committed_AS}; {@code Memory\Committed Bytes})
 * @param commitLimitBytes ({@code CommitLimit}; {@code Memory\Commit Limit})
 * @param pageFaults cumulative page faults ({@code pgfault}; {@code Memory\Page Faults/sec} raw)
 * @param majorPageFaults cumulative major page faults ({@code pgmajfault}); absent on Windows, which counts the pages
 *     of hard faults instead ({@code swapPageOperations})
 * @param swapPageOperations Windows: cumulative pages read from or written to disk to resolve hard faults ({@code
 *     Memory\Pages/sec} raw); absent on Linux
 * @param rssBytes Linux: anonymous memory, the kubelet's node {@code rssBytes} ({@code AnonPages}); absent on Windows
 * @param swapTotalBytes swap or page file size
 * @param swapFreeBytes free swap
 * @param cacheBytesPeak Windows: {@code Memory\Cache Bytes Peak}
 * @param cacheFaults Windows: {@code Memory\Cache Faults/sec}, cumulative
 * @param demandZeroFaults Windows: {@code Memory\Demand Zero Faults/sec}, cumulative
 * @param freeSystemPageTableEntries Windows: {@code Memory\Free System Page Table Entries}
 * @param swapPageReads Windows: {@code Memory\Page Reads/sec}, cumulative
 * @param swapPageWrites Windows: {@code Memory\Page Writes/sec}, cumulative
 * @param swapPagesRead Windows: {@code Memory\Pages Input/sec}, cumulative
 * @param swapPagesWritten Windows: {@code Memory\Pages Output/sec}, cumulative
 * @param poolNonpagedBytes Windows: {@code Memory\Pool Nonpaged Bytes}
 * @param poolPagedBytes Windows: {@code Memory\Pool Paged Bytes}
 * @param poolPagedResidentBytes Windows: {@code Memory\Pool Paged Resident Bytes}
 * @param poolNonpagedAllocs Windows: {@code Memory\Pool Nonpaged Allocs}, the allocations in the pool now (a raw
 *     count that falls as well as rises)
 * @param poolPagedAllocs Windows: {@code Memory\Pool Paged Allocs}, served as a count by windows_exporter
 * @param systemCacheResidentBytes Windows: {@code Memory\System Cache Resident Bytes}
 * @param systemCodeResidentBytes Windows: {@code Memory\System Code Resident Bytes}
 * @param systemCodeTotalBytes Windows: {@code Memory\System Code Total Bytes}
 * @param systemDriverResidentBytes Windows: {@code Memory\System Driver Resident Bytes}
 * @param systemDriverTotalBytes Windows: {@code Memory\System Driver Total Bytes}
 * @param transitionFaults Windows: {@code Memory\Transition Faults/sec}, cumulative
 * @param transitionPagesRepurposed Windows: {@code Memory\Transition Pages RePurposed/sec}, cumulative
 * @param writeCopies Windows: {@code Memory\Write Copies/sec}, cumulative
 * @param physicalFreeBytes Windows: {@code GlobalMemoryStatusEx.ullAvailPhys}, read in the same call as the total
 *     (windows_exporter's {@code physical_free_bytes}, memory.go:364-384@v0.31.8)
 * @param processMemoryLimitBytes Windows: {@code GlobalMemoryStatusEx.ullTotalVirtual}, the user-mode address space
 *     of the reading process (windows_exporter's {@code process_memory_limit_bytes}, memory.go:364-384@v0.31.8)
 */
@RecordBuilder
public record NodeMemory(
    @Nullable Long totalBytes,
    @Nullable Long availableBytes,
    @Nullable Long workingSetBytes,
    @Nullable Long usageBytes,
    @Nullable Long freeBytes,
    @Nullable Long cacheBytes,
    @Nullable Long modifiedPageListBytes,
    @Nullable Long standbyCacheCoreBytes,
    @Nullable Long standbyCacheNormalPriorityBytes,
    @Nullable Long standbyCacheReserveBytes,
    @Nullable Long committedBytes,
    @Nullable Long commitLimitBytes,
    @Nullable Long pageFaults,
    @Nullable Long majorPageFaults,
    @Nullable Long swapPageOperations,
    @Nullable Long rssBytes,
    @Nullable Long swapTotalBytes,
    @Nullable Long swapFreeBytes,
    @Nullable Long cacheBytesPeak,
    @Nullable Long cacheFaults,
    @Nullable Long demandZeroFaults,
    @Nullable Long freeSystemPageTableEntries,
    @Nullable Long swapPageReads,
    @Nullable Long swapPageWrites,
    @Nullable Long swapPagesRead,
    @Nullable Long swapPagesWritten,
    @Nullable Long poolNonpagedBytes,
    @Nullable Long poolPagedBytes,
    @Nullable Long poolPagedResidentBytes,
    @Nullable Long poolNonpagedAllocs,
    @Nullable Long poolPagedAllocs,
    @Nullable Long systemCacheResidentBytes,
    @Nullable Long systemCodeResidentBytes,
    @Nullable Long systemCodeTotalBytes,
    @Nullable Long systemDriverResidentBytes,
    @Nullable Long systemDriverTotalBytes,
    @Nullable Long transitionFaults,
    @Nullable Long transitionPagesRepurposed,
    @Nullable Long writeCopies,
    @Nullable Long physicalFreeBytes,
    @Nullable Long processMemoryLimitBytes) {
  public NodeMemory {
    requireNonNegative("totalBytes", totalBytes);
    requireNonNegative("workingSetBytes", workingSetBytes);
    requireNonNegative("availableBytes", availableBytes);
    requireNonNegative("usageBytes", usageBytes);
    requireNonNegative("freeBytes", freeBytes);
    requireNonNegative("cacheBytes", cacheBytes);
    requireNonNegative("modifiedPageListBytes", modifiedPageListBytes);
    requireNonNegative("standbyCacheCoreBytes", standbyCacheCoreBytes);
    requireNonNegative("standbyCacheNormalPriorityBytes", standbyCacheNormalPriorityBytes);
    requireNonNegative("standbyCacheReserveBytes", standbyCacheReserveBytes);
    requireNonNegative("committedBytes", committedBytes);
    requireNonNegative("commitLimitBytes", commitLimitBytes);
    requireNonNegative("pageFaults", pageFaults);
    requireNonNegative("majorPageFaults", majorPageFaults);
    requireNonNegative("swapPageOperations", swapPageOperations);
    requireNonNegative("rssBytes", rssBytes);
    requireNonNegative("swapTotalBytes", swapTotalBytes);
    requireNonNegative("swapFreeBytes", swapFreeBytes);
    requireNonNegative("cacheBytesPeak", cacheBytesPeak);
    requireNonNegative("cacheFaults", cacheFaults);
    requireNonNegative("demandZeroFaults", demandZeroFaults);
    requireNonNegative("freeSystemPageTableEntries", freeSystemPageTableEntries);
    requireNonNegative("swapPageReads", swapPageReads);
    requireNonNegative("swapPageWrites", swapPageWrites);
    requireNonNegative("swapPagesRead", swapPagesRead);
    requireNonNegative("swapPagesWritten", swapPagesWritten);
    requireNonNegative("poolNonpagedBytes", poolNonpagedBytes);
    requireNonNegative("poolPagedBytes", poolPagedBytes);
    requireNonNegative("poolPagedResidentBytes", poolPagedResidentBytes);
    requireNonNegative("poolNonpagedAllocs", poolNonpagedAllocs);
    requireNonNegative("poolPagedAllocs", poolPagedAllocs);
    requireNonNegative("systemCacheResidentBytes", systemCacheResidentBytes);
    requireNonNegative("systemCodeResidentBytes", systemCodeResidentBytes);
    requireNonNegative("systemCodeTotalBytes", systemCodeTotalBytes);
    requireNonNegative("systemDriverResidentBytes", systemDriverResidentBytes);
    requireNonNegative("systemDriverTotalBytes", systemDriverTotalBytes);
    requireNonNegative("transitionFaults", transitionFaults);
    requireNonNegative("transitionPagesRepurposed", transitionPagesRepurposed);
    requireNonNegative("writeCopies", writeCopies);
    requireNonNegative("physicalFreeBytes", physicalFreeBytes);
    requireNonNegative("processMemoryLimitBytes", processMemoryLimitBytes);
  }

  /** A builder with every figure absent: a source sets the ones it has, by name. */
  public static NodeMemoryBuilder builder() {
    return NodeMemoryBuilder.builder();
  }

  static void requireNonNegative(String name, @Nullable Long value) {
    if (value != null && value < 0) {
      throw new IllegalArgumentException(name + " must not be negative: " + value);
    }
  }
}
