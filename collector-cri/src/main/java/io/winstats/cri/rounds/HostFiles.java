package io.winstats.cri.rounds;

import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.InodeCounter;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.jspecify.annotations.Nullable;

/**
 * The narrow port to the host's files that the runtime's answers point at: the filesystem under a runtime mountpoint
 * and a container's log directory. Both answer {@code null} when the path does not exist here or cannot be read — the
 * daemon may run in another mount namespace than the runtime — and never throw.
 */
interface HostFiles {
  /** Size and free space of the filesystem holding {@code path}, or {@code null} when {@code path} is not visible. */
  @Nullable FilesystemCapacity capacity(String path);

  /**
   * Summed size and count of the regular files directly in {@code directory} (subdirectories are not entered, as the
   * kubelet's {@code fileMetricsByDir} skips them), or {@code null} when the directory is not visible.
   */
  @Nullable Usage regularFiles(String directory);

  /** Bytes and files of a directory's regular files. */
  record Usage(long bytes, long files) {}

  /** The local files, through {@link FileStore} and {@link Files}, with inodes from {@code inodeCounter}. */
  static HostFiles local(InodeCounter inodeCounter) {
    return new HostFiles() {
        @Override
        public @Nullable FilesystemCapacity capacity(String path) {
          try {
            Path at = Path.of(path);
            FileStore store = Files.getFileStore(at);
            // The JDK's FileStore has no inode counts.
            InodeCounter.Inodes inodes = inodeCounter.inodes(at);
            return new FilesystemCapacity(
                store.getTotalSpace(),
                store.getUsableSpace(),
                inodes == null ? null : inodes.total(),
                inodes == null ? null : inodes.free());
          } catch (IOException | InvalidPathException | SecurityException e) {
            return null;
          }
        }

        @Override
        public @Nullable Usage regularFiles(String directory) {
          long bytes = 0;
          long files = 0;
          try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of(directory))) {
            for (Path entry : entries) {
              BasicFileAttributes a;
              try {
                a = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
              } catch (IOException e) {
                continue; // rotated away between the listing and the stat
              }
              if (a.isRegularFile()) {
                bytes += a.size();
                files++;
              }
            }
            return new Usage(bytes, files);
          } catch (IOException | InvalidPathException | SecurityException e) {
            return null;
          }
        }
      };
  }
}
