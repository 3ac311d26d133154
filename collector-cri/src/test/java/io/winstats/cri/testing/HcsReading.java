package io.winstats.cri.testing;

/**
 * One task's statistics as hcsshim hands them to containerd ({@code stats.Statistics.Windows}, filled by {@code
 * hcsPropertiesToWindowsStats}, cmd/containerd-shim-runhcs-v1/task_hcs.go:793-823@v0.13.0, from HCS's statistics).
 * CRI copies only the total CPU, the private working set and the commit; containerd's {@code Tasks.Metrics} passes all
 * of them on.
 *
 * @param timestampNanos the reading's time, nanoseconds since the epoch
 * @param totalRuntimeNanos {@code Processor.TotalRuntimeNS}: cumulative CPU time of the task
 * @param privateWorkingSetBytes {@code Memory.MemoryUsagePrivateWorkingSetBytes}
 * @param commitBytes {@code Memory.MemoryUsageCommitBytes}
 * @param userNanos {@code Processor.RuntimeUserNS}
 * @param kernelNanos {@code Processor.RuntimeKernelNS}
 * @param commitPeakBytes {@code Memory.MemoryUsageCommitPeakBytes}
 * @param readCount {@code Storage.ReadCountNormalized}
 * @param readBytes {@code Storage.ReadSizeBytes}
 * @param writeCount {@code Storage.WriteCountNormalized}
 * @param writeBytes {@code Storage.WriteSizeBytes}
 */
public record HcsReading(
    long timestampNanos,
    long totalRuntimeNanos,
    long privateWorkingSetBytes,
    long commitBytes,
    long userNanos,
    long kernelNanos,
    long commitPeakBytes,
    long readCount,
    long readBytes,
    long writeCount,
    long writeBytes) {
  public HcsReading {
    if (timestampNanos <= 0 || totalRuntimeNanos < 0 || privateWorkingSetBytes < 0 || commitBytes < 0) {
      throw new IllegalArgumentException("readings are positive times and non-negative figures");
    }
    if (userNanos < 0 || kernelNanos < 0 || commitPeakBytes < commitBytes || readCount < 0 || readBytes < 0
        || writeCount < 0 || writeBytes < 0) {
      throw new IllegalArgumentException("non-negative figures, and a peak no lower than the commit");
    }
  }

  /**
   * A reading with the figures CRI carries; the test fixture's split of the rest: a quarter of the CPU in kernel mode,
   * the commit as its own peak, and per CPU second one read and one write of 64 KiB each.
   */
  public HcsReading(long timestampNanos, long totalRuntimeNanos, long privateWorkingSetBytes, long commitBytes) {
    this(
        timestampNanos,
        totalRuntimeNanos,
        privateWorkingSetBytes,
        commitBytes,
        totalRuntimeNanos - totalRuntimeNanos / 4,
        totalRuntimeNanos / 4,
        commitBytes,
        totalRuntimeNanos / 1_000_000_000L,
        totalRuntimeNanos / 1_000_000_000L * 65_536,
        totalRuntimeNanos / 1_000_000_000L,
        totalRuntimeNanos / 1_000_000_000L * 65_536);
  }
}
