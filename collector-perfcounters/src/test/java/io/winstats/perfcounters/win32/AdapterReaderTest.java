package io.winstats.perfcounters.win32;

import static io.winstats.perfcounters.win32.FakeIpHelper.ipv4;
import static io.winstats.perfcounters.win32.FakeIpHelper.ipv6;
import static io.winstats.perfcounters.win32.FakeIpHelper.mac;
import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.NetworkAdapter;
import io.winstats.perfcounters.NetworkAdapter.Address;
import io.winstats.perfcounters.NodePart;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.helpers.NOPLogger;

/**
 * {@link AdapterReader} against the fake IP Helper API, checked against windows_exporter v0.31.8's {@code
 * collectNICInfo} (internal/collector/net/net.go:423-513@v0.31.8) and, for addresses, Go's {@code net.IP}
 * ({@code IsGlobalUnicast}, {@code String}, src/net/ip.go and src/net/netip/netip.go, whose rules the expected
 * values follow).
 */
class AdapterReaderTest {

  @Test
  void eachAdapterLabelledByItsDescriptionWithItsGlobalUnicastAddressesWhenUp() {
    FakeIpHelper ipHelper = FakeIpHelper.kubernetesNode();
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);

    List<NetworkAdapter> adapters = new AdapterReader(ipHelper, NOPLogger.NOP_LOGGER).read(missing);

    assertThat(missing).isEmpty();
    assertThat(ipHelper.calls).as("AF_UNSPEC, GAA_FLAG_SKIP_MULTICAST | GAA_FLAG_SKIP_DNS_SERVER (net.go:527)")
        .containsExactly("GetAdaptersAddresses(0, 0xc)");
    assertThat(adapters).containsExactly(
        new NetworkAdapter("Microsoft Hyper-V Network Adapter", "Ethernet", "00:15:5D:3A:0B:01", 1,
            List.of(new Address("10.240.0.4", "ipv4"))),
        new NetworkAdapter("Hyper-V Virtual Ethernet Adapter _2", "vEthernet (Ethernet)", "00:15:5D:3A:0B:01", 1,
            List.of(new Address("2001:db8:0:1::4", "ipv6"), new Address("10.240.0.5", "ipv4"),
                new Address("10.240.0.100", "ipv4"))),
        new NetworkAdapter("Mellanox ConnectX-4 Lx Virtual Ethernet Adapter [Port 1]", "Ethernet 3",
            "00:0D:3A:C4:5E:2F", 2, List.of()),
        new NetworkAdapter("Software Loopback Interface 1", "Loopback Pseudo-Interface 1", "00:00:00:00:00:00", 1,
            List.of()),
        new NetworkAdapter("Teredo Tunneling Pseudo-Interface", "Teredo Tunneling Pseudo-Interface",
            "00:00:00:00:00:00", 6, List.of()));
  }

  @Test
  void anAdapterThatIsNotUpHasNoAddressesWhateverItsLists() {
    FakeIpHelper ipHelper = new FakeIpHelper();
    for (int status = 2; status <= 7; status++) {
      ipHelper.adapter("nic " + status, "n", mac(1, 2, 3, 4, 5, 6), status, List.of(ipv4(10, 0, 0, status)),
          List.of(ipv4(10, 0, 1, status)));
    }

    List<NetworkAdapter> adapters =
        new AdapterReader(ipHelper, NOPLogger.NOP_LOGGER).read(new EnumMap<>(NodePart.class));

    assertThat(adapters).hasSize(6).allSatisfy(a -> assertThat(a.addresses()).isEmpty());
    assertThat(adapters).extracting(NetworkAdapter::operStatus).containsExactly(2, 3, 4, 5, 6, 7);
  }

  @Test
  void aFailedCallIsTheMissingPartAndTheNextGoodCallRecovers() {
    FakeIpHelper ipHelper = FakeIpHelper.kubernetesNode().failing(Win32Exception.ERROR_BUFFER_OVERFLOW);
    AdapterReader reader = new AdapterReader(ipHelper, NOPLogger.NOP_LOGGER);
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);

    assertThat(reader.read(missing)).isEmpty();
    assertThat(missing).containsExactly(
        Map.entry(NodePart.NETWORK_ADAPTERS, "GetAdaptersAddresses failed: ERROR_BUFFER_OVERFLOW"));

    Map<NodePart, String> after = new EnumMap<>(NodePart.class);
    assertThat(reader.read(after)).isEmpty();
    ipHelper.failing(0);
    assertThat(reader.read(after)).hasSize(5);
    assertThat(after).containsOnlyKeys(NodePart.NETWORK_ADAPTERS);
  }

  @Test
  void socketAddressesDecodeOnlyWhenTheirLengthCoversTheirFamilysStructure() {
    assertThat(AdapterReader.ip(ipv4(10, 1, 2, 3))).containsExactly(10, 1, 2, 3);
    assertThat(AdapterReader.ip(ipv6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1, 0))).hasSize(16);
    byte[] shortInet = java.util.Arrays.copyOf(ipv4(10, 1, 2, 3).sockaddr(), 15);
    assertThat(AdapterReader.ip(new IpHelper.SocketAddress(shortInet))).as("SockaddrLength < 16").isNull();
    byte[] inet6AsInet = ipv6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1, 0).sockaddr();
    byte[] shortInet6 = java.util.Arrays.copyOf(inet6AsInet, 27);
    assertThat(AdapterReader.ip(new IpHelper.SocketAddress(shortInet6))).as("SockaddrLength < 28").isNull();
    byte[] otherFamily = ipv4(10, 1, 2, 3).sockaddr();
    otherFamily[0] = 17; // AF_NETBIOS
    assertThat(AdapterReader.ip(new IpHelper.SocketAddress(otherFamily))).isNull();
    assertThat(AdapterReader.ip(new IpHelper.SocketAddress(new byte[0]))).isNull();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "10.0.0.1, true",
    "8.8.8.8, true",
    "0.0.0.0, false",
    "255.255.255.255, false",
    "127.0.0.1, false",
    "224.0.0.1, false",
    "239.255.255.250, false",
    "169.254.1.1, false",
    "2001:db8::1, true",
    "fc00::1, true",
    "::, false",
    "::1, false",
    "ff02::1, false",
    "fe80::1, false",
    "febf::1, false",
    "fec0::1, true",
    "::ffff:127.0.0.1, false",
    "::ffff:10.0.0.1, true",
  })
  void globalUnicastAsGoDecidesIt(String address, boolean global) throws Exception {
    byte[] ip = java.net.InetAddress.getByName(address).getAddress();
    if (address.startsWith("::ffff:")) {
      ip = mapped(ip);
    }
    assertThat(AdapterReader.isGlobalUnicast(ip)).isEqualTo(global);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "10.240.0.4, 10.240.0.4",
    "2001:0db8:0000:0000:0000:0000:0000:0001, 2001:db8::1",
    "2001:db8:0:1:0:0:0:4, 2001:db8:0:1::4",
    "2001:0:0:1:0:0:0:1, 2001:0:0:1::1",
    "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",
    "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1",
    "0:0:0:0:0:0:0:1, ::1",
    "fe80:0:0:0:0:0:0:0, fe80::",
    "2001:DB8:ABCD:12:0:0:0:0, 2001:db8:abcd:12::",
  })
  void writtenAsGoWritesIt(String address, String written) throws Exception {
    assertThat(AdapterReader.format(java.net.InetAddress.getByName(address).getAddress())).isEqualTo(written);
  }

  @Test
  void anIpv4MappedAddressIsWrittenDotted() throws Exception {
    assertThat(AdapterReader.format(mapped(new byte[] {10, 0, 0, 1}))).isEqualTo("10.0.0.1");
  }

  /** {@code ::ffff:a.b.c.d} as 16 bytes (Java's InetAddress turns it into an Inet4Address). */
  private static byte[] mapped(byte[] v4) {
    byte[] ip = new byte[16];
    ip[10] = (byte) 0xFF;
    ip[11] = (byte) 0xFF;
    System.arraycopy(v4, 0, ip, 12, 4);
    return ip;
  }
}
