package io.winstats.cri;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Cumulative counters of one pod network interface. Linux runtimes report errors; Windows runtimes report dropped
 * packets instead ({@code WindowsNetworkInterfaceUsage}).
 *
 * @param name the interface ({@code eth0}; the HNS endpoint id on Windows)
 * @param rxPackets packets received, where the source counts them (HNS endpoint statistics on Windows); CRI does not
 * @param txPackets packets sent, likewise
 */
public record InterfaceUsage(
    String name,
    @Nullable Long rxBytes,
    @Nullable Long rxErrors,
    @Nullable Long txBytes,
    @Nullable Long txErrors,
    @Nullable Long rxPacketsDropped,
    @Nullable Long txPacketsDropped,
    @Nullable Long rxPackets,
    @Nullable Long txPackets) {
  public InterfaceUsage {
    Objects.requireNonNull(name, "name");
  }

  /** The counters CRI carries, without packet counts. */
  public InterfaceUsage(
      String name,
      @Nullable Long rxBytes,
      @Nullable Long rxErrors,
      @Nullable Long txBytes,
      @Nullable Long txErrors,
      @Nullable Long rxPacketsDropped,
      @Nullable Long txPacketsDropped) {
    this(name, rxBytes, rxErrors, txBytes, txErrors, rxPacketsDropped, txPacketsDropped, null, null);
  }
}
