package io.winstats.cri;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the runtime says it uses on one filesystem (CRI {@code FilesystemUsage}): an entry of {@code ImageFsInfo}
 * (images, or the containers' writable layers) or one container's writable layer, with the size of the filesystem
 * holding the mountpoint where this host can see it.
 *
 * @param timestamp the runtime's time of the reading (containerd refreshes a layer's every {@code
 *     stats_collect_period})
 * @param mountpoint the runtime's identifier of the filesystem ({@code fs_id.mountpoint}), a directory such as the
 *     snapshotter root {@code /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs}
 * @param usedBytes bytes the runtime uses there (images, writable layers, or this container's layer)
 * @param inodesUsed inodes the runtime uses there; {@code null} when the runtime does not say (a layer on Windows)
 * @param capacity size and free space of the filesystem holding {@code mountpoint} (the kubelet fills a container's
 *     {@code rootfs} capacity so); {@code null} when the path does not exist where the daemon runs (another mount
 *     namespace) or cannot be read: never guessed
 */
@RecordBuilder
public record RuntimeFilesystemUsage(
    Instant timestamp,
    String mountpoint,
    @Nullable Long usedBytes,
    @Nullable Long inodesUsed,
    @Nullable FilesystemCapacity capacity) {
  public RuntimeFilesystemUsage {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(mountpoint, "mountpoint");
  }

  /** A builder for the use of {@code mountpoint} read at {@code timestamp}, every figure absent until set. */
  public static RuntimeFilesystemUsageBuilder builder(Instant timestamp, String mountpoint) {
    return RuntimeFilesystemUsageBuilder.builder().timestamp(timestamp).mountpoint(mountpoint);
  }
}
