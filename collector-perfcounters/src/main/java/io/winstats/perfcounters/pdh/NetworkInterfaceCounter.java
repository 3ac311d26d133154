package io.winstats.perfcounters.pdh;

/**
 * Per-adapter counters from {@code \Network Interface(*)}, as windows_exporter reads them. The kubelet reads the same
 * counter names from {@code \Network Adapter(*)}, which also lists virtual adapters (vEthernet, loopback pseudo
 * interface); {@code Network Interface} is the set windows_exporter users know. Instance names replace {@code (}
 * {@code )} {@code #} {@code /} with {@code [} {@code ]} {@code _} {@code _}. Byte counters were 32-bit
 * {@code PERF_COUNTER_COUNTER} in old releases and are 64-bit bulk counts now: the actual type decides the wrap.
 */
enum NetworkInterfaceCounter implements CounterDef {
  BYTES_RECEIVED("Bytes Received/sec", CounterKind.BULK_COUNT),
  BYTES_SENT("Bytes Sent/sec", CounterKind.BULK_COUNT),
  PACKETS_RECEIVED("Packets Received/sec", CounterKind.BULK_COUNT),
  PACKETS_SENT("Packets Sent/sec", CounterKind.BULK_COUNT),
  /** Cumulative despite the raw type. */
  PACKETS_RECEIVED_ERRORS("Packets Received Errors", CounterKind.RAW),
  /** Cumulative despite the raw type. */
  PACKETS_OUTBOUND_ERRORS("Packets Outbound Errors", CounterKind.RAW),
  /** Cumulative despite the raw type. */
  PACKETS_RECEIVED_DISCARDED("Packets Received Discarded", CounterKind.RAW),
  /** Cumulative despite the raw type. */
  PACKETS_OUTBOUND_DISCARDED("Packets Outbound Discarded", CounterKind.RAW);

  static final String OBJECT = "Network Interface";

  private final String counter;
  private final CounterKind kind;

  NetworkInterfaceCounter(String counter, CounterKind kind) {
    this.counter = counter;
    this.kind = kind;
  }

  @Override
  public String object() {
    return OBJECT;
  }

  @Override
  public InstanceFilter instances() {
    return InstanceFilter.ALL;
  }

  @Override
  public String counter() {
    return counter;
  }

  @Override
  public CounterKind kind() {
    return kind;
  }
}
