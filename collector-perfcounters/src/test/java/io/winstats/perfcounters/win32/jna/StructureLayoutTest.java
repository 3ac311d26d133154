package io.winstats.perfcounters.win32.jna;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Native;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The SCM structures against their x64 layouts, as winsvc.h declares them (Microsoft Learn: {@code
 * ENUM_SERVICE_STATUS_PROCESSW} = {@code LPWSTR lpServiceName; LPWSTR lpDisplayName; SERVICE_STATUS_PROCESS
 * ServiceStatusProcess;}, {@code SERVICE_STATUS_PROCESS} = nine {@code DWORD}s, {@code QUERY_SERVICE_CONFIGW} = {@code
 * DWORD dwServiceType, dwStartType, dwErrorControl; LPWSTR lpBinaryPathName, lpLoadOrderGroup; DWORD dwTagId; LPWSTR
 * lpDependencies, lpServiceStartName, lpDisplayName;}) under MSVC's natural alignment: pointers on 8, {@code DWORD}s on
 * 4, the size a multiple of the largest member's alignment. golang.org/x/sys/windows declares the same fields in the
 * same order (types_windows.go {@code ENUM_SERVICE_STATUS_PROCESS}, {@code QUERY_SERVICE_CONFIG}), which upstream
 * casts its buffers to (service.go:427,475@v0.31.8). JNA lays structures out the same way on Linux x86-64 and Windows
 * x64, so these run on any 64-bit host; none loads a DLL.
 */
@EnabledIf("pointersAre64Bit")
class StructureLayoutTest {

  static boolean pointersAre64Bit() {
    return Native.POINTER_SIZE == 8;
  }

  @Test
  void serviceStatusProcess() {
    EnumServiceStatusProcessW.Status s = new EnumServiceStatusProcessW.Status();
    assertThat(s.size()).isEqualTo(36);
    String[] fields = {
      "dwServiceType", "dwCurrentState", "dwControlsAccepted", "dwWin32ExitCode", "dwServiceSpecificExitCode",
      "dwCheckPoint", "dwWaitHint", "dwProcessId", "dwServiceFlags"
    };
    for (int i = 0; i < fields.length; i++) {
      assertThat(s.offsetOf(fields[i])).as(fields[i]).isEqualTo(4 * i);
    }
  }

  @Test
  void enumServiceStatusProcess() {
    EnumServiceStatusProcessW s = new EnumServiceStatusProcessW();
    assertThat(s.size()).as("52 bytes padded to 8").isEqualTo(56).isEqualTo(JnaServiceControlManager.ENUM_ITEM_SIZE);
    assertThat(s.offsetOf("lpServiceName")).isZero();
    assertThat(s.offsetOf("lpDisplayName")).isEqualTo(8);
    assertThat(s.offsetOf("ServiceStatusProcess")).isEqualTo(16);
  }

  @Test
  void queryServiceConfig() {
    QueryServiceConfigW s = new QueryServiceConfigW();
    assertThat(s.size()).isEqualTo(64);
    assertThat(s.offsetOf("dwServiceType")).isZero();
    assertThat(s.offsetOf("dwStartType")).isEqualTo(4);
    assertThat(s.offsetOf("dwErrorControl")).isEqualTo(8);
    assertThat(s.offsetOf("lpBinaryPathName")).as("a pointer after three DWORDs starts at 16").isEqualTo(16);
    assertThat(s.offsetOf("lpLoadOrderGroup")).isEqualTo(24);
    assertThat(s.offsetOf("dwTagId")).isEqualTo(32);
    assertThat(s.offsetOf("lpDependencies")).isEqualTo(40);
    assertThat(s.offsetOf("lpServiceStartName")).isEqualTo(48);
    assertThat(s.offsetOf("lpDisplayName")).isEqualTo(56);
  }
  /**
   * iptypes.h's {@code IP_ADAPTER_ADDRESSES_LH} on x64, 448 bytes: the offsets follow from its fields in order under
   * MSVC's natural alignment (Microsoft Learn, IP_ADAPTER_ADDRESSES_LH; golang.org/x/sys/windows {@code
   * IpAdapterAddresses} declares the same fields).
   */
  @Test
  void ipAdapterAddresses() {
    IpAdapterAddressesLh s = new IpAdapterAddressesLh();
    assertThat(s.size()).isEqualTo(448);
    Object[][] offsets = {
      {"Length", 0}, {"IfIndex", 4}, {"Next", 8}, {"AdapterName", 16}, {"FirstUnicastAddress", 24},
      {"FirstAnycastAddress", 32}, {"FirstMulticastAddress", 40}, {"FirstDnsServerAddress", 48}, {"DnsSuffix", 56},
      {"Description", 64}, {"FriendlyName", 72}, {"PhysicalAddress", 80}, {"PhysicalAddressLength", 88},
      {"Flags", 92}, {"Mtu", 96}, {"IfType", 100}, {"OperStatus", 104}, {"Ipv6IfIndex", 108}, {"ZoneIndices", 112},
      {"FirstPrefix", 176}, {"TransmitLinkSpeed", 184}, {"ReceiveLinkSpeed", 192}, {"FirstWinsServerAddress", 200},
      {"FirstGatewayAddress", 208}, {"Ipv4Metric", 216}, {"Ipv6Metric", 220}, {"Luid", 224}, {"Dhcpv4Server", 232},
      {"CompartmentId", 248}, {"NetworkGuid", 252}, {"ConnectionType", 268}, {"TunnelType", 272},
      {"Dhcpv6Server", 280}, {"Dhcpv6ClientDuid", 296}, {"Dhcpv6ClientDuidLength", 428}, {"Dhcpv6Iaid", 432},
      {"FirstDnsSuffix", 440}
    };
    for (Object[] o : offsets) {
      assertThat(s.offsetOf((String) o[0])).as((String) o[0]).isEqualTo(o[1]);
    }
  }

  @Test
  void socketAddress() {
    IpAdapterAddressesLh.SocketAddress s = new IpAdapterAddressesLh.SocketAddress();
    assertThat(s.size()).as("LPSOCKADDR and INT, padded to 8").isEqualTo(16);
    assertThat(s.offsetOf("iSockaddrLength")).isEqualTo(8);
  }

  @Test
  void unicastAndAnycastAddresses() {
    IpAdapterAddressesLh.Unicast u = new IpAdapterAddressesLh.Unicast();
    assertThat(u.size()).as("IP_ADAPTER_UNICAST_ADDRESS_LH: 57 bytes padded to 8").isEqualTo(64);
    assertThat(u.offsetOf("Next")).isEqualTo(8);
    assertThat(u.offsetOf("Address")).isEqualTo(16);
    assertThat(u.offsetOf("PrefixOrigin")).isEqualTo(32);
    assertThat(u.offsetOf("LeaseLifetime")).isEqualTo(52);
    assertThat(u.offsetOf("OnLinkPrefixLength")).isEqualTo(56);
    IpAdapterAddressesLh.Anycast a = new IpAdapterAddressesLh.Anycast();
    assertThat(a.size()).as("IP_ADAPTER_ANYCAST_ADDRESS_XP").isEqualTo(32);
    assertThat(a.offsetOf("Next")).isEqualTo(8);
    assertThat(a.offsetOf("Address")).isEqualTo(16);
  }

  /**
   * winioctl.h's {@code VOLUME_DISK_EXTENTS} and {@code DISK_EXTENT} on x64 (Microsoft Learn: {@code DWORD
   * NumberOfDiskExtents; DISK_EXTENT Extents[ANYSIZE_ARRAY];} and {@code DWORD DiskNumber; LARGE_INTEGER
   * StartingOffset; LARGE_INTEGER ExtentLength;}): the 8-byte {@code LARGE_INTEGER}s put the first extent at 8 and
   * each extent at 24 bytes, as upstream reads them (logical_disk.go:577-578,626@v0.31.8).
   */
  @Test
  void volumeDiskExtents() {
    VolumeDiskExtents.DiskExtent extent = new VolumeDiskExtents.DiskExtent();
    assertThat(extent.size()).isEqualTo(24).isEqualTo(JnaVolumeManagement.DISK_EXTENT_SIZE);
    assertThat(extent.offsetOf("DiskNumber")).isZero();
    assertThat(extent.offsetOf("StartingOffset")).isEqualTo(8);
    assertThat(extent.offsetOf("ExtentLength")).isEqualTo(16);

    VolumeDiskExtents extents = new VolumeDiskExtents();
    assertThat(extents.size()).as("one extent").isEqualTo(32);
    assertThat(extents.offsetOf("NumberOfDiskExtents")).isZero();
    assertThat(extents.offsetOf("Extents")).isEqualTo(8).isEqualTo(JnaVolumeManagement.EXTENTS_OFFSET);
  }

  /**
   * wdm.h's {@code RTL_OSVERSIONINFOEXW}: five {@code ULONG}s, {@code WCHAR szCSDVersion[128]}, three {@code USHORT}s
   * and two {@code UCHAR}s, 284 bytes on x86 and x64 alike (Microsoft Learn; golang.org/x/sys/windows {@code
   * OsVersionInfoEx}, which RtlGetVersion fills for upstream, osversion_windows.go:38@v0.31.8).
   */
  @Test
  void osVersionInfoEx() {
    OsVersionInfoExW s = new OsVersionInfoExW();
    assertThat(s.size()).isEqualTo(284);
    assertThat(s.dwOSVersionInfoSize).as("set to the size for the call").isEqualTo(284);
    Object[][] offsets = {
      {"dwOSVersionInfoSize", 0}, {"dwMajorVersion", 4}, {"dwMinorVersion", 8}, {"dwBuildNumber", 12},
      {"dwPlatformId", 16}, {"szCSDVersion", 20}, {"wServicePackMajor", 276}, {"wServicePackMinor", 278},
      {"wSuiteMask", 280}, {"wProductType", 282}, {"wReserved", 283}
    };
    for (Object[] o : offsets) {
      assertThat(s.offsetOf((String) o[0])).as((String) o[0]).isEqualTo(o[1]);
    }
  }
}
