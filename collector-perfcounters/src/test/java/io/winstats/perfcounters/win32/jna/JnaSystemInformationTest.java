package io.winstats.perfcounters.win32.jna;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import io.winstats.perfcounters.win32.SystemInformation;
import io.winstats.perfcounters.win32.SystemInformation.OsVersionInfo;
import io.winstats.perfcounters.win32.Win32Exception;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * {@link JnaSystemInformation} on any 64-bit host: Java implementations of its native interfaces stand in for
 * ntdll.dll, advapi32.dll and kernel32.dll and answer in the given native memory as Microsoft Learn documents the
 * calls: {@code RtlGetVersion} fills {@code RTL_OSVERSIONINFOEXW} (written here by offset, independently of the
 * Structure class) after checking {@code dwOSVersionInfoSize}; {@code RegGetValueW} answers the size with a null
 * buffer, {@code ERROR_MORE_DATA} and the size needed for a short one, the value with its NUL otherwise, and checks the
 * type flags; {@code GetComputerNameExW} counts {@code nSize} in characters, without the NUL on success and with it on
 * {@code ERROR_MORE_DATA}. The values are a Windows Server 2022 node's.
 */
@EnabledIf("pointersAre64Bit")
class JnaSystemInformationTest {
  static boolean pointersAre64Bit() {
    return Native.POINTER_SIZE == 8;
  }

  static final int REG_SZ = 1;
  static final int REG_DWORD = 4;
  static final int REG_QWORD = 11;

  int lastError;

  /** A scripted ntdll.dll. */
  static final class ScriptedNtdll implements JnaSystemInformation.NtdllNative {
    int major = 10;
    int minor;
    int build = 20348;
    int status;

    @Override
    public int RtlGetVersion(Pointer info) {
      assertThat(info.getInt(0)).as("dwOSVersionInfoSize of RTL_OSVERSIONINFOEXW").isEqualTo(284);
      if (status != 0) {
        return status;
      }
      info.setInt(4, major);
      info.setInt(8, minor);
      info.setInt(12, build);
      info.setInt(16, 2); // VER_PLATFORM_WIN32_NT
      info.setShort(20, (short) 0); // szCSDVersion: empty since Windows 10
      info.setShort(280, (short) 0x0110); // wSuiteMask: VER_SUITE_DATACENTER | VER_SUITE_TERMINAL
      info.setByte(282, (byte) 3); // wProductType: VER_NT_SERVER
      return 0;
    }
  }

  /** A registry value: its type and its bytes as stored (a string with its NUL). */
  record Value(int type, byte[] data) {
    static Value sz(String s) {
      return new Value(REG_SZ, (s + "\0").getBytes(StandardCharsets.UTF_16LE));
    }

    static Value dword(int v) {
      return new Value(REG_DWORD, ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
    }

    static Value qword(long v) {
      return new Value(REG_QWORD, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
    }
  }

  /** A scripted advapi32.dll holding the values of the release's key. */
  static final class ScriptedAdvapi32 implements JnaSystemInformation.Advapi32Native {
    final Map<String, Value> values = new HashMap<>();
    final List<String> calls = new ArrayList<>();
    /** A value that takes this form after the first call that reads it: it grew between the size and the read. */
    final Map<String, Value> grows = new HashMap<>();

    @Override
    public int RegGetValueW(
        Pointer hkey,
        String subKey,
        String value,
        int flags,
        @Nullable IntByReference type,
        @Nullable Pointer data,
        @Nullable IntByReference size) {
      assertThat(Pointer.nativeValue(hkey)).as("HKEY_LOCAL_MACHINE, sign-extended").isEqualTo(0xFFFF_FFFF_8000_0002L);
      assertThat(subKey).isEqualTo(SystemInformation.CURRENT_VERSION_KEY);
      calls.add(value + (data == null ? " size" : " read " + size.getValue()));
      Value v = values.get(value);
      if (v == null) {
        return Win32Exception.ERROR_FILE_NOT_FOUND;
      }
      Value next = grows.remove(value);
      if (next != null) {
        values.put(value, next);
      }
      boolean accepted =
          (v.type() == REG_SZ && (flags & 0x02) != 0)
              || (v.type() == REG_DWORD && (flags & 0x10) != 0)
              || (v.type() == REG_QWORD && (flags & 0x40) != 0);
      if (!accepted) {
        return Win32Exception.ERROR_UNSUPPORTED_TYPE;
      }
      if (type != null) {
        type.setValue(v.type());
      }
      if (data == null) {
        size.setValue(v.data().length);
        return 0;
      }
      if (size.getValue() < v.data().length) {
        size.setValue(v.data().length);
        return Win32Exception.ERROR_MORE_DATA;
      }
      data.write(0, v.data(), 0, v.data().length);
      size.setValue(v.data().length);
      return 0;
    }
  }

  /** A scripted kernel32.dll: the DNS names of a node in no domain. */
  final class ScriptedKernel32 implements JnaSystemInformation.Kernel32Native {
    final Map<Integer, String> names =
        new HashMap<>(Map.of(1, "akswin000000", 2, "", 3, "akswin000000"));
    final List<Integer> sizes = new ArrayList<>();
    int error;

    @Override
    public boolean GetComputerNameExW(int format, Pointer buffer, IntByReference size) {
      sizes.add(size.getValue());
      if (error != 0) {
        lastError = error;
        return false;
      }
      String name = names.get(format);
      if (size.getValue() <= name.length()) {
        size.setValue(name.length() + 1);
        lastError = Win32Exception.ERROR_MORE_DATA;
        return false;
      }
      byte[] bytes = (name + "\0").getBytes(StandardCharsets.UTF_16LE);
      buffer.write(0, bytes, 0, bytes.length);
      size.setValue(name.length());
      return true;
    }
  }

  final ScriptedNtdll ntdll = new ScriptedNtdll();
  final ScriptedAdvapi32 advapi32 = new ScriptedAdvapi32();
  final ScriptedKernel32 kernel32 = new ScriptedKernel32();
  final JnaSystemInformation system =
      new JnaSystemInformation(() -> ntdll, () -> advapi32, () -> kernel32, () -> lastError);

  @Test
  void rtlGetVersionReadsTheVersionFieldsAtTheirOffsets() {
    assertThat(system.rtlGetVersion()).isEqualTo(new OsVersionInfo(10, 0, 20348));

    ntdll.build = 0xFFFF_FFFE;
    assertThat(system.rtlGetVersion().buildNumber()).as("a DWORD's bits as they are").isEqualTo(-2);
  }

  @Test
  void aFailedRtlGetVersionNamesItsStatus() {
    ntdll.status = 0xC000_0004; // STATUS_INFO_LENGTH_MISMATCH
    assertThatThrownBy(system::rtlGetVersion)
        .isInstanceOfSatisfying(
            Win32Exception.class, e -> assertThat(e.errorCode()).isEqualTo(0xC000_0004))
        .hasMessageStartingWith("RtlGetVersion failed");
  }

  @Test
  void aStringValueIsSizedThenRead() {
    advapi32.values.put("ProductName", Value.sz("Windows Server 2022 Datacenter"));

    assertThat(system.registryString(SystemInformation.CURRENT_VERSION_KEY, "ProductName"))
        .isEqualTo("Windows Server 2022 Datacenter");
    assertThat(advapi32.calls).containsExactly("ProductName size", "ProductName read 62");
  }

  @Test
  void aStringValueThatGrewBetweenTheSizeAndTheReadIsReadAgain() {
    advapi32.values.put("ProductName", Value.sz("Windows Server 2022"));
    advapi32.grows.put("ProductName", Value.sz("Windows Server 2022 Datacenter"));

    assertThat(system.registryString(SystemInformation.CURRENT_VERSION_KEY, "ProductName"))
        .isEqualTo("Windows Server 2022 Datacenter");
    assertThat(advapi32.calls).containsExactly("ProductName size", "ProductName read 40", "ProductName read 62");
  }

  @Test
  void anEmptyStringValueIsEmpty() {
    advapi32.values.put("CSDVersion", Value.sz(""));
    assertThat(system.registryString(SystemInformation.CURRENT_VERSION_KEY, "CSDVersion")).isEmpty();
  }

  @Test
  void integerValuesAreUnsignedDwordsOrQwords() {
    advapi32.values.put("UBR", Value.dword(2849));
    advapi32.values.put("Big", Value.dword(0xFFFF_FFFF));
    advapi32.values.put("InstallTime", Value.qword(133_441_920_000_000_000L));

    assertThat(system.registryInteger(SystemInformation.CURRENT_VERSION_KEY, "UBR")).isEqualTo(2849);
    assertThat(system.registryInteger(SystemInformation.CURRENT_VERSION_KEY, "Big")).isEqualTo(4_294_967_295L);
    assertThat(system.registryInteger(SystemInformation.CURRENT_VERSION_KEY, "InstallTime"))
        .isEqualTo(133_441_920_000_000_000L);
  }

  @Test
  void aMissingOrMistypedValueIsTheRegistrysError() {
    advapi32.values.put("UBR", Value.sz("2849"));
    advapi32.values.put("CurrentMajorVersionNumber", Value.dword(10));

    assertThatThrownBy(() -> system.registryInteger(SystemInformation.CURRENT_VERSION_KEY, "UBR"))
        .hasMessage("RegGetValueW UBR failed: ERROR_UNSUPPORTED_TYPE");
    assertThatThrownBy(() -> system.registryString(SystemInformation.CURRENT_VERSION_KEY, "CurrentMajorVersionNumber"))
        .hasMessage("RegGetValueW CurrentMajorVersionNumber failed: ERROR_UNSUPPORTED_TYPE");
    assertThatThrownBy(() -> system.registryString(SystemInformation.CURRENT_VERSION_KEY, "ProductName"))
        .isInstanceOfSatisfying(
            Win32Exception.class, e -> assertThat(e.errorCode()).isEqualTo(Win32Exception.ERROR_FILE_NOT_FOUND));
  }

  @Test
  void computerNamesAreReadIntoAThousandCharacterBuffer() {
    kernel32.names.put(1, "win2022-n1");
    kernel32.names.put(2, "corp.example.com");
    kernel32.names.put(3, "win2022-n1.corp.example.com");

    assertThat(system.computerNameEx(SystemInformation.COMPUTER_NAME_DNS_FULLY_QUALIFIED))
        .isEqualTo("win2022-n1.corp.example.com");
    assertThat(system.computerNameEx(SystemInformation.COMPUTER_NAME_DNS_HOSTNAME)).as("no rest of the longer name")
        .isEqualTo("win2022-n1");
    kernel32.names.put(2, "");
    assertThat(system.computerNameEx(SystemInformation.COMPUTER_NAME_DNS_DOMAIN)).isEmpty();
    assertThat(kernel32.sizes).containsOnly(1024);
  }

  @Test
  void aFailedNameIsTheLastError() {
    kernel32.error = Win32Exception.ERROR_INVALID_PARAMETER;
    assertThatThrownBy(() -> system.computerNameEx(SystemInformation.COMPUTER_NAME_DNS_HOSTNAME))
        .hasMessage("GetComputerNameExW failed: ERROR_INVALID_PARAMETER");

    kernel32.error = 0;
    kernel32.names.put(1, "n".repeat(1024));
    assertThatThrownBy(() -> system.computerNameEx(SystemInformation.COMPUTER_NAME_DNS_HOSTNAME))
        .as("upstream's buffer, and its failure, for a name longer than any DNS name")
        .hasMessage("GetComputerNameExW failed: ERROR_MORE_DATA");
  }
}
