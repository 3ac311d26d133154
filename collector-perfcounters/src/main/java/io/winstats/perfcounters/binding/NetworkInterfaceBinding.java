package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NetworkInterfaceCountersBuilder;
import io.winstats.perfcounters.counters.NetworkInterfaceCounter;
import java.util.List;

/**
 * {@code \Network Interface(*)} bound to {@link NetworkInterfaceCounters}, one per adapter. Every counter is needed:
 * an adapter is read only with all of them. The error and discard counters are cumulative despite their raw type and
 * travel in a log as the count.
 */
public final class NetworkInterfaceBinding {
  /**
   * Logs hold these counters under {@code Network Adapter(*)}, what the kubelet reads, or {@code Network Interface(*)},
   * what PDH reads here and windows_exporter reads; {@code --record} writes {@code Network Adapter}.
   */
  public static final Binding<NetworkInterfaceCounter, NetworkInterfaceCounters, NetworkInterfaceCountersBuilder>
      NETWORK_INTERFACE =
          new Binding<>(List.of("Network Adapter", NetworkInterfaceCounter.OBJECT), List.of(
              Figure.cumulative(
                      NetworkInterfaceCounter.BYTES_RECEIVED,
                      NetworkInterfaceCounters::rxBytes,
                      NetworkInterfaceCountersBuilder::rxBytes)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.BYTES_SENT,
                      NetworkInterfaceCounters::txBytes,
                      NetworkInterfaceCountersBuilder::txBytes)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_RECEIVED,
                      NetworkInterfaceCounters::rxPackets,
                      NetworkInterfaceCountersBuilder::rxPackets)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_SENT,
                      NetworkInterfaceCounters::txPackets,
                      NetworkInterfaceCountersBuilder::txPackets)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_RECEIVED_ERRORS,
                      NetworkInterfaceCounters::rxErrors,
                      NetworkInterfaceCountersBuilder::rxErrors)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_OUTBOUND_ERRORS,
                      NetworkInterfaceCounters::txErrors,
                      NetworkInterfaceCountersBuilder::txErrors)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_RECEIVED_DISCARDED,
                      NetworkInterfaceCounters::rxDropped,
                      NetworkInterfaceCountersBuilder::rxDropped)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_OUTBOUND_DISCARDED,
                      NetworkInterfaceCounters::txDropped,
                      NetworkInterfaceCountersBuilder::txDropped)
                  .asNeeded(),
              Figure.gauge(
                  NetworkInterfaceCounter.CURRENT_BANDWIDTH,
                  NetworkInterfaceCounters::currentBandwidthBits,
                  NetworkInterfaceCountersBuilder::currentBandwidthBits),
              Figure.gauge(
                  NetworkInterfaceCounter.OUTPUT_QUEUE_LENGTH,
                  NetworkInterfaceCounters::outputQueuePackets,
                  NetworkInterfaceCountersBuilder::outputQueuePackets),
              Figure.cumulative(
                  NetworkInterfaceCounter.PACKETS_RECEIVED_UNKNOWN,
                  NetworkInterfaceCounters::rxUnknownProtocol,
                  NetworkInterfaceCountersBuilder::rxUnknownProtocol)));

  private NetworkInterfaceBinding() {}
}
