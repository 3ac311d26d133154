package io.winstats.cri;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Cumulative counters of one pod network interface. Linux runtimes report errors; Windows runtimes report dropped
 * packets instead ({@code WindowsNetworkInterfaceUsage}).
 *
 * @param name the interface ({@code eth0}; the HNS endpoint id on Windows)
 */
public record InterfaceUsage(
    String name,
    @Nullable Long rxBytes,
    @Nullable Long rxErrors,
    @Nullable Long txBytes,
    @Nullable Long txErrors,
    @Nullable Long rxPacketsDropped,
    @Nullable Long txPacketsDropped) {
  public InterfaceUsage {
    Objects.requireNonNull(name, "name");
  }
}
