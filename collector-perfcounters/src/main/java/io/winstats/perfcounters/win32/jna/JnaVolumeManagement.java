package io.winstats.perfcounters.win32.jna;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.platform.win32.Kernel32;
import com.sun.jna.platform.win32.WinBase;
import com.sun.jna.platform.win32.WinDef;
import com.sun.jna.platform.win32.WinError;
import com.sun.jna.platform.win32.WinNT;
import com.sun.jna.ptr.IntByReference;
import io.winstats.perfcounters.win32.VolumeManagement;
import io.winstats.perfcounters.win32.Win32Exception;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The only JNA implementation of {@link VolumeManagement}, through jna-platform's {@link Kernel32} bindings, making the
 * calls windows_exporter v0.31.8 makes ({@code internal/collector/logical_disk/logical_disk.go:580-727@v0.31.8}) with
 * the same arguments. Buffer sizes are given in characters, as Microsoft Learn documents them (upstream gives bytes,
 * twice its buffers' length). Two protocols upstream does not follow, so that a long answer is read rather than
 * failed: {@code GetVolumePathNamesForVolumeNameW} answering {@code ERROR_MORE_DATA} is called again with the length
 * it asks for (upstream grows only on {@code ERROR_NO_MORE_FILES}, which the call does not answer, so its collector
 * fails instead), and {@code IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS} answering {@code ERROR_MORE_DATA} is sent again with
 * room for the {@code NumberOfDiskExtents} it wrote (upstream's 16 KiB holds 682 extents, as does this first buffer).
 *
 * <p>Not thread-safe: use one instance from one thread.
 */
public final class JnaVolumeManagement implements VolumeManagement {
  /**
   * The kernel32 functions called, with jna-platform's {@link Kernel32} signatures; {@link #of} binds them to it. Not
   * {@link Kernel32} itself: any implementation of that interface (a test's proxy too) initialises it, which loads
   * kernel32.dll.
   */
  interface VolumeFunctions {
    WinNT.HANDLE FindFirstVolume(char[] lpszVolumeName, int cchBufferLength);

    boolean FindNextVolume(WinNT.HANDLE hFindVolume, char[] lpszVolumeName, int cchBufferLength);

    boolean FindVolumeClose(WinNT.HANDLE hFindVolume);

    boolean GetVolumePathNamesForVolumeName(
        String lpszVolumeName, char[] lpszVolumePathNames, int cchBufferLength, IntByReference lpcchReturnLength);

    WinNT.HANDLE CreateFile(
        String lpFileName,
        int dwDesiredAccess,
        int dwShareMode,
        WinBase.@Nullable SECURITY_ATTRIBUTES lpSecurityAttributes,
        int dwCreationDisposition,
        int dwFlagsAndAttributes,
        WinNT.@Nullable HANDLE hTemplateFile);

    boolean DeviceIoControl(
        WinNT.HANDLE hDevice,
        int dwIoControlCode,
        @Nullable Pointer lpInBuffer,
        int nInBufferSize,
        Pointer lpOutBuffer,
        int nOutBufferSize,
        IntByReference lpBytesReturned,
        @Nullable Pointer lpOverlapped);

    boolean CloseHandle(WinNT.HANDLE hObject);

    int GetDriveType(String lpRootPathName);

    boolean GetVolumeInformation(
        String lpRootPathName,
        char[] lpVolumeNameBuffer,
        int nVolumeNameSize,
        IntByReference lpVolumeSerialNumber,
        IntByReference lpMaximumComponentLength,
        IntByReference lpFileSystemFlags,
        char[] lpFileSystemNameBuffer,
        int nFileSystemNameSize);

    /** Each function as {@code k}'s. */
    static VolumeFunctions of(Kernel32 k) {
      return new VolumeFunctions() {
        @Override
        public WinNT.HANDLE FindFirstVolume(char[] name, int length) {
          return k.FindFirstVolume(name, length);
        }

        @Override
        public boolean FindNextVolume(WinNT.HANDLE find, char[] name, int length) {
          return k.FindNextVolume(find, name, length);
        }

        @Override
        public boolean FindVolumeClose(WinNT.HANDLE find) {
          return k.FindVolumeClose(find);
        }

        @Override
        public boolean GetVolumePathNamesForVolumeName(
            String volumeName, char[] paths, int length, IntByReference returned) {
          return k.GetVolumePathNamesForVolumeName(volumeName, paths, length, returned);
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
          return k.CreateFile(path, access, share, security, disposition, flags, template);
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
          return k.DeviceIoControl(device, code, in, inSize, out, outSize, returned, overlapped);
        }

        @Override
        public boolean CloseHandle(WinNT.HANDLE handle) {
          return k.CloseHandle(handle);
        }

        @Override
        public int GetDriveType(String root) {
          return k.GetDriveType(root);
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
          return k.GetVolumeInformation(
              root, label, labelLength, serial, maxComponentLength, flags, fileSystem, fileSystemLength);
        }
      };
    }
  }

  /** {@code IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS}: {@code CTL_CODE(IOCTL_VOLUME_BASE 'V', 0, METHOD_BUFFERED, 0)}. */
  static final int IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS = 0x0056_0000;
  /** Upstream's extents buffer (logical_disk.go:609@v0.31.8). */
  static final int INITIAL_EXTENTS_BUFFER = 16 * 1024;
  /** {@code MAX_PATH + 1} characters, upstream's size for each string buffer. */
  static final int PATH_BUFFER = WinDef.MAX_PATH + 1;
  /** x64 offsets, pinned by the layout test. */
  static final int EXTENTS_OFFSET = 8;
  static final int DISK_EXTENT_SIZE = 24;

  private final Supplier<VolumeFunctions> loader;
  private final Supplier<Integer> lastError;
  private @Nullable VolumeFunctions kernel32;
  private Memory extents;

  /** Binds to the real {@code kernel32.dll} through jna-platform, loaded on first use. */
  public JnaVolumeManagement() {
    this(() -> VolumeFunctions.of(Kernel32.INSTANCE), Native::getLastError, INITIAL_EXTENTS_BUFFER);
  }

  /** For tests: the given implementation of the functions and a first extents buffer of that size. */
  JnaVolumeManagement(Supplier<VolumeFunctions> loader, Supplier<Integer> lastError, int initialExtentsBuffer) {
    this.loader = loader;
    this.lastError = lastError;
    this.extents = new Memory(initialExtentsBuffer);
  }

  private VolumeFunctions kernel32() {
    VolumeFunctions k = kernel32;
    if (k == null) {
      k = loader.get();
      kernel32 = k;
    }
    return k;
  }

  @Override
  public List<String> findVolumes() {
    char[] name = new char[PATH_BUFFER];
    WinNT.HANDLE find = kernel32().FindFirstVolume(name, name.length);
    if (find == null || WinBase.INVALID_HANDLE_VALUE.equals(find)) {
      throw new Win32Exception("FindFirstVolumeW", lastError.get());
    }
    try {
      List<String> volumes = new ArrayList<>();
      do {
        volumes.add(Native.toString(name));
      } while (next(find, name));
      return volumes;
    } finally {
      kernel32().FindVolumeClose(find);
    }
  }

  /** {@code FindNextVolumeW}: false at {@code ERROR_NO_MORE_FILES}. */
  private boolean next(WinNT.HANDLE find, char[] name) {
    if (kernel32().FindNextVolume(find, name, name.length)) {
      return true;
    }
    int error = lastError.get();
    if (error == WinError.ERROR_NO_MORE_FILES) {
      return false;
    }
    throw new Win32Exception("FindNextVolumeW", error);
  }

  @Override
  public List<String> volumePathNames(String volumeName) {
    char[] paths = new char[PATH_BUFFER];
    IntByReference length = new IntByReference();
    while (!kernel32().GetVolumePathNamesForVolumeName(volumeName, paths, paths.length, length)) {
      int error = lastError.get();
      if (error != WinError.ERROR_MORE_DATA || length.getValue() <= paths.length) {
        throw new Win32Exception("GetVolumePathNamesForVolumeNameW", error);
      }
      paths = new char[length.getValue()];
    }
    return multiString(paths, Math.min(Math.max(length.getValue(), 0), paths.length));
  }

  /** The strings of a {@code REG_MULTI_SZ}-style list in the first {@code length} characters: up to the empty one. */
  static List<String> multiString(char[] chars, int length) {
    List<String> strings = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < length; i++) {
      if (chars[i] == 0) {
        if (i == start) {
          break;
        }
        strings.add(new String(chars, start, i - start));
        start = i + 1;
      }
    }
    return strings;
  }

  @Override
  public List<Long> diskNumbers(String devicePath) {
    WinNT.HANDLE volume =
        kernel32()
            .CreateFile(
                devicePath,
                0, // no access right: no administrator needed (logical_disk.go:595@v0.31.8)
                WinNT.FILE_SHARE_READ | WinNT.FILE_SHARE_WRITE | WinNT.FILE_SHARE_DELETE,
                null,
                WinNT.OPEN_EXISTING,
                WinNT.FILE_ATTRIBUTE_READONLY,
                null);
    if (volume == null || WinBase.INVALID_HANDLE_VALUE.equals(volume)) {
      throw new Win32Exception("CreateFileW", lastError.get());
    }
    try {
      IntByReference returned = new IntByReference();
      while (true) {
        extents.clear();
        int size = Math.toIntExact(extents.size());
        boolean ok =
            kernel32()
                .DeviceIoControl(
                    volume, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, null, 0, extents, size, returned, null);
        int error = ok ? 0 : lastError.get();
        long count = Integer.toUnsignedLong(extents.getInt(0));
        long needed = EXTENTS_OFFSET + count * DISK_EXTENT_SIZE;
        if (ok && needed <= size) {
          List<Long> disks = new ArrayList<>();
          for (int i = 0; i < count; i++) {
            VolumeDiskExtents.DiskExtent extent =
                new VolumeDiskExtents.DiskExtent(extents.share(EXTENTS_OFFSET + (long) i * DISK_EXTENT_SIZE));
            disks.add(Integer.toUnsignedLong(extent.DiskNumber));
          }
          return disks;
        }
        if ((!ok && error != WinError.ERROR_MORE_DATA) || needed <= size || needed > Integer.MAX_VALUE) {
          throw new Win32Exception("DeviceIoControl", ok ? WinError.ERROR_MORE_DATA : error);
        }
        extents.close();
        extents = new Memory(needed);
      }
    } finally {
      kernel32().CloseHandle(volume);
    }
  }

  @Override
  public int driveType(String rootPath) {
    return kernel32().GetDriveType(rootPath);
  }

  @Override
  public VolumeInformation volumeInformation(String rootPath) {
    char[] volumeName = new char[PATH_BUFFER];
    char[] fileSystemName = new char[PATH_BUFFER];
    IntByReference serialNumber = new IntByReference();
    IntByReference maximumComponentLength = new IntByReference();
    IntByReference fileSystemFlags = new IntByReference();
    if (!kernel32()
        .GetVolumeInformation(
            rootPath,
            volumeName,
            volumeName.length,
            serialNumber,
            maximumComponentLength,
            fileSystemFlags,
            fileSystemName,
            fileSystemName.length)) {
      throw new Win32Exception("GetVolumeInformationW", lastError.get());
    }
    return new VolumeInformation(
        Native.toString(volumeName),
        serialNumber.getValue(),
        fileSystemFlags.getValue(),
        Native.toString(fileSystemName));
  }
}
