package io.winstats.cri.rounds;

import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.hns.HnsEndpoint;
import io.winstats.cri.hns.HnsEndpointStatistics;
import io.winstats.cri.hns.HnsException;
import io.winstats.cri.hns.HnsPort;
import io.winstats.cri.hns.HnsReplies;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The pods' network counters from HNS, for {@link TasksStatsRound}: one {@code GET /endpoints/} per round, then {@code
 * GET /endpointstats/<id>} for each endpoint that containers share, as windows_exporter's {@code collectNetworkMetrics}
 * does (internal/collector/container/container.go:523-545@v0.31.8). Each interface is named by its endpoint id, as
 * containerd names the CRI interface ({@code windowsNetworkUsage}, sandbox_stats_windows.go:319-351@v2.3.4: {@code Name:
 * endpointStats.EndpointID}); unlike CRI it carries packet counts. An endpoint whose statistics fail (gone between the
 * two calls) is left out of this round.
 */
final class PodNetworks {
  private final HnsPort hns;

  PodNetworks(HnsPort hns) {
    this.hns = Objects.requireNonNull(hns, "hns");
  }

  /**
   * Every shared endpoint's interface counters, by the id of each container (and pause container, the sandbox)
   * sharing it, in HNS's order.
   *
   * @throws HnsException when the endpoint list cannot be read
   */
  Map<String, List<InterfaceUsage>> read() {
    List<HnsEndpoint> endpoints = HnsReplies.endpoints(hns.call("GET", "/endpoints/", ""));
    Map<String, List<InterfaceUsage>> byContainer = new HashMap<>();
    for (HnsEndpoint e : endpoints) {
      if (e.sharedContainers().isEmpty()) {
        continue;
      }
      HnsEndpointStatistics s;
      try {
        s = HnsReplies.endpointStatistics(hns.call("GET", "/endpointstats/" + e.id(), ""));
      } catch (HnsException gone) {
        continue;
      }
      InterfaceUsage nic =
          new InterfaceUsage(
              s.endpointId(),
              s.bytesReceived(),
              null,
              s.bytesSent(),
              null,
              s.droppedPacketsIncoming(),
              s.droppedPacketsOutgoing(),
              s.packetsReceived(),
              s.packetsSent());
      for (String container : e.sharedContainers()) {
        byContainer.computeIfAbsent(container, k -> new ArrayList<>()).add(nic);
      }
    }
    return byContainer;
  }
}
