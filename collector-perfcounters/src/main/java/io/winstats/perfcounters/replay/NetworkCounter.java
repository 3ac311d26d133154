package io.winstats.perfcounters.replay;

import java.util.List;

/**
 * Counters of {@code \Network Adapter(*)} (what the kubelet reads) and {@code \Network Interface(*)}. Errors and
 * discards are raw counts since the adapter started, not rates.
 */
enum NetworkCounter implements LoggedCounter {
  BYTES_RECEIVED("Bytes Received/sec", CounterKind.PER_SECOND),
  BYTES_SENT("Bytes Sent/sec", CounterKind.PER_SECOND),
  PACKETS_RECEIVED("Packets Received/sec", CounterKind.PER_SECOND),
  PACKETS_SENT("Packets Sent/sec", CounterKind.PER_SECOND),
  RECEIVE_ERRORS("Packets Received Errors", CounterKind.GAUGE),
  SEND_ERRORS("Packets Outbound Errors", CounterKind.GAUGE),
  RECEIVE_DISCARDED("Packets Received Discarded", CounterKind.GAUGE),
  SEND_DISCARDED("Packets Outbound Discarded", CounterKind.GAUGE);

  /** The objects in order of preference. */
  static final List<String> OBJECTS = List.of("Network Adapter", "Network Interface");

  private final String counterName;
  private final CounterKind kind;

  NetworkCounter(String counterName, CounterKind kind) {
    this.counterName = counterName;
    this.kind = kind;
  }

  @Override
  public String counterName() {
    return counterName;
  }

  @Override
  public CounterKind kind() {
    return kind;
  }
}
