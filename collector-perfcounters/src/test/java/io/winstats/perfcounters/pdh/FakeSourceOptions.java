package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.WorkingSetDefinition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * {@link PdhSourceOptions} for a source over {@link FakePdhLibrary}: 30 s to open, a failed counter added again at the
 * next sample (no retry wait), every volume NTFS.
 */
final class FakeSourceOptions {
  private FakeSourceOptions() {}

  static PdhSourceOptions of(
      Duration deadline, WorkingSetDefinition workingSet, Path kubeletRoot, LongSupplier nanoTime, Logger log) {
    return new PdhSourceOptions(
        deadline,
        Duration.ofSeconds(30),
        Duration.ZERO,
        Duration.ZERO,
        nanoTime,
        v -> "NTFS",
        workingSet,
        kubeletRoot,
        log);
  }
}
