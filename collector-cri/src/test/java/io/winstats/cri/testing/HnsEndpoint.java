package io.winstats.cri.testing;

import java.util.Objects;

/**
 * The counters {@code hcsshim.GetHNSEndpointStats} returns for one endpoint of a pod's network namespace; containerd
 * names the CRI interface by the endpoint id ({@code windowsNetworkUsage} in {@code sandbox_stats_windows.go}) and
 * passes on bytes and drops only; HNS itself also counts packets ({@code EndpointStats}, hcsshim
 * internal/hns/hnsendpoint.go:88-97@v0.13.0).
 */
public record HnsEndpoint(
    String id,
    long rxBytes,
    long txBytes,
    long rxPacketsDropped,
    long txPacketsDropped,
    long rxPackets,
    long txPackets) {
  public HnsEndpoint {
    Objects.requireNonNull(id, "id");
  }

  /** An endpoint with the fixture's packet counts: one packet per 100 bytes. */
  public HnsEndpoint(String id, long rxBytes, long txBytes, long rxPacketsDropped, long txPacketsDropped) {
    this(id, rxBytes, txBytes, rxPacketsDropped, txPacketsDropped, rxBytes / 100, txBytes / 100);
  }
}
