package io.winstats.cri.hns;

import java.util.Objects;

/**
 * An HNS endpoint's counters ({@code GET /endpointstats/<id>}), under the JSON names hcsshim's {@code EndpointStats}
 * gives them (internal/hns/hnsendpoint.go:88-97@v0.13.0; the same in windows_exporter's
 * internal/headers/hcn/types.go:35-44@v0.31.8): {@code BytesReceived}, {@code BytesSent}, {@code
 * DroppedPacketsIncoming}, {@code DroppedPacketsOutgoing}, {@code EndpointId}, {@code InstanceId}, {@code
 * PacketsReceived}, {@code PacketsSent}.
 */
public record HnsEndpointStatistics(
    String endpointId,
    long bytesReceived,
    long bytesSent,
    long packetsReceived,
    long packetsSent,
    long droppedPacketsIncoming,
    long droppedPacketsOutgoing) {
  public HnsEndpointStatistics {
    Objects.requireNonNull(endpointId, "endpointId");
    if (bytesReceived < 0 || bytesSent < 0 || packetsReceived < 0 || packetsSent < 0 || droppedPacketsIncoming < 0
        || droppedPacketsOutgoing < 0) {
      throw new IllegalArgumentException("endpoint counters must not be negative");
    }
  }
}
