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

  /**
   * A builder for the RuntimeFilesystem of {@code timestamp}, {@code mountpoint}, every other component 0, empty or
   * absent until set by name.
   */
  public static Builder builder(Instant timestamp, String mountpoint) {
    return new Builder(timestamp, mountpoint);
  }

  /** Names each component of a {@link RuntimeFilesystem}; not thread-safe. */
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

    public RuntimeFilesystem build() {
      return new RuntimeFilesystem(timestamp, mountpoint, usedBytes, inodesUsed, capacity);
    }
  }
}
