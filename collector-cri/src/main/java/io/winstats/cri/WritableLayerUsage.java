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

  /**
   * A builder for the WritableLayerUsage of {@code timestamp}, {@code mountpoint}, every other component 0, empty or
   * absent until set by name.
   */
  public static Builder builder(Instant timestamp, String mountpoint) {
    return new Builder(timestamp, mountpoint);
  }

  /** Names each component of a {@link WritableLayerUsage}; not thread-safe. */
  public static final class Builder {
    private final Instant timestamp;
    private final String mountpoint;
    private @Nullable Long usedBytes;
    private @Nullable Long inodesUsed;
    private @Nullable FilesystemCapacity capacity;

    private Builder(Instant timestamp, String mountpoint) {
      this.timestamp = Objects.requireNonNull(timestamp, "timestamp");
      this.mountpoint = Objects.requireNonNull(mountpoint, "mountpoint");
    }

    public Builder usedBytes(@Nullable Long value) {
      this.usedBytes = value;
      return this;
    }

    public Builder inodesUsed(@Nullable Long value) {
      this.inodesUsed = value;
      return this;
    }

    public Builder capacity(@Nullable FilesystemCapacity value) {
      this.capacity = value;
      return this;
    }

    public WritableLayerUsage build() {
      return new WritableLayerUsage(timestamp, mountpoint, usedBytes, inodesUsed, capacity);
    }
  }
}
