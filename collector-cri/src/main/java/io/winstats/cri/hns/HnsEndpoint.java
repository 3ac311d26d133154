package io.winstats.cri.hns;

import java.util.List;
import java.util.Objects;

/**
 * One entry of HNS's endpoint list ({@code GET /endpoints/}): its id and the containers that share it. windows_exporter
 * reads the same two fields ({@code EndpointProperties}, internal/headers/hcn/types.go:29-33@v0.31.8) and maps each
 * endpoint to the containers in {@code SharedContainers} ({@code collectNetworkMetrics},
 * internal/collector/container/container.go:523-545@v0.31.8); a process-isolated pod's endpoint lists its sandbox's
 * pause container and its containers.
 */
public record HnsEndpoint(String id, List<String> sharedContainers) {
  public HnsEndpoint {
    Objects.requireNonNull(id, "id");
    sharedContainers = List.copyOf(sharedContainers);
  }
}
