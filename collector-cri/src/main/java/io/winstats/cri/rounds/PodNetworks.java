package io.winstats.cri.rounds;

import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.hns.HnsEndpoint;
import io.winstats.cri.hns.HnsEndpointStatistics;
import io.winstats.cri.hns.HnsException;
import io.winstats.cri.hns.HnsPort;
import io.winstats.cri.hns.HnsReplies;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The pods' network counters from HNS, for {@link TasksStatsRound}, found as containerd's Windows CRI code finds them:
 * through the pod's network namespace, with the endpoints' {@code SharedContainers} as the fallback.
 *
 * <p><b>By namespace.</b> containerd lists a pod's endpoints with {@code
 * hcn.GetNamespaceEndpointIds(sandbox.NetNSPath)} and reads each one's {@code GetHNSEndpointStats} ({@code
 * windowsNetworkUsage}, sandbox_stats_windows.go:319-351@v2.3.4, the same at v1.7.20). The daemon reads the namespace
 * id from the verbose {@code PodSandboxStatus} it already asks once per sandbox ({@link
 * HostProcessLookup#netNamespaceFromSandboxInfo}) and lists its endpoints with HNS v1, {@code GET /namespaces/<id>}
 * through {@code vmcompute.dll}'s {@code HNSCall}, the daemon's one HNS entry point (HCN v2, {@code
 * computenetwork.dll}, would be a second native binding for the same objects). HNS v1 sees the namespaces containerd's
 * CNI path creates with HCN v2 ({@code netns.NewNetNS}, pkg/netns/netns_windows.go:33-40@v1.7.20): v1 and v2 are two
 * schemas over the one HNS service's objects, and hcsshim's own shim lists the endpoints of exactly that namespace with
 * the same v1 call before it hot-adds them to a Hyper-V pod's utility VM ({@code SetupNetworkNamespace} calling {@code
 * hns.GetNamespaceEndpoints}, internal/uvm/network.go:42-99@v0.11.7, the shim of containerd 1.7.20; {@code GET
 * /namespaces/<id>}, internal/hns/namespace.go:38-95). This is what finds a Hyper-V pod's endpoint, which hangs off the
 * utility VM ({@code <sandbox-id>@vm}, pod.go:112@v0.11.7, :176@v0.15.0-rc.1), so that its {@code SharedContainers}
 * names neither the sandbox nor a container.
 *
 * <p><b>By SharedContainers.</b> A pod without a known namespace (a HostProcess pod on the host network, a runtime
 * whose verbose status carries none), whose namespace HNS does not hold or lists no endpoint in, takes the endpoints
 * whose {@code SharedContainers} names its sandbox or a running container, from one {@code GET /endpoints/}, as
 * windows_exporter's {@code collectNetworkMetrics} and the kubelet's default path do
 * (internal/collector/container/container.go:523-545@v0.31.8).
 *
 * <p>Each endpoint's counters come from {@code GET /endpointstats/<id>}, asked once per round; its interface is named
 * by the endpoint id, as containerd names the CRI interface ({@code Name: endpointStats.EndpointID}); unlike CRI it
 * carries packet counts. An endpoint whose statistics fail (gone between the calls) is left out of this round.
 */
final class PodNetworks {
  private final HnsPort hns;

  PodNetworks(HnsPort hns) {
    this.hns = Objects.requireNonNull(hns, "hns");
  }

  /** One round's interfaces: by pod for the pods found through their namespace, else by sharing container id. */
  record Reading(Map<String, List<InterfaceUsage>> byPod, Map<String, List<InterfaceUsage>> byContainer) {
    /** The interfaces of pod {@code podId}, whose sandbox and running containers are {@code containerIds}. */
    List<InterfaceUsage> of(String podId, Collection<String> containerIds) {
      List<InterfaceUsage> found = byPod.get(podId);
      if (found != null) {
        return found;
      }
      Map<String, InterfaceUsage> nics = new java.util.LinkedHashMap<>();
      byContainer.getOrDefault(podId, List.of()).forEach(n -> nics.putIfAbsent(n.name(), n));
      for (String id : containerIds) {
        byContainer.getOrDefault(id, List.of()).forEach(n -> nics.putIfAbsent(n.name(), n));
      }
      return List.copyOf(nics.values());
    }
  }

  /**
   * The interfaces of {@code podIds}, those in {@code namespaces} (pod id to network namespace id) found through it.
   *
   * @throws HnsException when the endpoint list a pod without a namespace needs cannot be read
   */
  Reading read(Collection<String> podIds, Map<String, String> namespaces) {
    Map<String, InterfaceUsage> stats = new HashMap<>();
    Map<String, List<InterfaceUsage>> byPod = new HashMap<>();
    for (String podId : podIds) {
      String namespace = namespaces.get(podId);
      if (namespace == null) {
        continue;
      }
      List<String> endpointIds;
      try {
        endpointIds = HnsReplies.namespaceEndpoints(hns.call("GET", "/namespaces/" + namespace, ""));
      } catch (HnsException e) {
        continue; // gone, or not readable: the pod's endpoints are looked up by SharedContainers
      }
      List<InterfaceUsage> nics = new ArrayList<>();
      for (String id : endpointIds) {
        InterfaceUsage nic = statistics(id, stats);
        if (nic != null && nics.stream().noneMatch(n -> n.name().equals(nic.name()))) {
          nics.add(nic);
        }
      }
      if (!nics.isEmpty()) {
        byPod.put(podId, List.copyOf(nics));
      }
    }
    if (byPod.size() == podIds.size()) {
      return new Reading(byPod, Map.of());
    }
    Map<String, List<InterfaceUsage>> byContainer = new HashMap<>();
    for (HnsEndpoint e : HnsReplies.endpoints(hns.call("GET", "/endpoints/", ""))) {
      if (e.sharedContainers().isEmpty()) {
        continue;
      }
      InterfaceUsage nic = statistics(e.id(), stats);
      if (nic == null) {
        continue;
      }
      for (String container : e.sharedContainers()) {
        byContainer.computeIfAbsent(container, k -> new ArrayList<>()).add(nic);
      }
    }
    return new Reading(byPod, byContainer);
  }

  /** Endpoint {@code id}'s counters, asked once per round ({@code asked}); {@code null} when they cannot be read. */
  private @Nullable InterfaceUsage statistics(String id, Map<String, InterfaceUsage> asked) {
    String key = id.toUpperCase(Locale.ROOT); // HNS ids are GUIDs, written in either case
    InterfaceUsage known = asked.get(key);
    if (known != null) {
      return known;
    }
    HnsEndpointStatistics s;
    try {
      s = HnsReplies.endpointStatistics(hns.call("GET", "/endpointstats/" + id, ""));
    } catch (HnsException gone) {
      return null;
    }
    InterfaceUsage nic =
        InterfaceUsage.builder(s.endpointId())
            .rxBytes(s.bytesReceived())
            .txBytes(s.bytesSent())
            .rxPacketsDropped(s.droppedPacketsIncoming())
            .txPacketsDropped(s.droppedPacketsOutgoing())
            .rxPackets(s.packetsReceived())
            .txPackets(s.packetsSent())
            .build();
    asked.put(key, nic);
    return nic;
  }
}
