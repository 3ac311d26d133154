package io.winstats.perfcounters;

import java.util.List;
import java.util.Objects;

/**
 * One network adapter as the IP Helper API describes it ({@code GetAdaptersAddresses}), in the terms windows_exporter
 * v0.31.8's net collector serves it ({@code internal/collector/net/net.go:423-513@v0.31.8}).
 *
 * @param nic {@code IP_ADAPTER_ADDRESSES.Description} with {@code (} {@code )} {@code #} written {@code [} {@code ]}
 *     {@code _}, as upstream labels it (net.go:429,433@v0.31.8), which is how PDH names the adapter's {@code Network
 *     Interface} instance
 * @param friendlyName {@code FriendlyName}, as it is
 * @param mac the first six bytes of {@code PhysicalAddress} as {@code %02X} pairs joined by {@code :}, whatever {@code
 *     PhysicalAddressLength} says (net.go:440-447@v0.31.8)
 * @param operStatus {@code OperStatus}, RFC 2863's {@code IfOperStatus} code ({@link OperStatus})
 * @param addresses the global unicast addresses of the unicast, then the anycast list, when the adapter is up
 *     (net.go:473-509@v0.31.8); empty otherwise
 */
public record NetworkAdapter(String nic, String friendlyName, String mac, int operStatus, List<Address> addresses) {

  public NetworkAdapter {
    Objects.requireNonNull(nic, "nic");
    Objects.requireNonNull(friendlyName, "friendlyName");
    Objects.requireNonNull(mac, "mac");
    addresses = List.copyOf(addresses);
  }

  /**
   * An address of the adapter.
   *
   * @param address as Go's {@code net.IP.String} writes it: dotted IPv4 (also for an IPv4-mapped IPv6 address), else
   *     RFC 5952 IPv6
   * @param family {@code ipv4} or {@code ipv6}, from the socket address's family (types.go:24-27@v0.31.8)
   */
  public record Address(String address, String family) {
    public Address {
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(family, "family");
    }
  }

  /** RFC 2863's {@code IfOperStatus} (ifdef.h), with windows_exporter's label for each (types.go:28-36@v0.31.8). */
  public enum OperStatus {
    UP(1, "up"),
    DOWN(2, "down"),
    TESTING(3, "testing"),
    UNKNOWN(4, "unknown"),
    DORMANT(5, "dormant"),
    NOT_PRESENT(6, "not present"),
    LOWER_LAYER_DOWN(7, "lower layer down");

    private final int code;
    private final String label;

    OperStatus(int code, String label) {
      this.code = code;
      this.label = label;
    }

    /** The {@code IfOperStatus*} value. */
    public int code() {
      return code;
    }

    /** windows_exporter's {@code status} label. */
    public String label() {
      return label;
    }
  }
}
