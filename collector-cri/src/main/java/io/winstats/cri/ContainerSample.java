package io.winstats.cri;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One container's stats and identity.
 *
 * @param id the runtime's container id
 * @param name the container name in the pod spec
 * @param attempt the restart attempt (0 for the first run)
 * @param image the image reference the container was created from
 * @param createdAt when the runtime created the container
 * @param state the container's CRI state as {@code ListContainers} reported it in the same round
 * @param labels the container's CRI labels
 * @param writableLayer the writable (root filesystem) layer's use, where the runtime reports it
 * @param logs the container's log files, where the log directory is readable from the daemon (Linux nodes with the
 *     daemon on the host or {@code /var/log/pods} mounted); {@code null} otherwise
 * @param resources the Linux resources the runtime applied, where it reports them ({@code ContainerStatus.resources},
 *     which containerd fills from 1.7); read once per container, so an in-place resize shows on the next container
 * @param storage the container's storage I/O, where the source counts it (Windows task statistics); CRI does not
 */
@RecordBuilder
public record ContainerSample(
    String id,
    String name,
    int attempt,
    String image,
    Instant createdAt,
    State state,
    @RecordBuilder.Initializer(source = Map.class, value = "of") Map<String, String> labels,
    @Nullable CpuUsage cpu,
    @Nullable MemoryUsage memory,
    @Nullable RuntimeFilesystemUsage writableLayer,
    @Nullable ContainerLogUsage logs,
    @Nullable ResourceSpec resources,
    @Nullable StorageIo storage) {
  public ContainerSample {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(state, "state");
    labels = java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
  }

  /**
   * A builder for the container {@code id} named {@code name}: the first attempt, no labels and no figures until set;
   * the image, creation time and state must be set.
   */
  public static ContainerSampleBuilder builder(String id, String name) {
    return ContainerSampleBuilder.builder().id(id).name(name);
  }

  /** A builder holding this container's components, to change some. */
  public ContainerSampleBuilder toBuilder() {
    return ContainerSampleBuilder.builder(this);
  }

  /** The CRI {@code ContainerState} (runtime.v1 api.proto), without the proto type. */
  public enum State {
    CREATED,
    RUNNING,
    EXITED,
    UNKNOWN
  }
}
