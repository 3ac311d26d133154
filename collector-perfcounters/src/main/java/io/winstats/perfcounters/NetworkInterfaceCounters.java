package io.winstats.perfcounters;

import java.util.Objects;

/**
 * Cumulative counters of one network interface since it appeared.
 *
 * @param name the interface ({@code eth0}; the Windows adapter instance name)
 */
public record NetworkInterfaceCounters(
    String name,
    long rxBytes,
    long txBytes,
    long rxPackets,
    long txPackets,
    long rxErrors,
    long txErrors,
    long rxDropped,
    long txDropped) {
  public NetworkInterfaceCounters {
    Objects.requireNonNull(name, "name");
    for (long v : new long[] {rxBytes, txBytes, rxPackets, txPackets, rxErrors, txErrors, rxDropped, txDropped}) {
      if (v < 0) {
        throw new IllegalArgumentException("negative counter on interface " + name);
      }
    }
  }
}
