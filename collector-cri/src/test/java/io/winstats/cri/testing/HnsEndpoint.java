package io.winstats.cri.testing;

import java.util.Objects;

/**
 * The counters {@code hcsshim.GetHNSEndpointStats} returns for one endpoint of a pod's network namespace; containerd
 * names the CRI interface by the endpoint id ({@code windowsNetworkUsage} in {@code sandbox_stats_windows.go}).
 */
public record HnsEndpoint(String id, long rxBytes, long txBytes, long rxPacketsDropped, long txPacketsDropped) {
  public HnsEndpoint {
    Objects.requireNonNull(id, "id");
  }
}
