package io.winstats.cri;

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
public record ContainerSample(
    String id,
    String name,
    int attempt,
    String image,
    Instant createdAt,
    State state,
    Map<String, String> labels,
    @Nullable CpuUsage cpu,
    @Nullable MemoryUsage memory,
    @Nullable WritableLayerUsage writableLayer,
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
  public static Builder builder(String id, String name) {
    return new Builder(id, name);
  }

  /** A builder holding this container's components, to change some. */
  public Builder toBuilder() {
    return new Builder(id, name)
        .attempt(attempt)
        .image(image)
        .createdAt(createdAt)
        .state(state)
        .labels(labels)
        .cpu(cpu)
        .memory(memory)
        .writableLayer(writableLayer)
        .logs(logs)
        .resources(resources)
        .storage(storage);
  }

  /** Names each component of a {@link ContainerSample}; not thread-safe. */
  public static final class Builder {
    private final String id;
    private final String name;
    private int attempt;
    private @Nullable String image;
    private @Nullable Instant createdAt;
    private @Nullable State state;
    private Map<String, String> labels = Map.of();
    private @Nullable CpuUsage cpu;
    private @Nullable MemoryUsage memory;
    private @Nullable WritableLayerUsage writableLayer;
    private @Nullable ContainerLogUsage logs;
    private @Nullable ResourceSpec resources;
    private @Nullable StorageIo storage;

    private Builder(String id, String name) {
      this.id = id;
      this.name = name;
    }

    public Builder attempt(int value) {
      this.attempt = value;
      return this;
    }

    public Builder image(String value) {
      this.image = value;
      return this;
    }

    public Builder createdAt(Instant value) {
      this.createdAt = value;
      return this;
    }

    public Builder state(State value) {
      this.state = value;
      return this;
    }

    public Builder labels(Map<String, String> value) {
      this.labels = value;
      return this;
    }

    public Builder cpu(@Nullable CpuUsage value) {
      this.cpu = value;
      return this;
    }

    public Builder memory(@Nullable MemoryUsage value) {
      this.memory = value;
      return this;
    }

    public Builder writableLayer(@Nullable WritableLayerUsage value) {
      this.writableLayer = value;
      return this;
    }

    public Builder logs(@Nullable ContainerLogUsage value) {
      this.logs = value;
      return this;
    }

    public Builder resources(@Nullable ResourceSpec value) {
      this.resources = value;
      return this;
    }

    public Builder storage(@Nullable StorageIo value) {
      this.storage = value;
      return this;
    }

    /** The container; a {@link NullPointerException} names the image, creation time or state if one is unset. */
    public ContainerSample build() {
      return new ContainerSample(
          id,
          name,
          attempt,
          Objects.requireNonNull(image, "image"),
          Objects.requireNonNull(createdAt, "createdAt"),
          Objects.requireNonNull(state, "state"),
          labels,
          cpu,
          memory,
          writableLayer,
          logs,
          resources,
          storage);
    }
  }

  /** The CRI {@code ContainerState} (runtime.v1 api.proto), without the proto type. */
  public enum State {
    CREATED,
    RUNNING,
    EXITED,
    UNKNOWN
  }
}
