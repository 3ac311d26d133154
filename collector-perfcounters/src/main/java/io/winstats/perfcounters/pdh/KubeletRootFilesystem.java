package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.FilesystemUsage;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * Capacity and free space of the volume holding the kubelet's root directory, read live on every sample.
 *
 * <p>The kubelet reads its node and log filesystem figures with {@code GetDiskFreeSpaceExW} on its root directory
 * (kubernetes {@code pkg/volume/util/fs/fs_windows.go}): available = free bytes available to the caller, capacity =
 * total bytes, used = capacity − available. {@link FileStore} makes the same call on Windows ({@code
 * getUsableSpace} and {@code getTotalSpace}). {@code \LogicalDisk(*)\% Free Space} would do as well but its values lag
 * 10–15 minutes (Microsoft Learn, LogicalDisk {@code % Free Space} / {@code Free Megabytes}), so it only feeds {@code
 * windows_logical_disk_*}.
 */
final class KubeletRootFilesystem {
  private final Path rootDirectory;
  private final Logger log;
  private @Nullable String lastFailure;

  KubeletRootFilesystem(Path rootDirectory, Logger log) {
    this.rootDirectory = Objects.requireNonNull(rootDirectory, "rootDirectory");
    this.log = log;
  }

  /** The live figures, or {@code null} (one WARN line per change of failure) when the directory cannot be read. */
  @Nullable FilesystemUsage read() {
    try {
      FileStore store = Files.getFileStore(rootDirectory);
      long capacity = store.getTotalSpace();
      long available = Math.min(store.getUsableSpace(), capacity);
      if (lastFailure != null) {
        log.info("event=kubelet_root_fs_recovered path={}", rootDirectory);
        lastFailure = null;
      }
      String root = rootDirectory.getRoot() == null ? rootDirectory.toString() : rootDirectory.getRoot().toString();
      String device = root.endsWith("\\") ? root.substring(0, root.length() - 1) : root;
      return FilesystemUsage.builder(device, root, store.type())
          .capacityBytes(capacity)
          .availableBytes(available)
          .usedBytes(capacity - available)
          .build();
    } catch (IOException | RuntimeException e) {
      String failure = e.getClass().getSimpleName() + ": " + e.getMessage();
      if (!failure.equals(lastFailure)) {
        log.warn("event=kubelet_root_fs_unreadable path={} error=\"{}\"", rootDirectory, failure);
        lastFailure = failure;
      }
      return null;
    }
  }
}
