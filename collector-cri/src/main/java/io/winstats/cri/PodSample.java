package io.winstats.cri;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Instant;
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
@RecordBuilder
public record PodSample(
    PodRef ref,
    String sandboxId,
    Instant createdAt,
    @RecordBuilder.Initializer(source = Map.class, value = "of") Map<String, String> labels,
    @Nullable Boolean hostProcess,
    @Nullable CpuUsage cpu,
    @Nullable MemoryUsage memory,
    @Nullable NetworkUsage network,
    @Nullable Long processCount,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<ContainerSample> containers) {
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
  public static PodSampleBuilder builder(PodRef ref, String sandboxId) {
    return PodSampleBuilder.builder().ref(ref).sandboxId(sandboxId);
  }

  /** A builder holding this pod's components, to change some. */
  public PodSampleBuilder toBuilder() {
    return PodSampleBuilder.builder(this);
  }
}
