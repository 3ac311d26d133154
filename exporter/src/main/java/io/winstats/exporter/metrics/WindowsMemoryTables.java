package io.winstats.exporter.metrics;

import io.winstats.perfcounters.NodeMemory;
import java.util.List;

/**
 * windows_exporter's memory collector ({@code internal/collector/memory/memory.go}) and the legacy memory names the
 * kubernetes-mixin Windows rules still query, one row per family. Served by {@link WindowsExporterSeries}.
 */
final class WindowsMemoryTables {
  private WindowsMemoryTables() {}

  // The modified, standby and swap rows as windows_exporter v0.31 declares them (internal/collector/memory/memory.go),
  // help verbatim; kube-prometheus-stack's windows.node.rules and USE Method / Node(Windows) query them.
  static final SeriesTable<NodeMemory> MEMORY =
      SeriesTable.<NodeMemory>labelled(List.of())
          .gauge(
              "windows_memory_available_bytes",
              "The amount of physical memory immediately available for allocation to a process or for system use. It"
                  + " is equal to the sum of memory assigned to the standby (cached), free and zero page lists"
                  + " (AvailableBytes)",
              NodeMemory::availableBytes)
          .gauge(
              "windows_memory_cache_bytes",
              "(CacheBytes)",
              NodeMemory::cacheBytes)
          .gauge(
              "windows_memory_committed_bytes",
              "(CommittedBytes)",
              NodeMemory::committedBytes)
          .gauge(
              "windows_memory_commit_limit",
              "(CommitLimit)",
              NodeMemory::commitLimitBytes)
          .gauge(
              "windows_memory_free_and_zero_page_list_bytes",
              "The amount of physical memory, in bytes, that is assigned to the free and zero page lists. This memory"
                  + " does not contain cached data. It is immediately available for allocation to a process or for"
                  + " system use (FreeAndZeroPageListBytes)",
              NodeMemory::freeBytes)
          .gauge(
              "windows_memory_physical_total_bytes",
              "The amount of actual physical memory, in bytes.",
              NodeMemory::totalBytes)
          // GlobalMemoryStatusEx's ullAvailPhys and ullTotalVirtual, as memory.go:364-384@v0.31.8 serves them.
          .gauge(
              "windows_memory_physical_free_bytes",
              "The amount of physical memory currently available, in bytes. This is the amount of physical memory that"
                  + " can be immediately reused without having to write its contents to disk first. It is the sum of"
                  + " the size of the standby, free, and zero lists.",
              NodeMemory::physicalFreeBytes)
          .gauge(
              "windows_memory_process_memory_limit_bytes",
              "The size of the user-mode portion of the virtual address space of the calling process, in bytes. This"
                  + " value depends on the type of process, the type of processor, and the configuration of the"
                  + " operating system.",
              NodeMemory::processMemoryLimitBytes)
          .counter(
              "windows_memory_page_faults_total",
              "Overall rate at which faulted pages are handled by the processor (Page Faults/sec)",
              NodeMemory::pageFaults)
          .gauge(
              "windows_memory_modified_page_list_bytes",
              "The amount of physical memory, in bytes, that is assigned to the modified page list. This memory"
                  + " contains cached data and code that is not actively in use by processes, the system and the"
                  + " system cache (ModifiedPageListBytes)",
              NodeMemory::modifiedPageListBytes)
          .gauge(
              "windows_memory_standby_cache_core_bytes",
              "The amount of physical memory, in bytes, that is assigned to the core standby cache page lists. This"
                  + " memory contains cached data and code that is not actively in use by processes, the system and"
                  + " the system cache (StandbyCacheCoreBytes)",
              NodeMemory::standbyCacheCoreBytes)
          .gauge(
              "windows_memory_standby_cache_normal_priority_bytes",
              "The amount of physical memory, in bytes, that is assigned to the normal priority standby cache page"
                  + " lists. This memory contains cached data and code that is not actively in use by processes, the"
                  + " system and the system cache (StandbyCacheNormalPriorityBytes)",
              NodeMemory::standbyCacheNormalPriorityBytes)
          .gauge(
              "windows_memory_standby_cache_reserve_bytes",
              "The amount of physical memory, in bytes, that is assigned to the reserve standby cache page lists."
                  + " This memory contains cached data and code that is not actively in use by processes, the system"
                  + " and the system cache (StandbyCacheReserveBytes)",
              NodeMemory::standbyCacheReserveBytes)
          .counter(
              "windows_memory_swap_page_operations_total",
              "Total number of swap page read and writes (PagesPerSec)",
              NodeMemory::swapPageOperations)
          .gauge(
              "windows_os_visible_memory_bytes",
              "Deprecated name (removed in windows_exporter v0.31) of the physical memory; kept for the"
                  + " kubernetes-mixin Windows rules.",
              NodeMemory::totalBytes)
          .gauge(
              "windows_cs_physical_memory_bytes",
              "Deprecated name of the physical memory (windows_exporter cs collector).",
              NodeMemory::totalBytes)
          .gauge(
              "windows_memory_cache_bytes_peak",
              "(CacheBytesPeak)",
              NodeMemory::cacheBytesPeak)
          .counter(
              "windows_memory_cache_faults_total",
              "Number of faults which occur when a page sought in the file system cache is not found "
                  + "there and must be retrieved from elsewhere in memory (soft fault) or from disk (hard "
                  + "fault) (Cache Faults/sec)",
              NodeMemory::cacheFaults)
          .counter(
              "windows_memory_demand_zero_faults_total",
              "The number of zeroed pages required to satisfy faults. Zeroed pages, pages emptied of "
                  + "previously stored data and filled with zeros, are a security feature of Windows that "
                  + "prevent processes from seeing data stored by earlier processes that used the memory space "
                  + "(Demand Zero Faults/sec)",
              NodeMemory::demandZeroFaults)
          .gauge(
              "windows_memory_free_system_page_table_entries",
              "(FreeSystemPageTableEntries)",
              NodeMemory::freeSystemPageTableEntries)
          .counter(
              "windows_memory_swap_page_reads_total",
              "Number of disk page reads (a single read operation reading several pages is still only "
                  + "counted once) (PageReadsPerSec)",
              NodeMemory::swapPageReads)
          .counter(
              "windows_memory_swap_page_writes_total",
              "Number of disk page writes (a single write operation writing several pages is still only "
                  + "counted once) (PageWritesPerSec)",
              NodeMemory::swapPageWrites)
          .counter(
              "windows_memory_swap_pages_read_total",
              "Number of pages read across all page reads (ie counting all pages read even if they are "
                  + "read in a single operation) (PagesInputPerSec)",
              NodeMemory::swapPagesRead)
          .counter(
              "windows_memory_swap_pages_written_total",
              "Number of pages written across all page writes (ie counting all pages written even if they "
                  + "are written in a single operation) (PagesOutputPerSec)",
              NodeMemory::swapPagesWritten)
          .gauge(
              "windows_memory_pool_nonpaged_bytes",
              "Number of bytes in the non-paged pool, an area of the system virtual memory that is used "
                  + "for objects that cannot be written to disk, but must remain in physical memory as long as "
                  + "they are allocated (PoolNonpagedBytes)",
              NodeMemory::poolNonpagedBytes)
          .gauge(
              "windows_memory_pool_paged_bytes",
              "(PoolPagedBytes)",
              NodeMemory::poolPagedBytes)
          .gauge(
              "windows_memory_pool_paged_resident_bytes",
              "The size, in bytes, of the portion of the paged pool that is currently resident and active "
                  + "in physical memory. The paged pool is an area of the system virtual memory that is used "
                  + "for objects that can be written to disk when they are not being used "
                  + "(PoolPagedResidentBytes)",
              NodeMemory::poolPagedResidentBytes)
          // A gauge named _total, as memory.go:216-222,496-500@v0.31.8 serves it (promtool's lint flags the name; the
          // name and type are upstream's, so rules written for windows_exporter read it unchanged).
          .gauge(
              "windows_memory_pool_nonpaged_allocs_total",
              "The number of calls to allocate space in the nonpaged pool. The nonpaged pool is an area of system"
                  + " memory area for objects that cannot be written to disk, and must remain in physical memory as"
                  + " long as they are allocated (PoolNonpagedAllocs)",
              NodeMemory::poolNonpagedAllocs)
          .counter(
              "windows_memory_pool_paged_allocs_total",
              "Number of calls to allocate space in the paged pool, regardless of the amount of space allocated in each"
                  + " call (PoolPagedAllocs)",
              NodeMemory::poolPagedAllocs)
          .gauge(
              "windows_memory_system_cache_resident_bytes",
              "The size, in bytes, of the portion of the system file cache which is currently resident "
                  + "and active in physical memory (SystemCacheResidentBytes)",
              NodeMemory::systemCacheResidentBytes)
          .gauge(
              "windows_memory_system_code_resident_bytes",
              "The size, in bytes, of the pageable operating system code that is currently resident and "
                  + "active in physical memory (SystemCodeResidentBytes)",
              NodeMemory::systemCodeResidentBytes)
          .gauge(
              "windows_memory_system_code_total_bytes",
              "The size, in bytes, of the pageable operating system code currently mapped into the system "
                  + "virtual address space (SystemCodeTotalBytes)",
              NodeMemory::systemCodeTotalBytes)
          .gauge(
              "windows_memory_system_driver_resident_bytes",
              "The size, in bytes, of the pageable physical memory being used by device drivers. It is "
                  + "the working set (physical memory area) of the drivers (SystemDriverResidentBytes)",
              NodeMemory::systemDriverResidentBytes)
          .gauge(
              "windows_memory_system_driver_total_bytes",
              "The size, in bytes, of the pageable virtual memory currently being used by device drivers. "
                  + "Pageable memory can be written to disk when it is not being used (SystemDriverTotalBytes)",
              NodeMemory::systemDriverTotalBytes)
          .counter(
              "windows_memory_transition_faults_total",
              "Number of faults rate at which page faults are resolved by recovering pages that were "
                  + "being used by another process sharing the page, or were on the modified page list or the "
                  + "standby list, or were being written to disk at the time of the page fault "
                  + "(TransitionFaultsPerSec)",
              NodeMemory::transitionFaults)
          .counter(
              "windows_memory_transition_pages_repurposed_total",
              "Transition Pages RePurposed is the rate at which the number of transition cache pages were "
                  + "reused for a different purpose (TransitionPagesRePurposedPerSec)",
              NodeMemory::transitionPagesRepurposed)
          .counter(
              "windows_memory_write_copies_total",
              "The number of page faults caused by attempting to write that were satisfied by copying the "
                  + "page from elsewhere in physical memory (WriteCopiesPerSec)",
              NodeMemory::writeCopies)
          .build();
}
