package io.winstats.cri;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Bytes and inodes a container's writable layer uses.
 *
 * @param timestamp the runtime's time of the reading (containerd refreshes it every {@code stats_collect_period})
 * @param mountpoint the filesystem holding the layer (the snapshotter root)
 * @param usedBytes bytes the layer uses
 * @param inodesUsed inodes the layer uses; absent on Windows
 * @param capacity size and free space of the filesystem holding {@code mountpoint}, as the kubelet fills a container's
 *     {@code rootfs} capacity; {@code null} when the path is not visible where the daemon runs
 */
public record WritableLayerUsage(
    Instant timestamp,
    String mountpoint,
    @Nullable Long usedBytes,
    @Nullable Long inodesUsed,
    @Nullable FilesystemCapacity capacity) {
  public WritableLayerUsage {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(mountpoint, "mountpoint");
  }
}
