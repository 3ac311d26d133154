package io.winstats.perfcounters.win32;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.HostName;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.WindowsOs;
import io.winstats.perfcounters.WindowsVersion;
import io.winstats.perfcounters.pdh.CapturingLogger;
import io.winstats.perfcounters.win32.FakeSystemInformation.Dword;
import io.winstats.perfcounters.win32.FakeSystemInformation.Qword;
import io.winstats.perfcounters.win32.FakeSystemInformation.Sz;
import io.winstats.perfcounters.win32.SystemInformation.OsVersionInfo;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;
import org.slf4j.helpers.NOPLogger;

/**
 * {@link OsReader} against {@link FakeSystemInformation}, held to windows_exporter v0.31.8's os collector ({@code
 * internal/collector/os/os.go:75-186@v0.31.8}, {@code internal/osversion/osversion_windows.go:37-65@v0.31.8}).
 */
class OsReaderTest {
  private static WindowsOs readOnce(FakeSystemInformation system, Map<NodePart, String> missing) {
    return new OsReader(system, NOPLogger.NOP_LOGGER).read(missing);
  }

  @Test
  void aWindowsServer2022NodeAsUpstreamLabelsIt() {
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);
    WindowsOs os = readOnce(FakeSystemInformation.windowsServer2022(), missing);

    assertThat(missing).isEmpty();
    assertThat(os.version()).isEqualTo(new WindowsVersion("Windows Server 2022 Datacenter", 10, 0, 20348, 2849));
    assertThat(os.version().version()).isEqualTo("10.0.20348");
    assertThat(os.hostName()).isEqualTo(new HostName("akswin000000", "", "akswin000000"));
  }

  @Test
  void readsExactlyWhatUpstreamReadsInItsOrder() {
    FakeSystemInformation system = FakeSystemInformation.windowsServer2022();
    readOnce(system, new EnumMap<>(NodePart.class));

    // os.go:173 ProductName, :178 UBR, :81 osversion.Get(); then :135,140,145 the three DNS formats.
    assertThat(system.calls)
        .containsExactly(
            "RegGetValueW ProductName",
            "RegGetValueW UBR",
            "RtlGetVersion",
            "GetComputerNameExW 1",
            "GetComputerNameExW 2",
            "GetComputerNameExW 3");
  }

  @Test
  void theReleaseIsReadOnceAndTheNamesWithEverySample() {
    FakeSystemInformation system = FakeSystemInformation.windowsServer2022();
    OsReader reader = new OsReader(system, NOPLogger.NOP_LOGGER);
    reader.read(new EnumMap<>(NodePart.class));
    system.calls.clear();
    system.value("UBR", new Dword(2966)).names("akswin000001", "");

    WindowsOs second = reader.read(new EnumMap<>(NodePart.class));

    assertThat(system.calls).as("no registry or RtlGetVersion call after the first read").allMatch(
        c -> c.startsWith("GetComputerNameExW"));
    assertThat(second.version().revision()).as("upstream reads it when the collector is built").isEqualTo(2849);
    assertThat(second.hostName().hostname()).isEqualTo("akswin000001");
  }

  @Test
  void aDomainMembersNames() {
    WindowsOs os =
        readOnce(FakeSystemInformation.windowsServer2022().names("win2022-n1", "corp.example.com"), new EnumMap<>(
            NodePart.class));

    assertThat(os.hostName()).isEqualTo(new HostName("win2022-n1", "corp.example.com", "win2022-n1.corp.example.com"));
  }

  /** os.go:83-86@v0.31.8: from build 22000 the first " 10 " of ProductName becomes " 11 ". */
  @Test
  void windows11KeepsWindows10InItsProductNameAndUpstreamRenamesIt() {
    FakeSystemInformation client =
        FakeSystemInformation.windowsServer2022()
            .version(new OsVersionInfo(10, 0, 22631))
            .value("ProductName", new Sz("Windows 10 Enterprise"))
            .value("UBR", new Dword(4460));
    assertThat(readOnce(client, new EnumMap<>(NodePart.class)).version())
        .isEqualTo(new WindowsVersion("Windows 11 Enterprise", 10, 0, 22631, 4460));

    FakeSystemInformation once =
        FakeSystemInformation.windowsServer2022()
            .version(new OsVersionInfo(10, 0, 22000))
            .value("ProductName", new Sz("Windows 10 Pro for Workstations 10 "));
    assertThat(readOnce(once, new EnumMap<>(NodePart.class)).version().product())
        .as("trimmed first, then only the first replaced")
        .isEqualTo("Windows 11 Pro for Workstations 10");

    FakeSystemInformation windows10 =
        FakeSystemInformation.windowsServer2022()
            .version(new OsVersionInfo(10, 0, 19045))
            .value("ProductName", new Sz("Windows 10 Pro"));
    assertThat(readOnce(windows10, new EnumMap<>(NodePart.class)).version().product()).isEqualTo("Windows 10 Pro");

    FakeSystemInformation server2025 =
        FakeSystemInformation.windowsServer2022()
            .version(new OsVersionInfo(10, 0, 26100))
            .value("ProductName", new Sz("Windows Server 2025 Datacenter"));
    assertThat(readOnce(server2025, new EnumMap<>(NodePart.class)).version().product())
        .isEqualTo("Windows Server 2025 Datacenter");
  }

  /** os.go:178-183@v0.31.8: no UBR is revision 0; GetIntegerValue takes a REG_DWORD or a REG_QWORD. */
  @Test
  void theRevisionIsZeroWithoutUbrAndAQwordIsRead() {
    assertThat(
            readOnce(FakeSystemInformation.windowsServer2022().delete("UBR"), new EnumMap<>(NodePart.class))
                .version()
                .revision())
        .isZero();
    assertThat(
            readOnce(
                    FakeSystemInformation.windowsServer2022().value("UBR", new Qword(0x1_0000_0001L)),
                    new EnumMap<>(NodePart.class))
                .version()
                .revision())
        .isEqualTo(0x1_0000_0001L);
    assertThat(
            readOnce(FakeSystemInformation.windowsServer2022().value("UBR", new Dword(-1)), new EnumMap<>(
                NodePart.class))
                .version()
                .revision())
        .as("a DWORD is unsigned")
        .isEqualTo(4_294_967_295L);
  }

  /** osversion_windows.go:40-43@v0.31.8 keeps the version in uint8, uint8 and uint16. */
  @Test
  void theVersionIsNarrowedAsUpstreamNarrowsIt() {
    WindowsVersion v =
        readOnce(
                FakeSystemInformation.windowsServer2022().version(new OsVersionInfo(0x10A, 0x101, 0x1_4F7C)),
                new EnumMap<>(NodePart.class))
            .version();
    assertThat(v.majorVersion()).isEqualTo(10);
    assertThat(v.minorVersion()).isEqualTo(1);
    assertThat(v.buildNumber()).isEqualTo(0x4F7C);
  }

  /** os.go:185@v0.31.8 strings.TrimSpace: Unicode's White_Space, the no-break space among them. */
  @Test
  void theProductNameIsTrimmedAsGoTrimsIt() {
    FakeSystemInformation system =
        FakeSystemInformation.windowsServer2022()
            .value("ProductName", new Sz("\u00a0\t Windows Server 2022 Standard \r\n"));
    assertThat(readOnce(system, new EnumMap<>(NodePart.class)).version().product())
        .isEqualTo("Windows Server 2022 Standard");
    assertThat(OsReader.trimSpace("\u001fx\u3000")).as("U+001F is no space to Go").isEqualTo("\u001fx");
  }

  @Test
  void aReleaseThatCannotBeReadLeavesTheNamesAndIsTriedAgain() {
    FakeSystemInformation system = FakeSystemInformation.windowsServer2022().delete("ProductName");
    OsReader reader = new OsReader(system, NOPLogger.NOP_LOGGER);
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);

    WindowsOs os = reader.read(missing);

    assertThat(os.version()).isNull();
    assertThat(os.hostName()).isNotNull();
    assertThat(missing).containsEntry(NodePart.OS, "RegGetValueW ProductName failed: ERROR_FILE_NOT_FOUND");

    system.value("ProductName", new Sz("Windows Server 2022 Datacenter"));
    Map<NodePart, String> later = new EnumMap<>(NodePart.class);
    assertThat(reader.read(later).version()).isNotNull();
    assertThat(later).isEmpty();
  }

  @Test
  void aUbrOfAnotherTypeFailsTheReleaseAsUpstreamsBuildFails() {
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);
    WindowsOs os = readOnce(FakeSystemInformation.windowsServer2022().value("UBR", new Sz("2849")), missing);

    assertThat(os.version()).isNull();
    assertThat(missing).containsEntry(NodePart.OS, "RegGetValueW UBR failed: ERROR_UNSUPPORTED_TYPE");
  }

  @Test
  void namesThatCannotBeReadLeaveTheRelease() {
    FakeSystemInformation system =
        FakeSystemInformation.windowsServer2022()
            .nameFails(SystemInformation.COMPUTER_NAME_DNS_DOMAIN, Win32Exception.ERROR_ACCESS_DENIED);
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);

    WindowsOs os = readOnce(system, missing);

    assertThat(os.hostName()).as("the first failure gives none (os.go:140-143)").isNull();
    assertThat(os.version()).isNotNull();
    assertThat(missing).containsEntry(NodePart.OS, "GetComputerNameExW failed: ERROR_ACCESS_DENIED");
    assertThat(system.calls).as("the fully qualified name is not asked after the domain failed")
        .doesNotContain("GetComputerNameExW 3");
  }

  @Test
  void oneWarningPerChangeOfFailureAndOneLineOnRecovery() {
    CapturingLogger log = new CapturingLogger();
    FakeSystemInformation system =
        FakeSystemInformation.windowsServer2022()
            .nameFails(SystemInformation.COMPUTER_NAME_DNS_HOSTNAME, Win32Exception.ERROR_ACCESS_DENIED);
    OsReader reader = new OsReader(system, log);

    reader.read(new EnumMap<>(NodePart.class));
    reader.read(new EnumMap<>(NodePart.class));
    system.nameFails(SystemInformation.COMPUTER_NAME_DNS_HOSTNAME, Win32Exception.ERROR_INVALID_PARAMETER);
    reader.read(new EnumMap<>(NodePart.class));
    system.nameFails(SystemInformation.COMPUTER_NAME_DNS_HOSTNAME, 0);
    reader.read(new EnumMap<>(NodePart.class));
    reader.read(new EnumMap<>(NodePart.class));

    assertThat(log.at(Level.WARN))
        .containsExactly(
            "event=os_unreadable error=\"GetComputerNameExW failed: ERROR_ACCESS_DENIED\"",
            "event=os_unreadable error=\"GetComputerNameExW failed: ERROR_INVALID_PARAMETER\"");
    assertThat(log.at(Level.INFO)).containsExactly("event=os_recovered");
  }
}
