package io.winstats.perfcounters.win32;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The narrow port to the IP Helper API's {@code GetAdaptersAddresses} (iphlpapi.h), in Java terms: the records carry
 * the fields of {@code IP_ADAPTER_ADDRESSES_LH} the net collector reads, as Microsoft Learn documents them, strings
 * decoded and linked lists walked.
 *
 * <p>Every failure is a {@link Win32Exception} naming the function and its returned code. Implementations may be
 * called from one thread at a time.
 */
public interface IpHelper {
  /** {@code AF_UNSPEC} (ws2def.h): IPv4 and IPv6 addresses. */
  int AF_UNSPEC = 0;
  /** {@code AF_INET}. */
  int AF_INET = 2;
  /** {@code AF_INET6}. */
  int AF_INET6 = 23;
  /** {@code GAA_FLAG_SKIP_MULTICAST} (iptypes.h). */
  int GAA_FLAG_SKIP_MULTICAST = 0x0004;
  /** {@code GAA_FLAG_SKIP_DNS_SERVER}. */
  int GAA_FLAG_SKIP_DNS_SERVER = 0x0008;

  /**
   * {@code SOCKET_ADDRESS} (ws2def.h): the {@code iSockaddrLength} bytes {@code lpSockaddr} points to; a {@code
   * SOCKADDR} begins with its {@code u16} family, a {@code SOCKADDR_IN}'s address is at byte 4, a {@code
   * SOCKADDR_IN6}'s at byte 8.
   */
  @SuppressWarnings("ArrayRecordComponent") // the bytes as Windows wrote them; copied in and out, compared by value
  record SocketAddress(byte[] sockaddr) {
    public SocketAddress {
      sockaddr = sockaddr.clone();
    }

    @Override
    public byte[] sockaddr() {
      return sockaddr.clone();
    }

    /** {@code sa_family}, little-endian; -1 when shorter than two bytes. */
    public int family() {
      return sockaddr.length < 2 ? -1 : (sockaddr[0] & 0xFF) | (sockaddr[1] & 0xFF) << 8;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof SocketAddress other && Arrays.equals(sockaddr, other.sockaddr);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(sockaddr);
    }

    @Override
    public String toString() {
      return "SocketAddress" + Arrays.toString(sockaddr);
    }
  }

  /**
   * The fields of one {@code IP_ADAPTER_ADDRESSES_LH} the net collector reads (net.go:431-509@v0.31.8).
   *
   * @param physicalAddress the eight bytes of {@code PhysicalAddress}, whatever {@code PhysicalAddressLength} says
   * @param unicast the {@code FirstUnicastAddress} list's {@code Address}es, in list order
   * @param anycast the {@code FirstAnycastAddress} list's, likewise
   */
  @SuppressWarnings("ArrayRecordComponent") // likewise
  record AdapterAddresses(
      String description,
      String friendlyName,
      byte[] physicalAddress,
      int physicalAddressLength,
      int operStatus,
      List<SocketAddress> unicast,
      List<SocketAddress> anycast) {
    public AdapterAddresses {
      Objects.requireNonNull(description, "description");
      Objects.requireNonNull(friendlyName, "friendlyName");
      if (physicalAddress.length != 8) {
        throw new IllegalArgumentException("PhysicalAddress is BYTE[8], not " + physicalAddress.length);
      }
      physicalAddress = physicalAddress.clone();
      unicast = List.copyOf(unicast);
      anycast = List.copyOf(anycast);
    }

    @Override
    public byte[] physicalAddress() {
      return physicalAddress.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof AdapterAddresses a
          && description.equals(a.description)
          && friendlyName.equals(a.friendlyName)
          && Arrays.equals(physicalAddress, a.physicalAddress)
          && physicalAddressLength == a.physicalAddressLength
          && operStatus == a.operStatus
          && unicast.equals(a.unicast)
          && anycast.equals(a.anycast);
    }

    @Override
    public int hashCode() {
      return Objects.hash(description, friendlyName, Arrays.hashCode(physicalAddress), operStatus, unicast, anycast);
    }

    @Override
    public String toString() {
      return "AdapterAddresses[" + description + ", " + friendlyName + ", " + Arrays.toString(physicalAddress) + "/"
          + physicalAddressLength + ", oper " + operStatus + ", " + unicast + ", " + anycast + "]";
    }
  }

  /**
   * {@code GetAdaptersAddresses(family, flags, NULL, buffer, &size)}, the buffer grown while the call answers {@code
   * ERROR_BUFFER_OVERFLOW} with a larger size (net.go:519-554@v0.31.8): the adapters in the order of the {@code Next}
   * list.
   */
  List<AdapterAddresses> getAdaptersAddresses(int family, int flags);
}
