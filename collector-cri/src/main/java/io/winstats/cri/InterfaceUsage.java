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

  /** A builder for the InterfaceUsage of {@code name}, every other component 0, empty or absent until set by name. */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Names each component of a {@link InterfaceUsage}; not thread-safe. */
  public static final class Builder {
    private final String name;
    private @Nullable Long rxBytes;
    private @Nullable Long rxErrors;
    private @Nullable Long txBytes;
    private @Nullable Long txErrors;
    private @Nullable Long rxPacketsDropped;
    private @Nullable Long txPacketsDropped;
    private @Nullable Long rxPackets;
    private @Nullable Long txPackets;

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    public Builder rxBytes(@Nullable Long value) {
      this.rxBytes = value;
      return this;
    }

    public Builder rxErrors(@Nullable Long value) {
      this.rxErrors = value;
      return this;
    }

    public Builder txBytes(@Nullable Long value) {
      this.txBytes = value;
      return this;
    }

    public Builder txErrors(@Nullable Long value) {
      this.txErrors = value;
      return this;
    }

    public Builder rxPacketsDropped(@Nullable Long value) {
      this.rxPacketsDropped = value;
      return this;
    }

    public Builder txPacketsDropped(@Nullable Long value) {
      this.txPacketsDropped = value;
      return this;
    }

    public Builder rxPackets(@Nullable Long value) {
      this.rxPackets = value;
      return this;
    }

    public Builder txPackets(@Nullable Long value) {
      this.txPackets = value;
      return this;
    }

    public InterfaceUsage build() {
      return new InterfaceUsage(
          name,
          rxBytes,
          rxErrors,
          txBytes,
          txErrors,
          rxPacketsDropped,
          txPacketsDropped,
          rxPackets,
          txPackets);
    }
  }
}
