package io.winstats.perfcounters.pdh;

/**
 * The fields of {@code MEMORYSTATUSEX} ({@code GlobalMemoryStatusEx}) the node reads, as windows_exporter's memory
 * collector reads them (memory.go:364-384@v0.31.8): the total as {@code physical_total_bytes}, the available as {@code
 * physical_free_bytes}, the total virtual as {@code process_memory_limit_bytes}.
 *
 * @param totalPhysBytes {@code ullTotalPhys}: physical memory
 * @param availPhysBytes {@code ullAvailPhys}: physical memory available now (standby, free and zero lists)
 * @param totalVirtualBytes {@code ullTotalVirtual}: the user-mode portion of the calling process's virtual address
 *     space
 */
public record GlobalMemoryStatus(long totalPhysBytes, long availPhysBytes, long totalVirtualBytes) {
  public GlobalMemoryStatus {
    if (totalPhysBytes < 0 || availPhysBytes < 0 || totalVirtualBytes < 0) {
      throw new IllegalArgumentException("negative MEMORYSTATUSEX field: " + totalPhysBytes + ", " + availPhysBytes
          + ", " + totalVirtualBytes);
    }
  }
}
