package io.winstats.perfcounters.counters;

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
