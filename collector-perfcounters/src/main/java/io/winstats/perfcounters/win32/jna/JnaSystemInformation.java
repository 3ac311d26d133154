package io.winstats.perfcounters.win32.jna;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.win32.StdCallLibrary;
import com.sun.jna.win32.W32APIOptions;
import io.winstats.perfcounters.win32.SystemInformation;
import io.winstats.perfcounters.win32.Win32Exception;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The only JNA implementation of {@link SystemInformation}: {@code RtlGetVersion} (ntdll), {@code RegGetValueW}
 * (advapi32) and {@code GetComputerNameExW} (kernel32), each DLL loaded on its first call. windows_exporter v0.31.8
 * makes the same calls or their documented equivalents: {@code RtlGetVersion} (osversion_windows.go:38), the {@code
 * registry} package of golang.org/x/sys ({@code RegQueryValueExW} on the key opened with {@code KEY_QUERY_VALUE},
 * os.go:164-178; {@code RegGetValueW} reads the same value in one call and checks its type), and {@code
 * GetComputerNameExW} into a buffer of 1024 characters (sysinfoapi.go:173-189). Strings are decoded from UTF-16LE by
 * hand.
 *
 * <p>Not thread-safe: use one instance from one thread.
 */
public final class JnaSystemInformation implements SystemInformation {
  /** winreg.h's {@code (HKEY)(ULONG_PTR)((LONG)0x80000002)}: sign-extended to 64 bits, as the header makes it. */
  static final long HKEY_LOCAL_MACHINE = 0x80000002;

  static final int RRF_RT_REG_SZ = 0x00000002;
  static final int RRF_RT_REG_DWORD = 0x00000010;
  static final int RRF_RT_REG_QWORD = 0x00000040;
  static final int ERROR_SUCCESS = 0;
  /** The name buffer in characters, upstream's (sysinfoapi.go:176). */
  static final int NAME_CHARS = 1024;
  /** How many times a string value that grows between the size query and the read is asked for again. */
  static final int STRING_READS = 3;

  /** {@code RtlGetVersion}; returns an NTSTATUS. Public for JNA's proxy. */
  public interface NtdllNative extends StdCallLibrary {
    int RtlGetVersion(Pointer lpVersionInformation);
  }

  /** {@code RegGetValueW}; returns a Win32 error code. Public for JNA's proxy. */
  public interface Advapi32Native extends StdCallLibrary {
    int RegGetValueW(
        Pointer hkey,
        String lpSubKey,
        String lpValue,
        int dwFlags,
        @Nullable IntByReference pdwType,
        @Nullable Pointer pvData,
        @Nullable IntByReference pcbData);
  }

  /** {@code GetComputerNameExW}; {@code nSize} in characters. Public for JNA's proxy. */
  public interface Kernel32Native extends StdCallLibrary {
    boolean GetComputerNameExW(int nameType, Pointer lpBuffer, IntByReference nSize);
  }

  private final Supplier<NtdllNative> ntdllLoader;
  private final Supplier<Advapi32Native> advapi32Loader;
  private final Supplier<Kernel32Native> kernel32Loader;
  private final Supplier<Integer> lastError;
  private @Nullable NtdllNative ntdll;
  private @Nullable Advapi32Native advapi32;
  private @Nullable Kernel32Native kernel32;
  private final Memory names = new Memory(2L * NAME_CHARS);

  /** Binds to the real DLLs, loaded lazily on first use. */
  public JnaSystemInformation() {
    this(
        () -> Native.load("ntdll", NtdllNative.class, W32APIOptions.UNICODE_OPTIONS),
        () -> Native.load("advapi32", Advapi32Native.class, W32APIOptions.UNICODE_OPTIONS),
        () -> Native.load("kernel32", Kernel32Native.class, W32APIOptions.UNICODE_OPTIONS),
        Native::getLastError);
  }

  /** For tests: the given implementations of the native interfaces. */
  JnaSystemInformation(
      Supplier<NtdllNative> ntdllLoader,
      Supplier<Advapi32Native> advapi32Loader,
      Supplier<Kernel32Native> kernel32Loader,
      Supplier<Integer> lastError) {
    this.ntdllLoader = ntdllLoader;
    this.advapi32Loader = advapi32Loader;
    this.kernel32Loader = kernel32Loader;
    this.lastError = lastError;
  }

  private NtdllNative ntdll() {
    NtdllNative n = ntdll;
    if (n == null) {
      n = ntdllLoader.get();
      ntdll = n;
    }
    return n;
  }

  private Advapi32Native advapi32() {
    Advapi32Native a = advapi32;
    if (a == null) {
      a = advapi32Loader.get();
      advapi32 = a;
    }
    return a;
  }

  private Kernel32Native kernel32() {
    Kernel32Native k = kernel32;
    if (k == null) {
      k = kernel32Loader.get();
      kernel32 = k;
    }
    return k;
  }

  @Override
  public OsVersionInfo rtlGetVersion() {
    OsVersionInfoExW info = new OsVersionInfoExW();
    info.write();
    int status = ntdll().RtlGetVersion(info.getPointer());
    if (status != 0) {
      throw new Win32Exception("RtlGetVersion", status);
    }
    info.read();
    return new OsVersionInfo(info.dwMajorVersion, info.dwMinorVersion, info.dwBuildNumber);
  }

  @Override
  public String registryString(String key, String value) {
    Pointer hklm = new Pointer(HKEY_LOCAL_MACHINE);
    IntByReference size = new IntByReference();
    check(advapi32().RegGetValueW(hklm, key, value, RRF_RT_REG_SZ, null, null, size), value);
    for (int attempt = 1; ; attempt++) {
      // pcbData: the bytes needed, the terminating NUL included; on success the bytes written.
      Memory data = new Memory(Math.max(2, Integer.toUnsignedLong(size.getValue())));
      size.setValue(Math.toIntExact(data.size()));
      int error = advapi32().RegGetValueW(hklm, key, value, RRF_RT_REG_SZ, null, data, size);
      if (error == Win32Exception.ERROR_MORE_DATA && attempt < STRING_READS) {
        continue; // the value grew since the size was asked; size holds the new one
      }
      check(error, value);
      return utf16(data, Integer.toUnsignedLong(size.getValue()) / 2);
    }
  }

  @Override
  public long registryInteger(String key, String value) {
    Memory data = new Memory(8);
    data.clear();
    IntByReference type = new IntByReference();
    IntByReference size = new IntByReference(8);
    int error =
        advapi32()
            .RegGetValueW(
                new Pointer(HKEY_LOCAL_MACHINE), key, value, RRF_RT_REG_DWORD | RRF_RT_REG_QWORD, type, data, size);
    check(error, value);
    // REG_DWORD (4) is 4 bytes, REG_QWORD (11) is 8, both little-endian.
    return size.getValue() == 4 ? Integer.toUnsignedLong(data.getInt(0)) : data.getLong(0);
  }

  private static void check(int error, String value) {
    if (error != ERROR_SUCCESS) {
      throw new Win32Exception("RegGetValueW " + value, error);
    }
  }

  @Override
  public String computerNameEx(int format) {
    IntByReference size = new IntByReference(NAME_CHARS);
    if (!kernel32().GetComputerNameExW(format, names, size)) {
      throw new Win32Exception("GetComputerNameExW", lastError.get());
    }
    // nSize: the characters copied, without the terminating NUL.
    return utf16(names, size.getValue());
  }

  /** At most {@code chars} UTF-16LE code units from {@code p}, up to the first NUL. */
  static String utf16(Pointer p, long chars) {
    int n = 0;
    while (n < chars && p.getShort(2L * n) != 0) {
      n++;
    }
    return new String(p.getByteArray(0, 2 * n), StandardCharsets.UTF_16LE);
  }
}
