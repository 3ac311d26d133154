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
        .isEqualTo(new NetworkInterfaceCounters("eth0", 127005001, 561612, 4615, 4118, 0, 0, 0, 0));
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
        .containsExactly(new NetworkInterfaceCounters("eth1", 100, 500, 2, 6, 3, 7, 4, 8));
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
