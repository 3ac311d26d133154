package io.winstats.perfcounters.win32.jna;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.platform.win32.WinBase;
import com.sun.jna.platform.win32.WinNT;
import com.sun.jna.ptr.IntByReference;
import io.winstats.perfcounters.win32.VolumeManagement.VolumeInformation;
import io.winstats.perfcounters.win32.Win32Exception;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * {@link JnaVolumeManagement} on any 64-bit host: a scripted stand-in for the kernel32 functions it calls through
 * jna-platform's {@code Kernel32} ({@link ScriptedKernel32}) answers as Microsoft Learn documents each function:
 * strings written into the caller's {@code char[]}, {@code INVALID_HANDLE_VALUE} or {@code FALSE} with a last error,
 * {@code ERROR_MORE_DATA} with the length needed, and the {@code VOLUME_DISK_EXTENTS} written into the native buffer at
 * its x64 offsets (count at 0, extent {@code i}'s {@code DiskNumber} at 8 + 24 i; written by offset, independently of
 * the Structure class). Nothing loads kernel32.dll; {@code VolumeFunctions.of}, the one-line delegations to {@code
 * Kernel32.INSTANCE}, runs only on Windows.
 */
@EnabledIf("pointersAre64Bit")
class JnaVolumeManagementTest {
  static boolean pointersAre64Bit() {
    return Native.POINTER_SIZE == 8;
  }

  static final WinNT.HANDLE FIND = new WinNT.HANDLE(new Pointer(0x1000));
  static final WinNT.HANDLE VOLUME = new WinNT.HANDLE(new Pointer(0x2000));

  /** kernel32.dll as the test scripts it. */
  static final class ScriptedKernel32 implements JnaVolumeManagement.VolumeFunctions {
    final List<String> calls = new ArrayList<>();
    final List<String> volumes = new ArrayList<>();
    int nextVolume;
    int lastError;
    int findFirstError;
    int findNextError;
    /** The multi-string GetVolumePathNamesForVolumeNameW answers, its NULs included. */
    String pathNames = "\0";
    int pathNamesError;
    /** The length an ERROR_MORE_DATA answers; by default the length needed. */
    @Nullable Integer moreDataLength;
    int createError;
    List<Integer> extents = List.of();
    int ioctlError;
    final List<Integer> ioctlSizes = new ArrayList<>();
    int informationError;

    @Override
    public WinNT.HANDLE FindFirstVolume(char[] name, int length) {
      calls.add("FindFirstVolume " + length);
      assertThat(length).as("characters, MAX_PATH + 1").isEqualTo(name.length).isEqualTo(261);
      if (findFirstError != 0 || volumes.isEmpty()) {
        lastError = findFirstError != 0 ? findFirstError : 18;
        return WinBase.INVALID_HANDLE_VALUE;
      }
      nextVolume = 1;
      write(volumes.get(0) + "\0", name);
      return FIND;
    }

    @Override
    public boolean FindNextVolume(WinNT.HANDLE find, char[] name, int length) {
      calls.add("FindNextVolume");
      assertThat(find).isEqualTo(FIND);
      if (findNextError != 0 && nextVolume == volumes.size() - 1) {
        lastError = findNextError;
        return false;
      }
      if (nextVolume >= volumes.size()) {
        lastError = 18; // ERROR_NO_MORE_FILES
        return false;
      }
      write(volumes.get(nextVolume++) + "\0", name);
      return true;
    }

    @Override
    public boolean FindVolumeClose(WinNT.HANDLE find) {
      calls.add("FindVolumeClose");
      assertThat(find).isEqualTo(FIND);
      return true;
    }

    @Override
    public boolean GetVolumePathNamesForVolumeName(
        String volumeName, char[] paths, int length, IntByReference returned) {
      calls.add("GetVolumePathNamesForVolumeName " + volumeName + " " + length);
      assertThat(length).isEqualTo(paths.length);
      if (pathNamesError != 0) {
        lastError = pathNamesError;
        return false;
      }
      if (length < pathNames.length()) {
        returned.setValue(moreDataLength == null ? pathNames.length() : moreDataLength);
        lastError = 234; // ERROR_MORE_DATA
        return false;
      }
      write(pathNames, paths);
      returned.setValue(pathNames.length());
      return true;
    }

    @Override
    public WinNT.HANDLE CreateFile(
        String path,
        int access,
        int share,
        WinBase.@Nullable SECURITY_ATTRIBUTES security,
        int disposition,
        int flags,
        WinNT.@Nullable HANDLE template) {
      calls.add("CreateFile " + path);
      assertThat(access).as("no access right").isZero();
      assertThat(share).as("FILE_SHARE_READ | WRITE | DELETE").isEqualTo(7);
      assertThat(security).isNull();
      assertThat(disposition).as("OPEN_EXISTING").isEqualTo(3);
      assertThat(flags).as("FILE_ATTRIBUTE_READONLY").isEqualTo(1);
      assertThat(template).isNull();
      if (createError != 0) {
        lastError = createError;
        return WinBase.INVALID_HANDLE_VALUE;
      }
      return VOLUME;
    }

    @Override
    public boolean DeviceIoControl(
        WinNT.HANDLE device,
        int code,
        @Nullable Pointer in,
        int inSize,
        Pointer out,
        int outSize,
        IntByReference returned,
        @Nullable Pointer overlapped) {
      calls.add("DeviceIoControl");
      assertThat(device).isEqualTo(VOLUME);
      assertThat(code).as("IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS").isEqualTo(0x560000);
      assertThat(in).isNull();
      assertThat(inSize).isZero();
      assertThat(overlapped).isNull();
      ioctlSizes.add(outSize);
      if (ioctlError != 0) {
        lastError = ioctlError;
        return false;
      }
      if (outSize < 32) {
        lastError = 122; // ERROR_INSUFFICIENT_BUFFER: not even one VOLUME_DISK_EXTENTS
        return false;
      }
      out.setInt(0, extents.size());
      int needed = 8 + 24 * extents.size();
      if (outSize < needed) {
        returned.setValue(32);
        out.setInt(8, extents.get(0));
        lastError = 234; // ERROR_MORE_DATA, the count written
        return false;
      }
      for (int i = 0; i < extents.size(); i++) {
        out.setInt(8 + 24L * i, extents.get(i));
        out.setLong(16 + 24L * i, 1_048_576L * (i + 1)); // StartingOffset
        out.setLong(24 + 24L * i, 1L << 40); // ExtentLength
      }
      returned.setValue(needed);
      return true;
    }

    @Override
    public boolean CloseHandle(WinNT.HANDLE handle) {
      calls.add("CloseHandle");
      assertThat(handle).isEqualTo(VOLUME);
      return true;
    }

    @Override
    public int GetDriveType(String root) {
      calls.add("GetDriveType " + root);
      return 3;
    }

    @Override
    public boolean GetVolumeInformation(
        String root,
        char[] label,
        int labelLength,
        IntByReference serial,
        IntByReference maxComponentLength,
        IntByReference flags,
        char[] fileSystem,
        int fileSystemLength) {
      calls.add("GetVolumeInformation " + root);
      assertThat(labelLength).isEqualTo(label.length).isEqualTo(261);
      assertThat(fileSystemLength).isEqualTo(fileSystem.length).isEqualTo(261);
      if (informationError != 0) {
        lastError = informationError;
        return false;
      }
      write("Windows\0", label);
      write("NTFS\0", fileSystem);
      serial.setValue(0xF00DCAFE);
      maxComponentLength.setValue(255);
      flags.setValue(0x0008_0000 | 0xFF);
      return true;
    }

    private static void write(String s, char[] buffer) {
      s.getChars(0, s.length(), buffer, 0);
    }
  }

  private final ScriptedKernel32 kernel32 = new ScriptedKernel32();

  private JnaVolumeManagement volumes(int extentsBuffer) {
    return new JnaVolumeManagement(() -> kernel32, () -> kernel32.lastError, extentsBuffer);
  }

  @Test
  void findVolumesWalksTheEnumerationToNoMoreFilesAndClosesIt() {
    kernel32.volumes.addAll(
        List.of("\\\\?\\Volume{aaaaaaaa-0000-0000-0000-000000000001}\\", "\\\\?\\Volume{bb}\\", "\\\\?\\Volume{c}\\"));

    List<String> found = volumes(JnaVolumeManagement.INITIAL_EXTENTS_BUFFER).findVolumes();

    assertThat(found).containsExactlyElementsOf(kernel32.volumes);
    assertThat(kernel32.calls)
        .containsExactly(
            "FindFirstVolume 261", "FindNextVolume", "FindNextVolume", "FindNextVolume", "FindVolumeClose");
  }

  @Test
  void aFailedFindIsItsCallsErrorAndAFailedNextStillCloses() {
    kernel32.volumes.addAll(List.of("\\\\?\\Volume{a}\\", "\\\\?\\Volume{b}\\"));
    kernel32.findFirstError = Win32Exception.ERROR_ACCESS_DENIED;
    assertThatThrownBy(() -> volumes(64).findVolumes())
        .isInstanceOf(Win32Exception.class)
        .hasMessage("FindFirstVolumeW failed: ERROR_ACCESS_DENIED");

    kernel32.findFirstError = 0;
    kernel32.findNextError = 21;
    kernel32.calls.clear();
    assertThatThrownBy(() -> volumes(64).findVolumes()).hasMessage("FindNextVolumeW failed: ERROR_NOT_READY");
    assertThat(kernel32.calls).endsWith("FindVolumeClose");
  }

  @Test
  void volumePathNamesSplitsTheMultiStringAndGrowsOnMoreData() {
    String many = "C:\\mnt\\" + "x".repeat(300) + "\\";
    kernel32.pathNames = "E:\\\0" + many + "\0\0";
    JnaVolumeManagement volumes = volumes(64);

    assertThat(volumes.volumePathNames("\\\\?\\Volume{e}\\")).containsExactly("E:\\", many);
    assertThat(kernel32.calls)
        .containsExactly(
            "GetVolumePathNamesForVolumeName \\\\?\\Volume{e}\\ 261",
            "GetVolumePathNamesForVolumeName \\\\?\\Volume{e}\\ " + kernel32.pathNames.length());

    kernel32.pathNames = "\0";
    assertThat(volumes.volumePathNames("\\\\?\\Volume{u}\\")).as("not mounted").isEmpty();
  }

  @Test
  void moreDataThatAsksForNoMoreRoomAndOtherErrorsFail() {
    kernel32.pathNames = "E:\\\0" + "F".repeat(400) + "\0\0";
    kernel32.moreDataLength = 261;
    assertThatThrownBy(() -> volumes(64).volumePathNames("\\\\?\\Volume{e}\\"))
        .hasMessage("GetVolumePathNamesForVolumeNameW failed: ERROR_MORE_DATA");

    kernel32.pathNamesError = Win32Exception.ERROR_FILE_NOT_FOUND;
    assertThatThrownBy(() -> volumes(64).volumePathNames("\\\\?\\Volume{e}\\"))
        .isInstanceOfSatisfying(
            Win32Exception.class, e -> assertThat(e.errorCode()).isEqualTo(Win32Exception.ERROR_FILE_NOT_FOUND));
  }

  @Test
  void diskNumbersReadsEachExtentAndClosesTheVolume() {
    kernel32.extents = List.of(2, 10, 0xFFFF_FFFF);

    List<Long> disks = volumes(JnaVolumeManagement.INITIAL_EXTENTS_BUFFER).diskNumbers("\\\\.\\Volume{v}");

    assertThat(disks).containsExactly(2L, 10L, 4_294_967_295L);
    assertThat(kernel32.ioctlSizes).containsExactly(16 * 1024);
    assertThat(kernel32.calls).containsExactly("CreateFile \\\\.\\Volume{v}", "DeviceIoControl", "CloseHandle");
  }

  @Test
  void diskNumbersGrowsTheBufferToTheCountAMoreDataAnswerWrote() {
    kernel32.extents = List.of(4, 5, 6);
    JnaVolumeManagement volumes = volumes(32);

    assertThat(volumes.diskNumbers("\\\\.\\C:")).containsExactly(4L, 5L, 6L);
    assertThat(kernel32.ioctlSizes).containsExactly(32, 8 + 3 * 24);
    assertThat(volumes.diskNumbers("\\\\.\\C:")).as("the grown buffer is kept").hasSize(3);
    assertThat(kernel32.ioctlSizes).hasSize(3);
  }

  @Test
  void aVolumeThatCannotBeOpenedOrAskedFailsWithItsCallAndIsClosedOnce() {
    kernel32.createError = Win32Exception.ERROR_ACCESS_DENIED;
    assertThatThrownBy(() -> volumes(64).diskNumbers("\\\\.\\E:"))
        .hasMessage("CreateFileW failed: ERROR_ACCESS_DENIED");
    assertThat(kernel32.calls).containsExactly("CreateFile \\\\.\\E:");

    kernel32.createError = 0;
    kernel32.ioctlError = Win32Exception.ERROR_INVALID_FUNCTION;
    kernel32.calls.clear();
    assertThatThrownBy(() -> volumes(64).diskNumbers("\\\\.\\E:"))
        .hasMessage("DeviceIoControl failed: ERROR_INVALID_FUNCTION");
    assertThat(kernel32.calls).containsExactly("CreateFile \\\\.\\E:", "DeviceIoControl", "CloseHandle");
  }

  @Test
  void volumeInformationDecodesTheBuffersAndFailsWithTheLastError() {
    VolumeInformation info = volumes(64).volumeInformation("\\\\?\\Volume{v}\\");

    assertThat(info).isEqualTo(new VolumeInformation("Windows", 0xF00DCAFE, 0x0008_00FF, "NTFS"));
    assertThat(volumes(64).driveType("C:\\")).isEqualTo(3);

    kernel32.informationError = Win32Exception.ERROR_NOT_READY;
    assertThatThrownBy(() -> volumes(64).volumeInformation("E:\\"))
        .hasMessage("GetVolumeInformationW failed: ERROR_NOT_READY");
  }

  @Test
  void multiStringStopsAtTheEmptyStringOrTheLength() {
    assertThat(JnaVolumeManagement.multiString("a\0bc\0\0zz\0".toCharArray(), 9)).containsExactly("a", "bc");
    assertThat(JnaVolumeManagement.multiString("a\0bc\0".toCharArray(), 2)).containsExactly("a");
    assertThat(JnaVolumeManagement.multiString(new char[4], 4)).isEmpty();
  }
}
