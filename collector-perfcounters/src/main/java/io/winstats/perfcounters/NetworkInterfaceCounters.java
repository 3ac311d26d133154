package io.winstats.perfcounters;

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
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Names each counter of a {@link NetworkInterfaceCounters}; not thread-safe. */
  public static final class Builder {
    private final String name;
    private long rxBytes;
    private long txBytes;
    private long rxPackets;
    private long txPackets;
    private long rxErrors;
    private long txErrors;
    private long rxDropped;
    private long txDropped;
    private @Nullable Long currentBandwidthBits;
    private @Nullable Long outputQueuePackets;
    private @Nullable Long rxUnknownProtocol;

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    public Builder rxBytes(long value) {
      this.rxBytes = value;
      return this;
    }

    public Builder txBytes(long value) {
      this.txBytes = value;
      return this;
    }

    public Builder rxPackets(long value) {
      this.rxPackets = value;
      return this;
    }

    public Builder txPackets(long value) {
      this.txPackets = value;
      return this;
    }

    public Builder rxErrors(long value) {
      this.rxErrors = value;
      return this;
    }

    public Builder txErrors(long value) {
      this.txErrors = value;
      return this;
    }

    public Builder rxDropped(long value) {
      this.rxDropped = value;
      return this;
    }

    public Builder currentBandwidthBits(long value) {
      this.currentBandwidthBits = value;
      return this;
    }

    public Builder outputQueuePackets(long value) {
      this.outputQueuePackets = value;
      return this;
    }

    public Builder rxUnknownProtocol(long value) {
      this.rxUnknownProtocol = value;
      return this;
    }

    public Builder txDropped(long value) {
      this.txDropped = value;
      return this;
    }

    /**
     * Builds the record.
     *
     * @throws IllegalArgumentException when a counter is negative
     */
    public NetworkInterfaceCounters build() {
      return new NetworkInterfaceCounters(
          name,
          rxBytes,
          txBytes,
          rxPackets,
          txPackets,
          rxErrors,
          txErrors,
          rxDropped,
          txDropped,
          currentBandwidthBits,
          outputQueuePackets,
          rxUnknownProtocol);
    }
  }
}
