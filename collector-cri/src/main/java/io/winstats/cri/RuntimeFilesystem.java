package io.winstats.cri;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One filesystem of CRI {@code ImageFsInfo}: what the runtime says it uses there, and the size of the filesystem
 * holding the mountpoint where this host can see it.
 *
 * @param timestamp the runtime's time of the reading
 * @param mountpoint the runtime's identifier of the filesystem ({@code fs_id.mountpoint}), a directory such as the
 *     snapshotter root {@code /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs}
 * @param usedBytes bytes the runtime uses there (images, or container writable layers), as the runtime reports them
 * @param inodesUsed inodes the runtime uses there; {@code null} when the runtime does not say
 * @param capacity size and free space of the filesystem holding {@code mountpoint}; {@code null} when the path does
 *     not exist where the daemon runs (another mount namespace) or cannot be read: never guessed
 */
public record RuntimeFilesystem(
    Instant timestamp,
    String mountpoint,
    @Nullable Long usedBytes,
    @Nullable Long inodesUsed,
    @Nullable FilesystemCapacity capacity) {
  public RuntimeFilesystem {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(mountpoint, "mountpoint");
  }
}
