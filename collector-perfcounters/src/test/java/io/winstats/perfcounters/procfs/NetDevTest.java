package io.winstats.perfcounters.procfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeSourceException;
import org.junit.jupiter.api.Test;

class NetDevTest {

  @Test
  void parsesEveryInterfaceOfTheCapturedFile() {
    NetDev netDev = NetDev.parse(ProcfsFixtures.text(ProcfsFixtures.VM, "net/dev"));

    assertThat(netDev.interfaces()).extracting(NetworkInterfaceCounters::name)
        .containsExactly("lo", "ifb0", "ifb1", "eth0");
    assertThat(netDev.interfaces().get(3))
        .isEqualTo(NetworkInterfaceCounters.builder("eth0")
            .rxBytes(127005001)
            .txBytes(561612)
            .rxPackets(4615)
            .txPackets(4118)
            .build());
    assertThat(netDev.interfaces().get(0).rxBytes()).isEqualTo(3193);
  }

  @Test
  void readsAllEightCountersFromTheirColumns() {
    String text =
        """
        Inter-|   Receive                                                |  Transmit
         face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
        eth1:100 2 3 4 0 0 0 0 500 6 7 8 0 0 0 0
        """;

    assertThat(NetDev.parse(text).interfaces())
        .containsExactly(NetworkInterfaceCounters.builder("eth1")
            .rxBytes(100)
            .txBytes(500)
            .rxPackets(2)
            .txPackets(6)
            .rxErrors(3)
            .txErrors(7)
            .rxDropped(4)
            .txDropped(8)
            .build());
  }

  @Test
  void rejectsShortLinesGarbageAndAMissingHeader() {
    String header = ProcfsFixtures.text(ProcfsFixtures.VM, "net/dev").lines().limit(2).reduce("", (a, b) -> a + b
        + "\n");
    assertThatThrownBy(() -> NetDev.parse(header + "eth0: 1 2 3\n"))
        .isInstanceOf(NodeSourceException.class)
        .hasMessageContaining("16 expected");
    assertThatThrownBy(() -> NetDev.parse(header + "eth0: one 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"))
        .isInstanceOf(NodeSourceException.class)
        .hasMessageContaining("not a counter");
    assertThatThrownBy(() -> NetDev.parse("eth0: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"))
        .isInstanceOf(NodeSourceException.class)
        .hasMessageContaining("no header");
  }
}
