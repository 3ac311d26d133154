package io.winstats.cri;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Counts the inodes of the filesystem holding a path: the one figure of a runtime filesystem's capacity the JDK's
 * {@link java.nio.file.FileStore} lacks. The exporter injects the host's ({@code statvfs(3)} on Linux), which keeps
 * this module free of the node collectors.
 */
@FunctionalInterface
public interface InodeCounter {
  /** No inode counts, as on Windows: NTFS has none to report. */
  InodeCounter NONE = path -> null;

  /**
   * The inode counts of the filesystem holding {@code path}.
   *
   * @return the counts, or {@code null} when the platform has none or {@code path} cannot be read; never throws
   */
  @Nullable Inodes inodes(Path path);

  /** Total and free inodes of a filesystem. */
  record Inodes(long total, long free) {
    public Inodes {
      if (total < 0 || free < 0) {
        throw new IllegalArgumentException("inode counts must not be negative: " + total + ", " + free);
      }
    }
  }
}
