package io.winstats.cri;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One pod's stats and identity, with its containers.
 *
 * @param sandboxId the runtime's pod sandbox id
 * @param createdAt when the runtime created the sandbox
 * @param labels the sandbox's CRI labels
 * @param hostProcess whether the pod is a Windows HostProcess one (so are all its containers), from the runtime's
 *     verbose {@code PodSandboxStatus}; {@code null} where the runtime did not say
 * @param processCount processes in the pod, where the runtime counts them
 * @param containers the pod's containers, sorted by name then attempt
 */
public record PodSample(
    PodRef ref,
    String sandboxId,
    Instant createdAt,
    Map<String, String> labels,
    @Nullable Boolean hostProcess,
    @Nullable CpuUsage cpu,
    @Nullable MemoryUsage memory,
    @Nullable NetworkUsage network,
    @Nullable Long processCount,
    List<ContainerSample> containers) {
  public PodSample {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(sandboxId, "sandboxId");
    Objects.requireNonNull(createdAt, "createdAt");
    labels = java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
    containers =
        containers.stream()
            .sorted(Comparator.comparing(ContainerSample::name).thenComparingInt(ContainerSample::attempt))
            .toList();
  }

  /** A builder for the pod {@code ref} of sandbox {@code sandboxId}: no labels, figures or containers until set. */
  public static Builder builder(PodRef ref, String sandboxId) {
    return new Builder(ref, sandboxId);
  }

  /** A builder holding this pod's components, to change some. */
  public Builder toBuilder() {
    return new Builder(ref, sandboxId)
        .createdAt(createdAt)
        .labels(labels)
        .hostProcess(hostProcess)
        .cpu(cpu)
        .memory(memory)
        .network(network)
        .processCount(processCount)
        .containers(containers);
  }

  /** Names each component of a {@link PodSample}; not thread-safe. The creation time must be set. */
  public static final class Builder {
    private final PodRef ref;
    private final String sandboxId;
    private @Nullable Instant createdAt;
    private Map<String, String> labels = Map.of();
    private @Nullable Boolean hostProcess;
    private @Nullable CpuUsage cpu;
    private @Nullable MemoryUsage memory;
    private @Nullable NetworkUsage network;
    private @Nullable Long processCount;
    private final List<ContainerSample> containers = new ArrayList<>();

    private Builder(PodRef ref, String sandboxId) {
      this.ref = ref;
      this.sandboxId = sandboxId;
    }

    public Builder createdAt(Instant value) {
      this.createdAt = value;
      return this;
    }

    public Builder labels(Map<String, String> value) {
      this.labels = value;
      return this;
    }

    public Builder hostProcess(@Nullable Boolean value) {
      this.hostProcess = value;
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

    public Builder network(@Nullable NetworkUsage value) {
      this.network = value;
      return this;
    }

    public Builder processCount(@Nullable Long value) {
      this.processCount = value;
      return this;
    }

    /** Replaces the containers with {@code value}. */
    public Builder containers(List<ContainerSample> value) {
      containers.clear();
      containers.addAll(value);
      return this;
    }

    /** Adds one container. */
    public Builder container(ContainerSample value) {
      containers.add(value);
      return this;
    }

    /** The pod; a {@link NullPointerException} says so if the creation time is unset. */
    public PodSample build() {
      return new PodSample(
          ref,
          sandboxId,
          Objects.requireNonNull(createdAt, "createdAt"),
          labels,
          hostProcess,
          cpu,
          memory,
          network,
          processCount,
          containers);
    }
  }
}
