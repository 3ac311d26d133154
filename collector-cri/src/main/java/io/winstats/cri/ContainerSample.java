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
 * @param labels the container's CRI labels
 */
public record ContainerSample(
    String id,
    String name,
    int attempt,
    String image,
    Instant createdAt,
    Map<String, String> labels,
    @Nullable CpuUsage cpu,
    @Nullable MemoryUsage memory,
    @Nullable WritableLayerUsage writableLayer) {
  public ContainerSample {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(createdAt, "createdAt");
    labels = java.util.Collections.unmodifiableMap(new TreeMap<>(labels));
  }
}
