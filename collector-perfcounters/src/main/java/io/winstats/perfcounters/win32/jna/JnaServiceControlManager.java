package io.winstats.perfcounters.win32.jna;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.win32.StdCallLibrary;
import com.sun.jna.win32.W32APIOptions;
import io.winstats.perfcounters.win32.ServiceControlManager;
import io.winstats.perfcounters.win32.Win32Exception;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The only JNA implementation of {@link ServiceControlManager}, making the calls windows_exporter v0.31.8 makes
 * ({@code internal/collector/service/service.go}) with the same arguments and buffer protocol.
 *
 * <p>The manager is opened on the first call ({@code OpenSCManagerW(NULL, NULL, SC_MANAGER_ENUMERATE_SERVICE)}) and
 * kept; a failed open is tried again on the next call. The enumeration buffer starts at 200 KiB, as upstream's, and
 * grows by the {@code pcbBytesNeeded} the SCM answers with {@code ERROR_MORE_DATA} (an amount beyond the buffer given,
 * not a total: service.go:413-420@v0.31.8). The configuration buffer starts at 1 KiB and grows to the size the SCM asks
 * for. Both are kept between calls.
 *
 * <p>Not thread-safe: use one instance from one thread.
 */
public final class JnaServiceControlManager implements ServiceControlManager {
  static final int SC_MANAGER_ENUMERATE_SERVICE = 0x0004;
  static final int SC_ENUM_PROCESS_INFO = 0;
  static final int SERVICE_WIN32 = 0x30;
  static final int SERVICE_STATE_ALL = 0x3;
  static final int SERVICE_QUERY_CONFIG = 0x0001;
  static final int PROCESS_QUERY_LIMITED_INFORMATION = 0x1000;
  /** x64 sizes; the layout test pins them. */
  static final int ENUM_ITEM_SIZE = 56;

  static final int INITIAL_ENUM_BUFFER = 200 * 1024;
  static final int INITIAL_CONFIG_BUFFER = 1024;

  /** The advapi32 functions we call, by their {@code W} names; handles as {@link Pointer}. Public for JNA's proxy. */
  public interface Advapi32Native extends StdCallLibrary {
    @Nullable Pointer OpenSCManagerW(@Nullable String lpMachineName, @Nullable String lpDatabaseName, int access);

    boolean EnumServicesStatusExW(
        Pointer hSCManager,
        int infoLevel,
        int dwServiceType,
        int dwServiceState,
        Pointer lpServices,
        int cbBufSize,
        IntByReference pcbBytesNeeded,
        IntByReference lpServicesReturned,
        @Nullable IntByReference lpResumeHandle,
        @Nullable String pszGroupName);

    @Nullable Pointer OpenServiceW(Pointer hSCManager, String lpServiceName, int dwDesiredAccess);

    boolean QueryServiceConfigW(
        Pointer hService, Pointer lpServiceConfig, int cbBufSize, IntByReference pcbBytesNeeded);

    boolean CloseServiceHandle(Pointer hSCObject);
  }

  /** The kernel32 functions we call; a {@code FILETIME} as the 64-bit little-endian value it is. Public for JNA. */
  public interface Kernel32Native extends StdCallLibrary {
    @Nullable Pointer OpenProcess(int dwDesiredAccess, boolean bInheritHandle, int dwProcessId);

    boolean GetProcessTimes(
        Pointer hProcess,
        LongByReference lpCreationTime,
        LongByReference lpExitTime,
        LongByReference lpKernelTime,
        LongByReference lpUserTime);

    boolean CloseHandle(Pointer hObject);
  }

  private final Supplier<Advapi32Native> advapi32Loader;
  private final Supplier<Kernel32Native> kernel32Loader;
  private final Supplier<Integer> lastError;
  private @Nullable Advapi32Native advapi32;
  private @Nullable Kernel32Native kernel32;
  private @Nullable Pointer manager;
  private Memory enumBuffer;
  private Memory configBuffer;

  /** Binds to the real {@code advapi32.dll} and {@code kernel32.dll}, loaded lazily on first use. */
  public JnaServiceControlManager() {
    this(
        () -> Native.load("advapi32", Advapi32Native.class, W32APIOptions.UNICODE_OPTIONS),
        () -> Native.load("kernel32", Kernel32Native.class, W32APIOptions.UNICODE_OPTIONS),
        Native::getLastError,
        INITIAL_ENUM_BUFFER);
  }

  /** For tests: the given implementations of the native interfaces and a first enumeration buffer of that size. */
  JnaServiceControlManager(
      Supplier<Advapi32Native> advapi32Loader,
      Supplier<Kernel32Native> kernel32Loader,
      Supplier<Integer> lastError,
      int initialEnumBuffer) {
    this.advapi32Loader = advapi32Loader;
    this.kernel32Loader = kernel32Loader;
    this.lastError = lastError;
    this.enumBuffer = new Memory(initialEnumBuffer);
    this.configBuffer = new Memory(INITIAL_CONFIG_BUFFER);
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

  private Pointer manager() {
    Pointer m = manager;
    if (m == null) {
      m = advapi32().OpenSCManagerW(null, null, SC_MANAGER_ENUMERATE_SERVICE);
      if (m == null) {
        throw new Win32Exception("OpenSCManagerW", lastError.get());
      }
      manager = m;
    }
    return m;
  }

  @Override
  public List<EnumServiceStatusProcess> enumServicesStatusEx() {
    Pointer scm = manager();
    IntByReference needed = new IntByReference();
    IntByReference returned = new IntByReference();
    while (true) {
      enumBuffer.clear();
      int size = Math.toIntExact(enumBuffer.size());
      if (advapi32()
          .EnumServicesStatusExW(
              scm, SC_ENUM_PROCESS_INFO, SERVICE_WIN32, SERVICE_STATE_ALL, enumBuffer, size, needed, returned, null,
              null)) {
        break;
      }
      int error = lastError.get();
      if (error != Win32Exception.ERROR_MORE_DATA) {
        throw new Win32Exception("EnumServicesStatusExW", error);
      }
      enumBuffer.close();
      enumBuffer = new Memory((long) size + Integer.toUnsignedLong(needed.getValue()));
    }
    return services(enumBuffer, returned.getValue());
  }

  /** The {@code count} items at the start of {@code buffer}; an item whose name pointer is invalid is left out. */
  static List<EnumServiceStatusProcess> services(Pointer buffer, int count) {
    List<EnumServiceStatusProcess> services = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      EnumServiceStatusProcessW item = new EnumServiceStatusProcessW(buffer.share((long) i * ENUM_ITEM_SIZE));
      Pointer name = item.lpServiceName;
      if (name == null || Pointer.nativeValue(name) == -1L) {
        continue; // service.go:245-252@v0.31.8: an INVALID_HANDLE_VALUE name is logged and skipped
      }
      EnumServiceStatusProcessW.Status s = item.ServiceStatusProcess;
      services.add(
          new EnumServiceStatusProcess(
              utf16(name),
              utf16(item.lpDisplayName),
              new ServiceStatusProcess(
                  s.dwServiceType,
                  s.dwCurrentState,
                  s.dwControlsAccepted,
                  s.dwWin32ExitCode,
                  s.dwServiceSpecificExitCode,
                  s.dwCheckPoint,
                  s.dwWaitHint,
                  s.dwProcessId,
                  s.dwServiceFlags)));
    }
    return services;
  }

  @Override
  public QueryServiceConfig queryServiceConfig(String serviceName) {
    Pointer service = advapi32().OpenServiceW(manager(), serviceName, SERVICE_QUERY_CONFIG);
    if (service == null) {
      throw new Win32Exception("OpenServiceW", lastError.get());
    }
    try {
      IntByReference needed = new IntByReference();
      while (true) {
        int size = Math.toIntExact(configBuffer.size());
        if (advapi32().QueryServiceConfigW(service, configBuffer, size, needed)) {
          return config(configBuffer);
        }
        int error = lastError.get();
        if (error != Win32Exception.ERROR_INSUFFICIENT_BUFFER && error != Win32Exception.ERROR_MORE_DATA) {
          throw new Win32Exception("QueryServiceConfigW", error);
        }
        if (Integer.toUnsignedLong(needed.getValue()) <= size) {
          // service.go:486-488@v0.31.8: the SCM says too small for a buffer already that large
          throw new Win32Exception("QueryServiceConfigW", error);
        }
        configBuffer.close();
        configBuffer = new Memory(Integer.toUnsignedLong(needed.getValue()));
      }
    } finally {
      advapi32().CloseServiceHandle(service);
    }
  }

  /** The {@code QUERY_SERVICE_CONFIGW} at the start of {@code buffer}. */
  static QueryServiceConfig config(Pointer buffer) {
    QueryServiceConfigW c = new QueryServiceConfigW(buffer);
    return new QueryServiceConfig(
        c.dwServiceType,
        c.dwStartType,
        c.dwErrorControl,
        utf16(c.lpBinaryPathName),
        utf16(c.lpLoadOrderGroup),
        c.dwTagId,
        utf16List(c.lpDependencies),
        utf16(c.lpServiceStartName),
        utf16(c.lpDisplayName));
  }

  @Override
  public long processCreationFileTime(int processId) {
    Pointer process = kernel32().OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, false, processId);
    if (process == null) {
      throw new Win32Exception("OpenProcess", lastError.get());
    }
    try {
      LongByReference creation = new LongByReference();
      if (!kernel32()
          .GetProcessTimes(process, creation, new LongByReference(), new LongByReference(), new LongByReference())) {
        throw new Win32Exception("GetProcessTimes", lastError.get());
      }
      return creation.getValue();
    } finally {
      kernel32().CloseHandle(process);
    }
  }

  @Override
  public void close() {
    Pointer m = manager;
    manager = null;
    if (m != null) {
      advapi32().CloseServiceHandle(m);
    }
  }

  /** Decodes a NUL-terminated UTF-16LE string; {@code null} gives the empty string. */
  static String utf16(@Nullable Pointer p) {
    if (p == null) {
      return "";
    }
    int chars = 0;
    while (p.getShort(2L * chars) != 0) {
      chars++;
    }
    return new String(p.getByteArray(0, 2 * chars), StandardCharsets.UTF_16LE);
  }

  /** Decodes a double-NUL-terminated list of UTF-16LE strings; {@code null} gives the empty list. */
  static List<String> utf16List(@Nullable Pointer p) {
    List<String> items = new ArrayList<>();
    if (p == null) {
      return items;
    }
    long offset = 0;
    while (p.getShort(offset) != 0) {
      String item = utf16(p.share(offset));
      items.add(item);
      offset += 2L * (item.length() + 1);
    }
    return items;
  }
}
