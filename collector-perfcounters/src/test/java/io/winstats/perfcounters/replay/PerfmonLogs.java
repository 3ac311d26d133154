package io.winstats.perfcounters.replay;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds the real Windows counter logs of {@code shared/data/perfmon}, which live beside the repository and are never
 * copied into it: walks up from the working directory to the first ancestor with a {@code shared/data/perfmon}
 * folder.
 */
final class PerfmonLogs {
  static final String ZH_PROCESSOR = "desktop-5gtcqem-win-zh-processor-system-process.csv";
  static final String ZH_NETWORK = "desktop-5gtcqem-win-zh-network-tcpv4.csv";
  static final String JA_TIERRA = "tierra-win10-ja-process-memory-network-gpu.first200.csv";

  private PerfmonLogs() {}

  static @Nullable Path directory() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("shared").resolve("data").resolve("perfmon");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  /** The log, or the test is skipped with the reason when the shared folder or the file is absent. */
  static Path require(String name) {
    Path dir = directory();
    Assumptions.assumeTrue(
        dir != null,
        () -> "skipped: no shared/data/perfmon above " + Path.of("").toAbsolutePath()
            + " (the real Windows counter logs are kept outside the repository)");
    Path file = dir.resolve(name);
    Assumptions.assumeTrue(Files.isRegularFile(file), () -> "skipped: " + file + " is absent");
    return file;
  }
}
