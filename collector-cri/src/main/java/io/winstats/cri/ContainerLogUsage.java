package io.winstats.cri;

import java.time.Instant;
import java.util.Objects;

/**
 * Disk use of one container's log files, as the kubelet counts {@code ContainerStats.logs}: every regular file in the
 * container's log directory ({@code /var/log/pods/<namespace>_<pod>_<uid>/<container>/}: the current and earlier
 * attempts' logs and rotated ones).
 *
 * @param timestamp when the directory was read (our clock)
 * @param usedBytes the files' summed size in bytes. The kubelet runs {@code du} and counts allocated blocks; this is
 *     the apparent size ({@code st_size}), which the JDK reports portably: for append-only log files the two differ
 *     by less than one block per file
 * @param inodesUsed the number of files, one inode each (the kubelet's {@code du} inode count)
 */
public record ContainerLogUsage(Instant timestamp, long usedBytes, long inodesUsed) {
  public ContainerLogUsage {
    Objects.requireNonNull(timestamp, "timestamp");
    if (usedBytes < 0 || inodesUsed < 0) {
      throw new IllegalArgumentException("log usage must not be negative: " + usedBytes + ", " + inodesUsed);
    }
  }
}
