package io.winstats.perfcounters.win32;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The IP Helper API in memory, answering {@code GetAdaptersAddresses} as Microsoft Learn documents {@code
 * IP_ADAPTER_ADDRESSES_LH} (iptypes.h): the adapter's {@code Description} and {@code FriendlyName}, its eight-byte
 * {@code PhysicalAddress} with {@code PhysicalAddressLength} bytes used (0 for the loopback pseudo-interface), its
 * {@code OperStatus} ({@code IF_OPER_STATUS}, ifdef.h), and its unicast and anycast lists' {@code SOCKET_ADDRESS}es as
 * ws2def.h/ws2ipdef.h lay out a {@code SOCKADDR_IN} (16 bytes: family, big-endian port, address, eight zero bytes)
 * and a {@code SOCKADDR_IN6} (28 bytes: family, port, flow info, address, scope id). A failure is the code the call
 * would return. Adapters are answered in the order added. The values of {@link #kubernetesNode()} are those of a
 * typical Windows Server 2022 Kubernetes node on Hyper-V with the HNS networks, made up, not captured.
 */
public final class FakeIpHelper implements IpHelper {
  private final List<AdapterAddresses> adapters = new ArrayList<>();
  private int error;
  public final List<String> calls = new ArrayList<>();

  /** Adds an adapter. */
  public FakeIpHelper adapter(
      String description,
      String friendlyName,
      byte[] mac,
      int operStatus,
      List<SocketAddress> unicast,
      List<SocketAddress> anycast) {
    adapters.add(
        new AdapterAddresses(
            description, friendlyName, Arrays.copyOf(mac, 8), mac.length, operStatus, unicast, anycast));
    return this;
  }

  /** Makes every call fail with {@code code}, or succeed again with 0. */
  public FakeIpHelper failing(int code) {
    this.error = code;
    return this;
  }

  /**
   * A Kubernetes node: the host's Hyper-V adapter and its HNS vEthernet twin, a Mellanox adapter that is down, the
   * loopback pseudo-interface, and a Teredo tunnel that is not present.
   */
  public static FakeIpHelper kubernetesNode() {
    return new FakeIpHelper()
        .adapter(
            "Microsoft Hyper-V Network Adapter",
            "Ethernet",
            mac(0x00, 0x15, 0x5D, 0x3A, 0x0B, 0x01),
            1,
            List.of(ipv6(0xfe80, 0, 0, 0, 0x1c2d, 0x3e4f, 0x5a6b, 0x7c8d, 5), ipv4(10, 240, 0, 4)),
            List.of())
        .adapter(
            "Hyper-V Virtual Ethernet Adapter #2",
            "vEthernet (Ethernet)",
            mac(0x00, 0x15, 0x5D, 0x3A, 0x0B, 0x01),
            1,
            List.of(
                ipv6(0x2001, 0x0db8, 0, 0x0001, 0, 0, 0, 0x0004, 0),
                ipv6(0xfe80, 0, 0, 0, 0x2c3d, 0x4e5f, 0x6a7b, 0x8c9d, 12),
                ipv4(169, 254, 12, 7),
                ipv4(10, 240, 0, 5)),
            List.of(ipv4(10, 240, 0, 100)))
        .adapter(
            "Mellanox ConnectX-4 Lx Virtual Ethernet Adapter (Port 1)",
            "Ethernet 3",
            mac(0x00, 0x0D, 0x3A, 0xC4, 0x5E, 0x2F),
            2,
            List.of(ipv4(10, 1, 2, 3)),
            List.of())
        .adapter(
            "Software Loopback Interface 1",
            "Loopback Pseudo-Interface 1",
            mac(),
            1,
            List.of(ipv6(0, 0, 0, 0, 0, 0, 0, 1, 0), ipv4(127, 0, 0, 1)),
            List.of())
        .adapter(
            "Teredo Tunneling Pseudo-Interface",
            "Teredo Tunneling Pseudo-Interface",
            mac(0, 0, 0, 0, 0, 0, 0, 0xE0),
            6,
            List.of(),
            List.of());
  }

  @Override
  public List<AdapterAddresses> getAdaptersAddresses(int family, int flags) {
    calls.add("GetAdaptersAddresses(" + family + ", 0x" + Integer.toHexString(flags) + ")");
    if (error != 0) {
      throw new Win32Exception("GetAdaptersAddresses", error);
    }
    return List.copyOf(adapters);
  }

  /** The bytes of a MAC address (or of any {@code PhysicalAddress}). */
  public static byte[] mac(int... bytes) {
    byte[] b = new byte[bytes.length];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) bytes[i];
    }
    return b;
  }

  /** A {@code SOCKADDR_IN}: {@code AF_INET} (2) little-endian, port 0, the address, {@code sin_zero}. */
  public static SocketAddress ipv4(int a, int b, int c, int d) {
    byte[] s = new byte[16];
    s[0] = 2;
    s[4] = (byte) a;
    s[5] = (byte) b;
    s[6] = (byte) c;
    s[7] = (byte) d;
    return new SocketAddress(s);
  }

  /** A {@code SOCKADDR_IN6}: {@code AF_INET6} (23), port 0, flow info 0, eight big-endian groups, the scope id. */
  public static SocketAddress ipv6(int g0, int g1, int g2, int g3, int g4, int g5, int g6, int g7, int scopeId) {
    byte[] s = new byte[28];
    s[0] = 23;
    int[] groups = {g0, g1, g2, g3, g4, g5, g6, g7};
    for (int i = 0; i < 8; i++) {
      s[8 + 2 * i] = (byte) (groups[i] >> 8);
      s[9 + 2 * i] = (byte) groups[i];
    }
    s[24] = (byte) scopeId;
    return new SocketAddress(s);
  }
}
