package io.winstats.cri;

import java.time.Instant;
import java.util.Objects;

/**
 * Cumulative storage I/O of a Windows container, as HCS counts it for the container's job object or silo (hcsshim's
 * {@code WindowsContainerStorageStatistics}, filled from HCS's {@code StorageStats} in {@code
 * hcsPropertiesToWindowsStats}, cmd/containerd-shim-runhcs-v1/task_hcs.go:817-824@v0.13.0, and for HostProcess
 * containers from the job object's I/O counters, internal/jobcontainers/jobcontainer.go:514-567@v0.13.0).
 *
 * @param timestamp the reading's time
 * @param readCount read operations as HCS counts them ({@code read_count_normalized})
 * @param readBytes bytes read
 * @param writeCount write operations likewise ({@code write_count_normalized})
 * @param writeBytes bytes written
 */
public record StorageIo(Instant timestamp, long readCount, long readBytes, long writeCount, long writeBytes) {
  public StorageIo {
    Objects.requireNonNull(timestamp, "timestamp");
    if (readCount < 0 || readBytes < 0 || writeCount < 0 || writeBytes < 0) {
      throw new IllegalArgumentException("storage counters must not be negative");
    }
  }
}
