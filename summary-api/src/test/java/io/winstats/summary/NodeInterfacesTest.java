package io.winstats.summary;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SummaryTypes.InterfaceStats;
import io.winstats.summary.SummaryTypes.NetworkStats;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeInterfacesTest {
  /** What /proc/net/dev lists on a containerd node with two pods (names as CNI's bridge plugin makes them). */
  private static final List<NetworkInterfaceCounters> LINUX_NODE =
      List.of(
          nic("cni0"),
          nic("docker0"),
          nic("eth0"),
          nic("ens5"),
          nic("lo"),
          nic("nerdctl0"),
          nic("veth1a2b3c4d"),
          nic("VETHdeadbeef"));

  @Test
  void linuxDropsCadvisorsIgnoredPrefixesCaseInsensitively() {
    assertThat(NodeInterfaces.linuxView(LINUX_NODE))
        .extracting(NetworkInterfaceCounters::name)
        .containsExactly("cni0", "eth0", "ens5");
  }

  @Test
  void windowsKeepsEveryAdapterIncludingTheHostsVEthernet() {
    List<NetworkInterfaceCounters> adapters =
        List.of(nic("Microsoft Hyper-V Network Adapter #2"), nic("vEthernet (Ethernet)"), nic("vEthernet (nat)"));
    assertThat(NodeInterfaces.of(adapters, NodePlatform.WINDOWS)).isEqualTo(adapters);
    assertThat(NodeInterfaces.of(adapters, NodePlatform.LINUX)).extracting(NetworkInterfaceCounters::name)
        .containsExactly("Microsoft Hyper-V Network Adapter #2");
  }

  @Test
  void theSummaryNodeNetworkLeavesOutLoopbackAndVethsAndInlinesEth0() {
    NetworkStats network =
        new SummaryAssembler("n", NodePlatform.LINUX)
            .assemble(withInterfaces(LINUX_NODE), null, null)
            .node()
            .network();
    assertThat(network.interfaces()).extracting(InterfaceStats::name).containsExactly("cni0", "ens5", "eth0");
    assertThat(network.defaultInterface().name()).isEqualTo("eth0");
  }

  @Test
  void withoutEth0TheInlinedInterfaceIsEmptyAsTheKubeletLeavesIt() {
    NetworkStats network =
        new SummaryAssembler("n", NodePlatform.LINUX)
            .assemble(withInterfaces(List.of(nic("ens5"), nic("lo"))), null, null)
            .node()
            .network();
    assertThat(network.interfaces()).extracting(InterfaceStats::name).containsExactly("ens5");
    assertThat(network.defaultInterface().name()).isEmpty();
    assertThat(network.defaultInterface().rxBytes()).isNull();
  }

  private static io.winstats.perfcounters.NodeSample withInterfaces(List<NetworkInterfaceCounters> interfaces) {
    io.winstats.perfcounters.NodeSample n = SampleFixtures.linuxNode(SampleFixtures.T1, 0, 1);
    return n.toBuilder().interfaces(interfaces).build();
  }

  private static NetworkInterfaceCounters nic(String name) {
    return NetworkInterfaceCounters.builder(name).rxBytes(1).txBytes(2).rxPackets(3).txPackets(4).build();
  }
}
