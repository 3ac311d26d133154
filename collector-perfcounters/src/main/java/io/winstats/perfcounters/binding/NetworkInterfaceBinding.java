package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NetworkInterfaceCountersBuilder;
import io.winstats.perfcounters.counters.CounterSpec;
import io.winstats.perfcounters.counters.FormattedUnit;
import io.winstats.perfcounters.counters.InstanceFilter;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.counters.RawKind;
import java.util.List;

/**
 * {@code \Network Interface(*)} bound to {@link NetworkInterfaceCounters}, one per adapter. Every counter is needed:
 * an adapter is read only with all of them. The error and discard counters are cumulative despite their raw type and
 * travel in a log as the count.
 */
public final class NetworkInterfaceBinding {
  /**
   * Per-adapter counters from {@code \Network Interface(*)}, as windows_exporter reads them. The kubelet reads the same
   * counter names from {@code \Network Adapter(*)}, which also lists virtual adapters (vEthernet, loopback pseudo
   * interface); {@code Network Interface} is the set windows_exporter users know. Instance names replace {@code (}
   * {@code )} {@code #} {@code /} with {@code [} {@code ]} {@code _} {@code _}. Byte counters were 32-bit
   * {@code PERF_COUNTER_COUNTER} in old releases and are 64-bit bulk counts now: the actual type decides the wrap.
   */
  public enum NetworkInterfaceCounter implements PerfCounter {
    BYTES_RECEIVED("Bytes Received/sec", RawKind.BULK_COUNT, FormattedUnit.PER_SECOND),
    BYTES_SENT("Bytes Sent/sec", RawKind.BULK_COUNT, FormattedUnit.PER_SECOND),
    PACKETS_RECEIVED("Packets Received/sec", RawKind.BULK_COUNT, FormattedUnit.PER_SECOND),
    PACKETS_SENT("Packets Sent/sec", RawKind.BULK_COUNT, FormattedUnit.PER_SECOND),
    /** Cumulative since the adapter started despite the raw type; logged as that count, not a rate. */
    PACKETS_RECEIVED_ERRORS("Packets Received Errors", RawKind.RAW, FormattedUnit.COUNT),
    /** Cumulative since the adapter started despite the raw type; logged as that count, not a rate. */
    PACKETS_OUTBOUND_ERRORS("Packets Outbound Errors", RawKind.RAW, FormattedUnit.COUNT),
    /** Cumulative since the adapter started despite the raw type; logged as that count, not a rate. */
    PACKETS_RECEIVED_DISCARDED("Packets Received Discarded", RawKind.RAW, FormattedUnit.COUNT),
    /** Cumulative since the adapter started despite the raw type; logged as that count, not a rate. */
    PACKETS_OUTBOUND_DISCARDED("Packets Outbound Discarded", RawKind.RAW, FormattedUnit.COUNT),
    // The rest of what windows_exporter v0.31.8's net collector reads (internal/collector/net/types.go:42-54@v0.31.8).
    /** The adapter's bandwidth now, in bits per second. */
    CURRENT_BANDWIDTH("Current Bandwidth", RawKind.RAW_LARGE, FormattedUnit.COUNT),
    /** Packets in the output queue now. */
    OUTPUT_QUEUE_LENGTH("Output Queue Length", RawKind.RAW, FormattedUnit.COUNT),
    /** Packets received and discarded for an unknown or unsupported protocol, since the adapter started. */
    PACKETS_RECEIVED_UNKNOWN("Packets Received Unknown", RawKind.RAW, FormattedUnit.COUNT);

    public static final String OBJECT = "Network Interface";

    private final CounterSpec spec;

    NetworkInterfaceCounter(String counter, RawKind raw, FormattedUnit formatted) {
      this.spec = new CounterSpec(OBJECT, InstanceFilter.ALL, counter, raw, formatted);
    }

    @Override
    public CounterSpec spec() {
      return spec;
    }
  }

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
