package io.winstats.perfcounters.procfs.libc;

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
 * One libc {@code statvfs(3)} call through JNA. Linux on a 64-bit CPU only, where {@code struct statvfs} is eleven
 * 8-byte fields and six ints (112 bytes) on every architecture: {@code f_frsize} at offset 8, {@code f_blocks} 16,
 * {@code f_bfree} 24, {@code f_bavail} 32, {@code f_files} 40, {@code f_ffree} 48. Elsewhere, or when the call fails,
 * {@code null}.
 */
public final class LibcStatvfs {
  private static final Logger LOG = LoggerFactory.getLogger(LibcStatvfs.class);

  private static final int STRUCT_SIZE = 112;
  private static final int FRAGMENT_SIZE_OFFSET = 8;
  private static final int BLOCKS_OFFSET = 16;
  private static final int FREE_BLOCKS_OFFSET = 24;
  private static final int AVAILABLE_BLOCKS_OFFSET = 32;
  private static final int FILES_OFFSET = 40;
  private static final int FREE_FILES_OFFSET = 48;

  /**
   * The fields of {@code struct statvfs} the callers use, as the call wrote them (C's unsigned values in Java longs).
   */
  public record Fields(
      long fragmentSize, long blocks, long freeBlocks, long availableBlocks, long files, long freeFiles) {}

  private interface LibC extends Library {
    int statvfs(String path, Memory buffer) throws LastErrorException;
  }

  private static final @Nullable LibC LIBC = load();

  private LibcStatvfs() {}

  private static @Nullable LibC load() {
    if (!Platform.isLinux() || Native.LONG_SIZE != 8) {
      return null;
    }
    try {
      return Native.load(Platform.C_LIBRARY_NAME, LibC.class);
    } catch (UnsatisfiedLinkError e) {
      LOG.warn(
          "event=statvfs_unavailable reason=\"{}\" impact=\"filesystems will have no inode counts\"", e.toString());
      return null;
    }
  }

  /** Whether this platform has the call (64-bit Linux with libc loaded). */
  public static boolean available() {
    return LIBC != null;
  }

  /**
   * {@code statvfs(path)}; {@code null} where the call is unavailable or fails (the path is gone or not accessible).
   */
  public static @Nullable Fields statvfs(Path path) {
    LibC libc = LIBC;
    if (libc == null) {
      return null;
    }
    try (Memory buffer = new Memory(STRUCT_SIZE)) {
      libc.statvfs(path.toString(), buffer);
      return new Fields(
          buffer.getLong(FRAGMENT_SIZE_OFFSET),
          buffer.getLong(BLOCKS_OFFSET),
          buffer.getLong(FREE_BLOCKS_OFFSET),
          buffer.getLong(AVAILABLE_BLOCKS_OFFSET),
          buffer.getLong(FILES_OFFSET),
          buffer.getLong(FREE_FILES_OFFSET));
    } catch (LastErrorException e) {
      LOG.debug("event=statvfs_failed path={} errno={}", path, e.getErrorCode());
      return null;
    }
  }
}
