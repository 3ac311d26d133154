package io.winstats.perfcounters.win32;

import io.winstats.perfcounters.NetworkAdapter;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.win32.IpHelper.AdapterAddresses;
import io.winstats.perfcounters.win32.IpHelper.SocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The network adapters of a Windows node, read once per sample as windows_exporter v0.31.8's net collector reads them
 * on every scrape ({@code collectNICInfo}, {@code internal/collector/net/net.go:423-554@v0.31.8}): one {@code
 * GetAdaptersAddresses(AF_UNSPEC, GAA_FLAG_SKIP_MULTICAST | GAA_FLAG_SKIP_DNS_SERVER)}, each adapter labelled by its
 * description with {@code (} {@code )} {@code #} written {@code [} {@code ]} {@code _}, and, for an adapter that is
 * up, its unicast then anycast addresses that Go's {@code net.IP.IsGlobalUnicast} accepts, written as Go's {@code
 * net.IP.String} writes them. The daemon has no NIC filter, so every adapter is kept, as upstream's default {@code
 * --collector.net.nic-include=.+} keeps them.
 *
 * <p><b>Failure</b>: a failed call fails the whole part ({@link NodePart#NETWORK_ADAPTERS} missing, one WARN line per
 * change of failure, one INFO line on recovery), as upstream's collector returns the error for all of its NIC series.
 *
 * <p>Not thread-safe: one sampling thread.
 */
public final class AdapterReader {
  /** The flags upstream passes (net.go:527@v0.31.8). */
  static final int FLAGS = IpHelper.GAA_FLAG_SKIP_MULTICAST | IpHelper.GAA_FLAG_SKIP_DNS_SERVER;

  private static final int SOCKADDR_IN_SIZE = 16;
  private static final int SOCKADDR_IN6_SIZE = 28;

  private final IpHelper ipHelper;
  private final PartRead part;

  public AdapterReader(IpHelper ipHelper, Logger log) {
    this.ipHelper = Objects.requireNonNull(ipHelper, "ipHelper");
    this.part = new PartRead(NodePart.NETWORK_ADAPTERS, "network_adapters", log);
  }

  /**
   * The adapters; on a failed call an empty list and {@link NodePart#NETWORK_ADAPTERS} put in {@code missing} with the
   * reason.
   */
  public List<NetworkAdapter> read(Map<NodePart, String> missing) {
    return part.read(
        () -> {
          List<NetworkAdapter> adapters = new ArrayList<>();
          for (AdapterAddresses a : ipHelper.getAdaptersAddresses(IpHelper.AF_UNSPEC, FLAGS)) {
            adapters.add(adapter(a));
          }
          return adapters;
        },
        missing);
  }

  /** One adapter as upstream labels it (net.go:431-509@v0.31.8). */
  static NetworkAdapter adapter(AdapterAddresses a) {
    String nic = a.description().replace('(', '[').replace(')', ']').replace('#', '_');
    byte[] physical = a.physicalAddress();
    String mac =
        String.format(
            Locale.ROOT,
            "%02X:%02X:%02X:%02X:%02X:%02X",
            physical[0],
            physical[1],
            physical[2],
            physical[3],
            physical[4],
            physical[5]);
    List<NetworkAdapter.Address> addresses = new ArrayList<>();
    if (a.operStatus() == NetworkAdapter.OperStatus.UP.code()) {
      for (List<SocketAddress> list : List.of(a.unicast(), a.anycast())) {
        for (SocketAddress s : list) {
          byte[] ip = ip(s);
          if (ip != null && isGlobalUnicast(ip)) {
            addresses.add(new NetworkAdapter.Address(format(ip), s.family() == IpHelper.AF_INET ? "ipv4" : "ipv6"));
          }
        }
      }
    }
    return new NetworkAdapter(nic, a.friendlyName(), mac, a.operStatus(), addresses);
  }

  /**
   * golang.org/x/sys/windows {@code SocketAddress.IP}: the 4 address bytes of a {@code SOCKADDR_IN}, the 16 of a
   * {@code SOCKADDR_IN6}, each only when the length covers that structure; otherwise {@code null}.
   */
  static byte @Nullable [] ip(SocketAddress s) {
    byte[] b = s.sockaddr();
    if (b.length >= SOCKADDR_IN_SIZE && s.family() == IpHelper.AF_INET) {
      return Arrays.copyOfRange(b, 4, 8);
    }
    if (b.length >= SOCKADDR_IN6_SIZE && s.family() == IpHelper.AF_INET6) {
      return Arrays.copyOfRange(b, 8, 24);
    }
    return null;
  }

  /** Go's {@code net.IP.To4}: the four bytes of an IPv4 or IPv4-mapped IPv6 address, else {@code null}. */
  private static byte @Nullable [] to4(byte[] ip) {
    if (ip.length == 4) {
      return ip;
    }
    for (int i = 0; i < 10; i++) {
      if (ip[i] != 0) {
        return null;
      }
    }
    return ip[10] == (byte) 0xFF && ip[11] == (byte) 0xFF ? Arrays.copyOfRange(ip, 12, 16) : null;
  }

  /**
   * Go's {@code net.IP.IsGlobalUnicast}: not the IPv4 broadcast, unspecified, loopback, multicast or link-local
   * unicast address (private ranges are global unicast to Go).
   */
  static boolean isGlobalUnicast(byte[] ip) {
    byte[] v4 = to4(ip);
    if (v4 != null) {
      int a = v4[0] & 0xFF;
      int b = v4[1] & 0xFF;
      boolean broadcast = (v4[0] & v4[1] & v4[2] & v4[3]) == (byte) 0xFF;
      boolean unspecified = (v4[0] | v4[1] | v4[2] | v4[3]) == 0;
      return !broadcast && !unspecified && a != 127 && (a & 0xF0) != 0xE0 && !(a == 169 && b == 254);
    }
    boolean unspecified = true;
    boolean loopback = ip[15] == 1;
    for (int i = 0; i < 16; i++) {
      unspecified &= ip[i] == 0;
      loopback &= i == 15 || ip[i] == 0;
    }
    int first = ip[0] & 0xFF;
    boolean linkLocal = first == 0xFE && (ip[1] & 0xC0) == 0x80;
    return !unspecified && !loopback && first != 0xFF && !linkLocal;
  }

  /**
   * Go's {@code net.IP.String}: dotted decimal for an IPv4 (or IPv4-mapped) address; otherwise eight lower-case hex
   * groups without leading zeros, the first longest run of two or more zero groups written {@code ::}.
   */
  static String format(byte[] ip) {
    byte[] v4 = to4(ip);
    if (v4 != null) {
      return (v4[0] & 0xFF) + "." + (v4[1] & 0xFF) + "." + (v4[2] & 0xFF) + "." + (v4[3] & 0xFF);
    }
    int[] groups = new int[8];
    for (int i = 0; i < 8; i++) {
      groups[i] = (ip[2 * i] & 0xFF) << 8 | (ip[2 * i + 1] & 0xFF);
    }
    int zeroStart = -1;
    int zeroEnd = -1;
    for (int i = 0; i < 8; i++) {
      int j = i;
      while (j < 8 && groups[j] == 0) {
        j++;
      }
      if (j - i >= 2 && j - i > zeroEnd - zeroStart) {
        zeroStart = i;
        zeroEnd = j;
      }
    }
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == zeroStart) {
        s.append("::");
        i = zeroEnd;
        if (i >= 8) {
          break;
        }
      } else if (i > 0) {
        s.append(':');
      }
      s.append(Integer.toHexString(groups[i]));
    }
    return s.toString();
  }
}
