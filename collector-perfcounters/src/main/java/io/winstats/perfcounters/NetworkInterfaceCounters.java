package io.winstats.perfcounters;

import io.soabase.recordbuilder.core.RecordBuilder;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Cumulative counters of one network interface since it appeared, and on Windows two gauges read with them.
 *
 * @param name the interface ({@code eth0}; the Windows adapter instance name)
 * @param currentBandwidthBits the bandwidth now in bits per second ({@code Current Bandwidth}, a gauge; Windows only)
 * @param outputQueuePackets packets in the output queue now ({@code Output Queue Length}, a gauge; Windows only)
 * @param rxUnknownProtocol packets received for an unknown protocol ({@code Packets Received Unknown}; Windows only)
 */
@RecordBuilder
public record NetworkInterfaceCounters(
    String name,
    long rxBytes,
    long txBytes,
    long rxPackets,
    long txPackets,
    long rxErrors,
    long txErrors,
    long rxDropped,
    long txDropped,
    @Nullable Long currentBandwidthBits,
    @Nullable Long outputQueuePackets,
    @Nullable Long rxUnknownProtocol) {
  public NetworkInterfaceCounters {
    Objects.requireNonNull(name, "name");
    for (long v : new long[] {rxBytes, txBytes, rxPackets, txPackets, rxErrors, txErrors, rxDropped, txDropped}) {
      if (v < 0) {
        throw new IllegalArgumentException("negative counter on interface " + name);
      }
    }
  }

  /** A builder for interface {@code name} with every counter 0; a source sets each by name. */
  public static NetworkInterfaceCountersBuilder builder(String name) {
    return NetworkInterfaceCountersBuilder.builder().name(name);
  }
}
