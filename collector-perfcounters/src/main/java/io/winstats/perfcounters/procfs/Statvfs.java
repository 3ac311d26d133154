package io.winstats.perfcounters.procfs;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Inode counts of a filesystem through libc's {@code statvfs(3)}: the JDK's {@link java.nio.file.FileStore} reports
 * only bytes. Linux on a 64-bit CPU only, where {@code struct statvfs} is eleven 8-byte fields and six ints (112 bytes)
 * on every architecture: {@code f_files} at offset 40, {@code f_ffree} at 48. Elsewhere, or when the call fails, there
 * are no counts ({@code null}), as on NTFS.
 */
public final class Statvfs {
  private static final Logger LOG = LoggerFactory.getLogger(Statvfs.class);

  static final int STRUCT_SIZE = 112;
  static final int FILES_OFFSET = 40;
  static final int FREE_FILES_OFFSET = 48;

  /** Total and free inodes ({@code f_files}, {@code f_ffree}), as node_exporter's files and files_free. */
  public record Inodes(long total, long free) {}

  private interface LibC extends Library {
    int statvfs(String path, Memory buffer) throws LastErrorException;
  }

  private static final @Nullable LibC LIBC = load();

  private Statvfs() {}

  private static @Nullable LibC load() {
    if (!Platform.isLinux() || Native.LONG_SIZE != 8) {
      return null;
    }
    try {
      return Native.load(Platform.C_LIBRARY_NAME, LibC.class);
    } catch (UnsatisfiedLinkError e) {
      LOG.warn("event=statvfs_unavailable reason={}: filesystems will have no inode counts", e.toString());
      return null;
    }
  }

  /** The inode counts of the filesystem holding {@code path}, or {@code null} where they cannot be read. */
  public static @Nullable Inodes inodes(Path path) {
    if (LIBC == null) {
      return null;
    }
    try (Memory buffer = new Memory(STRUCT_SIZE)) {
      LIBC.statvfs(path.toString(), buffer);
      return fromStruct(buffer.getLong(FILES_OFFSET), buffer.getLong(FREE_FILES_OFFSET));
    } catch (LastErrorException e) {
      LOG.debug("event=statvfs_failed path={} errno={}", path, e.getErrorCode());
      return null;
    }
  }

  /** The counts as statvfs gave them; values past {@link Long#MAX_VALUE} (unsigned in C) are no counts. */
  static @Nullable Inodes fromStruct(long files, long freeFiles) {
    if (files < 0 || freeFiles < 0 || freeFiles > files) {
      return null;
    }
    return new Inodes(files, freeFiles);
  }
}
