package io.winstats.cri.testing;

/**
 * One task's statistics as hcsshim hands them to containerd ({@code stats.Statistics.Windows}): the only figures
 * containerd's Windows CRI stats are made of.
 *
 * @param timestampNanos the reading's time, nanoseconds since the epoch
 * @param totalRuntimeNanos {@code Processor.TotalRuntimeNS}: cumulative CPU time of the task
 * @param privateWorkingSetBytes {@code Memory.MemoryUsagePrivateWorkingSetBytes}
 * @param commitBytes {@code Memory.MemoryUsageCommitBytes}
 */
public record HcsReading(long timestampNanos, long totalRuntimeNanos, long privateWorkingSetBytes, long commitBytes) {
  public HcsReading {
    if (timestampNanos <= 0 || totalRuntimeNanos < 0 || privateWorkingSetBytes < 0 || commitBytes < 0) {
      throw new IllegalArgumentException("readings are positive times and non-negative figures");
    }
  }
}
