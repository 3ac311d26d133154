package io.winstats.cri;

import io.soabase.recordbuilder.core.RecordBuilder;
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
@RecordBuilder
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

  /** A builder for the InterfaceUsage of {@code name}, every counter absent until set by name. */
  public static InterfaceUsageBuilder builder(String name) {
    return InterfaceUsageBuilder.builder().name(name);
  }
}
