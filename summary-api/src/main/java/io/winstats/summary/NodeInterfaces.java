package io.winstats.summary;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodePlatform;
import java.util.List;
import java.util.Locale;

/**
 * The node's network interfaces as cAdvisor, and so the kubelet, counts them on Linux: without the loopback, the
 * containers' host-side veth ends (whose traffic the pods' own interfaces already count, so the node would count it
 * twice) and the bridges of docker and nerdctl. The prefixes and the case-insensitive match are cAdvisor's {@code
 * ignoredDevicePrefixes} and {@code isIgnoredDevice} in {@code container/libcontainer/handler.go}.
 *
 * <p>On Windows the list does not apply: the kubelet reads every network adapter there, and the host's own traffic
 * runs through a {@code vEthernet (...)} adapter that a {@code veth} prefix would drop.
 */
public final class NodeInterfaces {
  private static final List<String> IGNORED_PREFIXES = List.of("lo", "veth", "docker", "nerdctl");

  private NodeInterfaces() {}

  /** The interfaces cAdvisor keeps on a Linux node, in the given order. */
  public static List<NetworkInterfaceCounters> linuxView(List<NetworkInterfaceCounters> all) {
    return all.stream().filter(nic -> !isIgnored(nic.name())).toList();
  }

  /** {@link #linuxView} on a Linux node; every interface on a Windows node. */
  public static List<NetworkInterfaceCounters> of(List<NetworkInterfaceCounters> all, NodePlatform platform) {
    return platform == NodePlatform.WINDOWS ? all : linuxView(all);
  }

  /** Whether cAdvisor leaves {@code name} out of a Linux container's or node's interfaces. */
  public static boolean isIgnored(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (String prefix : IGNORED_PREFIXES) {
      if (lower.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
