package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.NetworkInterfaceCounters;
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
  public static final Binding<NetworkInterfaceCounter, NetworkInterfaceCounters, NetworkInterfaceCounters.Builder>
      NETWORK_INTERFACE =
          new Binding<>(List.of("Network Adapter", NetworkInterfaceCounter.OBJECT), List.of(
              Figure.cumulative(
                      NetworkInterfaceCounter.BYTES_RECEIVED,
                      NetworkInterfaceCounters::rxBytes,
                      NetworkInterfaceCounters.Builder::rxBytes)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.BYTES_SENT,
                      NetworkInterfaceCounters::txBytes,
                      NetworkInterfaceCounters.Builder::txBytes)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_RECEIVED,
                      NetworkInterfaceCounters::rxPackets,
                      NetworkInterfaceCounters.Builder::rxPackets)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_SENT,
                      NetworkInterfaceCounters::txPackets,
                      NetworkInterfaceCounters.Builder::txPackets)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_RECEIVED_ERRORS,
                      NetworkInterfaceCounters::rxErrors,
                      NetworkInterfaceCounters.Builder::rxErrors)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_OUTBOUND_ERRORS,
                      NetworkInterfaceCounters::txErrors,
                      NetworkInterfaceCounters.Builder::txErrors)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_RECEIVED_DISCARDED,
                      NetworkInterfaceCounters::rxDropped,
                      NetworkInterfaceCounters.Builder::rxDropped)
                  .asNeeded(),
              Figure.cumulative(
                      NetworkInterfaceCounter.PACKETS_OUTBOUND_DISCARDED,
                      NetworkInterfaceCounters::txDropped,
                      NetworkInterfaceCounters.Builder::txDropped)
                  .asNeeded(),
              Figure.gauge(
                  NetworkInterfaceCounter.CURRENT_BANDWIDTH,
                  NetworkInterfaceCounters::currentBandwidthBits,
                  NetworkInterfaceCounters.Builder::currentBandwidthBits),
              Figure.gauge(
                  NetworkInterfaceCounter.OUTPUT_QUEUE_LENGTH,
                  NetworkInterfaceCounters::outputQueuePackets,
                  NetworkInterfaceCounters.Builder::outputQueuePackets),
              Figure.cumulative(
                  NetworkInterfaceCounter.PACKETS_RECEIVED_UNKNOWN,
                  NetworkInterfaceCounters::rxUnknownProtocol,
                  NetworkInterfaceCounters.Builder::rxUnknownProtocol)));

  private NetworkInterfaceBinding() {}
}
