package io.winstats.perfcounters.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NetworkInterfaceCountersBuilder;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeMemoryBuilder;
import io.winstats.perfcounters.binding.MemoryBinding;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding;
import io.winstats.perfcounters.binding.NetworkInterfaceBinding.NetworkInterfaceCounter;
import io.winstats.perfcounters.counters.CounterPath;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A binding table's columns in a header, and a row read through them. */
class BoundColumnsTest {

  @Test
  void anInstanceWithEveryNeededColumnIsCompleteAndReadsEachFigure() {
    LogHeader header =
        new LogHeader(
            Arrays.stream(NetworkInterfaceCounter.values())
                .map(c -> new CounterPath("H", NetworkInterfaceCounter.OBJECT, "eth0", c.counter()))
                .toList());
    BoundColumns<NetworkInterfaceCounter, NetworkInterfaceCounters, NetworkInterfaceCountersBuilder> eth0 =
        BoundColumns.of(header, NetworkInterfaceCounter.OBJECT, "eth0", NetworkInterfaceBinding.NETWORK_INTERFACE);
    // 11 columns: four per-second rates, four counts, then bandwidth and queue (gauges) and unknown-protocol packets (a
    // count); the second row is 2 s after the first
    double[] values = {100, 200, 10, 20, 1, 2, 3, 4, 1e9, 2, 5};

    NetworkInterfaceCountersBuilder builder = NetworkInterfaceCounters.builder(eth0.instance());
    eth0.read(row(header, 1, values), builder);

    assertThat(eth0.complete()).isTrue();
    assertThat(builder.build())
        .isEqualTo(NetworkInterfaceCounters.builder("eth0")
            .rxBytes(200)
            .txBytes(400)
            .rxPackets(20)
            .txPackets(40)
            .rxErrors(1)
            .txErrors(2)
            .rxDropped(3)
            .txDropped(4)
            .currentBandwidthBits(1_000_000_000L)
            .outputQueuePackets(2L)
            .rxUnknownProtocol(5L)
            .build());
  }

  @Test
  void aMissingNeededColumnIsNamedAndABlankNeededCellLeavesThePartOut() {
    List<CounterPath> columns = new ArrayList<>();
    for (NetworkInterfaceCounter c : NetworkInterfaceCounter.values()) {
      if (c != NetworkInterfaceCounter.PACKETS_SENT && c != NetworkInterfaceCounter.PACKETS_OUTBOUND_ERRORS) {
        columns.add(new CounterPath("H", NetworkInterfaceCounter.OBJECT, "eth0", c.counter()));
      }
    }
    LogHeader header = new LogHeader(columns);
    BoundColumns<NetworkInterfaceCounter, NetworkInterfaceCounters, NetworkInterfaceCountersBuilder> eth0 =
        BoundColumns.of(header, NetworkInterfaceCounter.OBJECT, "eth0", NetworkInterfaceBinding.NETWORK_INTERFACE);

    assertThat(eth0.complete()).isFalse();
    assertThat(eth0.lacking()).isEqualTo("Packets Sent/sec, Packets Outbound Errors");
    double[] blank = {100, Double.NaN, 10, 1, 3, 4, 1e9, 0, 0};
    assertThatThrownBy(() -> eth0.read(row(header, 1, blank), NetworkInterfaceCounters.builder("eth0")))
        .isInstanceOf(LoggedRow.BlankCell.class)
        .hasMessage("row 1 has no value for \\\\H\\Network Interface(eth0)\\Bytes Sent/sec");
  }

  @Test
  void aBlankOptionalCellLeavesOnlyItsFigureOut() {
    LogHeader header =
        new LogHeader(
            List.of(
                new CounterPath("H", "Memory", null, "Available Bytes"),
                new CounterPath("H", "Memory", null, "Cache Bytes")));
    BoundColumns<?, NodeMemory, NodeMemoryBuilder> memory =
        BoundColumns.of(header, "Memory", null, MemoryBinding.MEMORY);
    NodeMemoryBuilder builder = NodeMemory.builder();

    memory.read(row(header, 1, new double[] {4096, Double.NaN}), builder);

    assertThat(builder.build()).isEqualTo(NodeMemory.builder().availableBytes(4096L).build());
  }

  /** Row {@code index} of a log whose rows are 2 s apart, its values also the integral's rate cells. */
  private static LoggedRow row(LogHeader header, int index, double[] values) {
    double[] integral = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      integral[i] = values[i] * 2;
    }
    CounterLog.Row row = new CounterLog.Row(LocalDateTime.of(2026, 11, 21, 8, 0, 2 * index), values);
    return new LoggedRow(header, index, row, Instant.EPOCH, integral, new double[values.length]);
  }
}
