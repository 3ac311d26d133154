package io.winstats.perfcounters.win32.jna;

import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;

/**
 * {@code RTL_OSVERSIONINFOEXW} (wdm.h; the layout of {@code OSVERSIONINFOEXW}): 284 bytes, no pointer, the same on
 * x86 and x64. {@code dwOSVersionInfoSize} must hold the size before the call (the constructor sets it). {@code
 * szCSDVersion} is 128 {@code WCHAR}s, held as UTF-16 code units, not as the platform's {@code wchar_t}.
 *
 * <p>Internal to {@link JnaSystemInformation}; public only because JNA reflects over public fields.
 */
@FieldOrder({
  "dwOSVersionInfoSize",
  "dwMajorVersion",
  "dwMinorVersion",
  "dwBuildNumber",
  "dwPlatformId",
  "szCSDVersion",
  "wServicePackMajor",
  "wServicePackMinor",
  "wSuiteMask",
  "wProductType",
  "wReserved"
})
public final class OsVersionInfoExW extends Structure {
  public int dwOSVersionInfoSize;
  public int dwMajorVersion;
  public int dwMinorVersion;
  public int dwBuildNumber;
  public int dwPlatformId;
  public short[] szCSDVersion = new short[128];
  public short wServicePackMajor;
  public short wServicePackMinor;
  public short wSuiteMask;
  public byte wProductType;
  public byte wReserved;

  public OsVersionInfoExW() {
    super();
    dwOSVersionInfoSize = size();
  }

  int offsetOf(String field) {
    return fieldOffset(field);
  }
}
