package io.winstats.cri;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Bytes and inodes a container's writable layer uses.
 *
 * @param mountpoint the filesystem holding the layer (the snapshotter root)
 * @param inodesUsed absent on Windows
 */
public record WritableLayerUsage(
    Instant timestamp, String mountpoint, @Nullable Long usedBytes, @Nullable Long inodesUsed) {
  public WritableLayerUsage {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(mountpoint, "mountpoint");
  }
}
