package io.winstats.perfcounters.win32;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.LogicalDiskInfo;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.pdh.CapturingLogger;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/**
 * {@link VolumeReader} against {@link FakeVolumeManagement}: the labels of {@code windows_logical_disk_info} as
 * windows_exporter v0.31.8 makes them ({@code internal/collector/logical_disk/logical_disk.go:364-399,556-727@v0.31.8})
 * and each failure path upstream takes.
 */
class VolumeReaderTest {
  private final CapturingLogger log = new CapturingLogger();
  private final Map<NodePart, String> missing = new EnumMap<>(NodePart.class);

  private List<LogicalDiskInfo> read(FakeVolumeManagement fake, String... instances) {
    return new VolumeReader(fake, log).read(List.of(instances), missing);
  }

  @Test
  void eachInstanceIsLabelledFromItsVolume() {
    FakeVolumeManagement fake = FakeVolumeManagement.kubernetesNode();

    List<LogicalDiskInfo> infos = read(fake, "C:", "D:", "HarddiskVolume1", "HarddiskVolume4", "HarddiskVolume6");

    assertThat(infos)
        .containsExactly(
            new LogicalDiskInfo("C:", "0", "fixed", "Windows", "NTFS", "A1B2C3D"),
            new LogicalDiskInfo("D:", "1", "fixed", "Temporary Storage", "NTFS", "BEEF"),
            new LogicalDiskInfo("HarddiskVolume1", "0", "fixed", "", "FAT32", "5A3C11E0"),
            // %X of a uint32: a DWORD with its top bit set is not negative
            new LogicalDiskInfo("HarddiskVolume4", "0", "fixed", "Recovery", "NTFS", "F00DCAFE"),
            // extents on disks 10, 2 and 2: strings sorted, each once (logical_disk.go:625-630@v0.31.8)
            new LogicalDiskInfo("HarddiskVolume6", "10;2", "fixed", "data", "ReFS", "12345678"));
    assertThat(missing).isEmpty();
    assertThat(log.lines()).isEmpty();
  }

  @Test
  void aLetteredInstanceIsOpenedByItsGuidPathAnUnletteredOneByItsOwnName() {
    FakeVolumeManagement fake = FakeVolumeManagement.kubernetesNode();

    read(fake, "C:", "HarddiskVolume1");

    String c = "Volume{b1f3e0c2-0000-0000-0000-300000000000}";
    assertThat(fake.calls)
        .filteredOn(call -> !call.startsWith("GetVolumePathNames"))
        .containsExactly(
            "FindFirstVolumeW",
            "CreateFileW \\\\.\\" + c,
            "DeviceIoControl IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS",
            "GetDriveTypeW \\\\?\\" + c + "\\",
            "GetVolumeInformationW \\\\?\\" + c + "\\",
            "CreateFileW \\\\.\\HarddiskVolume1",
            "DeviceIoControl IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS",
            "GetDriveTypeW \\\\?\\HarddiskVolume1\\",
            "GetVolumeInformationW \\\\?\\HarddiskVolume1\\");
    assertThat(fake.calls).filteredOn(call -> call.startsWith("GetVolumePathNames")).hasSize(5);
  }

  @Test
  void onlyTheFirstMountPathMapsAVolume() {
    FakeVolumeManagement fake = new FakeVolumeManagement();
    fake.volume("11111111-0000-0000-0000-000000000000", "HarddiskVolume2")
        .paths("E:\\", "C:\\mnt\\e\\")
        .information("both", 1, "NTFS");

    Map<String, String> mounted = new VolumeReader(fake, log).mountedVolumes();

    assertThat(mounted).containsExactly(Map.entry("E:", "\\\\?\\Volume{11111111-0000-0000-0000-000000000000}"));
  }

  @Test
  void aVolumeThatCannotBeOpenedIsServedWithEmptyLabelsAndOneWarningPerChange() {
    FakeVolumeManagement fake = FakeVolumeManagement.kubernetesNode();
    fake.volume("22222222-0000-0000-0000-000000000000", "HarddiskVolume7")
        .paths("E:\\")
        .openFails(Win32Exception.ERROR_ACCESS_DENIED);
    VolumeReader reader = new VolumeReader(fake, log);

    List<LogicalDiskInfo> first = reader.read(List.of("C:", "E:"), missing);
    reader.read(List.of("C:", "E:"), missing);

    assertThat(first)
        .containsExactly(
            new LogicalDiskInfo("C:", "0", "fixed", "Windows", "NTFS", "A1B2C3D"), LogicalDiskInfo.unread("E:"));
    assertThat(missing).as("one volume is not the part").isEmpty();
    assertThat(log.at(Level.WARN))
        .containsExactly("event=volume_unreadable volume=E: error=\"CreateFileW failed: ERROR_ACCESS_DENIED\"");
  }

  @Test
  void anInstanceNoVolumeAnswersForIsServedWithEmptyLabels() {
    FakeVolumeManagement fake = FakeVolumeManagement.kubernetesNode();

    assertThat(read(fake, "HarddiskVolume9")).containsExactly(LogicalDiskInfo.unread("HarddiskVolume9"));
    assertThat(log.at(Level.WARN))
        .containsExactly(
            "event=volume_unreadable volume=HarddiskVolume9 error=\"CreateFileW failed: ERROR_FILE_NOT_FOUND\"");
  }

  @Test
  void extentsThatCannotBeReadOrNumberNoneLeaveEveryLabelButTheVolumeEmpty() {
    FakeVolumeManagement fake = new FakeVolumeManagement();
    fake.volume("33333333-0000-0000-0000-000000000000", "HarddiskVolume2")
        .paths("E:\\")
        .extentsFail(Win32Exception.ERROR_INVALID_FUNCTION);
    fake.volume("44444444-0000-0000-0000-000000000000", "HarddiskVolume3").paths("F:\\").disks();

    assertThat(read(fake, "E:", "F:")).containsExactly(LogicalDiskInfo.unread("E:"), LogicalDiskInfo.unread("F:"));
    assertThat(log.at(Level.WARN))
        .containsExactly(
            "event=volume_unreadable volume=E: error=\"DeviceIoControl failed: ERROR_INVALID_FUNCTION\"",
            "event=volume_unreadable volume=F: error=\"IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS returned no disk"
                + " extent\"");
    assertThat(fake.calls).as("no further call after the extents").noneMatch(c -> c.startsWith("GetDriveType"));
  }

  @Test
  void aDriveWithoutMediaIsServedWithEmptyLabelsSilentlyOnlyWhenRemovableOrCdrom() {
    FakeVolumeManagement fake = new FakeVolumeManagement();
    fake.volume("55555555-0000-0000-0000-000000000000", "CdRom0")
        .paths("E:\\")
        .driveType(VolumeManagement.DRIVE_CDROM)
        .informationFails(Win32Exception.ERROR_NOT_READY);
    fake.volume("66666666-0000-0000-0000-000000000000", "HarddiskVolume8")
        .paths("F:\\")
        .driveType(VolumeManagement.DRIVE_REMOVABLE)
        .informationFails(Win32Exception.ERROR_NOT_READY);
    fake.volume("77777777-0000-0000-0000-000000000000", "HarddiskVolume9")
        .paths("G:\\")
        .informationFails(Win32Exception.ERROR_NOT_READY);

    List<LogicalDiskInfo> infos = read(fake, "E:", "F:", "G:");

    // upstream returns the zero volumeInfo, its disk and type too, without an error (logical_disk.go:651-654@v0.31.8)
    assertThat(infos)
        .containsExactly(LogicalDiskInfo.unread("E:"), LogicalDiskInfo.unread("F:"), LogicalDiskInfo.unread("G:"));
    assertThat(log.at(Level.WARN))
        .containsExactly(
            "event=volume_unreadable volume=G: error=\"GetVolumeInformationW failed: ERROR_NOT_READY\"");
  }

  @Test
  void aVolumeThatRecoversIsLoggedOnce() {
    FakeVolumeManagement fake = new FakeVolumeManagement();
    FakeVolumeManagement.Volume e =
        fake.volume("88888888-0000-0000-0000-000000000000", "HarddiskVolume2")
            .paths("E:\\")
            .information("e", 0xE, "NTFS")
            .openFails(Win32Exception.ERROR_ACCESS_DENIED);
    VolumeReader reader = new VolumeReader(fake, log);
    reader.read(List.of("E:"), missing);

    e.openFails(0);
    List<LogicalDiskInfo> infos = reader.read(List.of("E:"), missing);
    reader.read(List.of("E:"), missing);

    assertThat(infos).containsExactly(new LogicalDiskInfo("E:", "0", "fixed", "e", "NTFS", "E"));
    assertThat(log.at(Level.INFO)).containsExactly("event=volume_recovered volume=E:");
  }

  @Test
  void aRemovedVolumeIsNotMappedAndItsInstanceIsOpenedByName() {
    FakeVolumeManagement fake = FakeVolumeManagement.kubernetesNode();
    fake.volume("99999999-0000-0000-0000-000000000000", "HarddiskVolume7").paths("E:\\").removed();

    List<LogicalDiskInfo> infos = read(fake, "C:", "E:");

    assertThat(infos).extracting(LogicalDiskInfo::disk).containsExactly("0", "");
    assertThat(fake.calls).contains("CreateFileW \\\\.\\E:");
    assertThat(missing).isEmpty();
  }

  @Test
  void aFailedEnumerationIsThePartsFailureAndRecovers() {
    FakeVolumeManagement fake = FakeVolumeManagement.kubernetesNode().findFails(Win32Exception.ERROR_ACCESS_DENIED);
    VolumeReader reader = new VolumeReader(fake, log);

    assertThat(reader.read(List.of("C:"), missing)).isEmpty();
    assertThat(missing).containsExactly(Map.entry(NodePart.VOLUMES, "FindFirstVolumeW failed: ERROR_ACCESS_DENIED"));
    assertThat(fake.calls).containsExactly("FindFirstVolumeW");

    fake.findFails(0).pathNamesFail(Win32Exception.ERROR_ACCESS_DENIED);
    Map<NodePart, String> second = new EnumMap<>(NodePart.class);
    assertThat(reader.read(List.of("C:"), second)).isEmpty();
    // upstream's collector fails on any error but ERROR_FILE_NOT_FOUND (logical_disk.go:699-717@v0.31.8)
    assertThat(second)
        .containsExactly(
            Map.entry(NodePart.VOLUMES, "GetVolumePathNamesForVolumeNameW failed: ERROR_ACCESS_DENIED"));

    fake.pathNamesFail(0);
    Map<NodePart, String> third = new EnumMap<>(NodePart.class);
    assertThat(reader.read(List.of("C:"), third)).hasSize(1);
    assertThat(third).isEmpty();
    assertThat(log.at(Level.WARN)).hasSize(2);
    assertThat(log.at(Level.INFO)).containsExactly("event=volumes_recovered");
  }

  @Test
  void noInstanceNoCall() {
    FakeVolumeManagement fake = FakeVolumeManagement.kubernetesNode();

    assertThat(read(fake)).isEmpty();
    assertThat(fake.calls).isEmpty();
  }

  @Test
  void driveTypesAreNamedAsUpstreamNamesThem() {
    assertThat(
            List.of(0, 1, 2, 3, 4, 5, 6, 7).stream().map(VolumeReader::driveType))
        .containsExactly("unknown", "norootdir", "removable", "fixed", "remote", "cdrom", "ramdisk", "unknown");
  }

  @Test
  void diskNumbersAreDecimalUnsignedSortedAsStringsAndDistinct() {
    assertThat(VolumeReader.disk(List.of(4_294_967_295L, 0L, 11L, 1L, 0L))).isEqualTo("0;1;11;4294967295");
  }
}
