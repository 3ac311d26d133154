package io.winstats.perfcounters.win32.jna;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import org.jspecify.annotations.Nullable;

/**
 * {@code IP_ADAPTER_ADDRESSES_LH} (iptypes.h), every field through {@code FirstDnsSuffix}: size 448 on x64. {@code
 * GetAdaptersAddresses} writes a {@code Next}-linked list of them into its buffer, with the address lists, socket
 * addresses and strings they point to. The leading union ({@code ULONGLONG Alignment} or {@code ULONG Length; IF_INDEX
 * IfIndex}) is its two {@code ULONG}s, as is {@code Flags}' union its {@code ULONG}; the pointer after them keeps the
 * union's 8-byte alignment. golang.org/x/sys/windows declares the same fields ({@code IpAdapterAddresses},
 * types_windows.go), which upstream casts its buffer to (net.go:549@v0.31.8).
 *
 * <p>Internal to {@link JnaIpHelper}; public only because JNA reflects over public fields.
 */
@FieldOrder({
  "Length",
  "IfIndex",
  "Next",
  "AdapterName",
  "FirstUnicastAddress",
  "FirstAnycastAddress",
  "FirstMulticastAddress",
  "FirstDnsServerAddress",
  "DnsSuffix",
  "Description",
  "FriendlyName",
  "PhysicalAddress",
  "PhysicalAddressLength",
  "Flags",
  "Mtu",
  "IfType",
  "OperStatus",
  "Ipv6IfIndex",
  "ZoneIndices",
  "FirstPrefix",
  "TransmitLinkSpeed",
  "ReceiveLinkSpeed",
  "FirstWinsServerAddress",
  "FirstGatewayAddress",
  "Ipv4Metric",
  "Ipv6Metric",
  "Luid",
  "Dhcpv4Server",
  "CompartmentId",
  "NetworkGuid",
  "ConnectionType",
  "TunnelType",
  "Dhcpv6Server",
  "Dhcpv6ClientDuid",
  "Dhcpv6ClientDuidLength",
  "Dhcpv6Iaid",
  "FirstDnsSuffix"
})
@SuppressWarnings("NullAway.Init") // JNA's Structure constructor creates nested structure fields
public final class IpAdapterAddressesLh extends Structure {
  /** {@code MAX_ADAPTER_ADDRESS_LENGTH}. */
  static final int MAX_ADAPTER_ADDRESS_LENGTH = 8;
  /** {@code MAX_DHCPV6_DUID_LENGTH}. */
  static final int MAX_DHCPV6_DUID_LENGTH = 130;

  public int Length;
  public int IfIndex;
  public @Nullable Pointer Next;
  public @Nullable Pointer AdapterName;
  public @Nullable Pointer FirstUnicastAddress;
  public @Nullable Pointer FirstAnycastAddress;
  public @Nullable Pointer FirstMulticastAddress;
  public @Nullable Pointer FirstDnsServerAddress;
  public @Nullable Pointer DnsSuffix;
  public @Nullable Pointer Description;
  public @Nullable Pointer FriendlyName;
  public byte[] PhysicalAddress = new byte[MAX_ADAPTER_ADDRESS_LENGTH];
  public int PhysicalAddressLength;
  public int Flags;
  public int Mtu;
  public int IfType;
  public int OperStatus;
  public int Ipv6IfIndex;
  public int[] ZoneIndices = new int[16];
  public @Nullable Pointer FirstPrefix;
  public long TransmitLinkSpeed;
  public long ReceiveLinkSpeed;
  public @Nullable Pointer FirstWinsServerAddress;
  public @Nullable Pointer FirstGatewayAddress;
  public int Ipv4Metric;
  public int Ipv6Metric;
  public long Luid;
  public SocketAddress Dhcpv4Server;
  public int CompartmentId;
  public Guid NetworkGuid;
  public int ConnectionType;
  public int TunnelType;
  public SocketAddress Dhcpv6Server;
  public byte[] Dhcpv6ClientDuid = new byte[MAX_DHCPV6_DUID_LENGTH];
  public int Dhcpv6ClientDuidLength;
  public int Dhcpv6Iaid;
  public @Nullable Pointer FirstDnsSuffix;

  public IpAdapterAddressesLh() {
    super();
  }

  /** The adapter at {@code p}, read. */
  IpAdapterAddressesLh(Pointer p) {
    super(p);
    read();
  }

  int offsetOf(String field) {
    return fieldOffset(field);
  }

  /** {@code SOCKET_ADDRESS} (ws2def.h): {@code LPSOCKADDR lpSockaddr; INT iSockaddrLength;}, size 16 on x64. */
  @FieldOrder({"lpSockaddr", "iSockaddrLength"})
  public static final class SocketAddress extends Structure {
    public @Nullable Pointer lpSockaddr;
    public int iSockaddrLength;

    public SocketAddress() {
      super();
    }

    int offsetOf(String field) {
      return fieldOffset(field);
    }
  }

  /**
   * {@code IP_ADAPTER_UNICAST_ADDRESS_LH} (iptypes.h): size 64 on x64. The leading union is its two {@code ULONG}s
   * ({@code Length}, {@code Flags}).
   */
  @FieldOrder({
    "Length",
    "Flags",
    "Next",
    "Address",
    "PrefixOrigin",
    "SuffixOrigin",
    "DadState",
    "ValidLifetime",
    "PreferredLifetime",
    "LeaseLifetime",
    "OnLinkPrefixLength"
  })
  @SuppressWarnings("NullAway.Init") // JNA creates the nested structure
  public static final class Unicast extends Structure {
    public int Length;
    public int Flags;
    public @Nullable Pointer Next;
    public SocketAddress Address;
    public int PrefixOrigin;
    public int SuffixOrigin;
    public int DadState;
    public int ValidLifetime;
    public int PreferredLifetime;
    public int LeaseLifetime;
    public byte OnLinkPrefixLength;

    public Unicast() {
      super();
    }

    /** The entry at {@code p}, read. */
    Unicast(Pointer p) {
      super(p);
      read();
    }

    int offsetOf(String field) {
      return fieldOffset(field);
    }
  }

  /** {@code IP_ADAPTER_ANYCAST_ADDRESS_XP} (iptypes.h): size 32 on x64. */
  @FieldOrder({"Length", "Flags", "Next", "Address"})
  @SuppressWarnings("NullAway.Init") // JNA creates the nested structure
  public static final class Anycast extends Structure {
    public int Length;
    public int Flags;
    public @Nullable Pointer Next;
    public SocketAddress Address;

    public Anycast() {
      super();
    }

    /** The entry at {@code p}, read. */
    Anycast(Pointer p) {
      super(p);
      read();
    }

    int offsetOf(String field) {
      return fieldOffset(field);
    }
  }
}
