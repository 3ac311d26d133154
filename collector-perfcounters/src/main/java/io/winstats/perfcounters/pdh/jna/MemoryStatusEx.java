package io.winstats.perfcounters.pdh.jna;

import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;

/**
 * {@code MEMORYSTATUSEX} for {@code GlobalMemoryStatusEx}: size 64; {@code dwLength} must be set to the size before the
 * call (the constructor does).
 *
 * <p>Internal to {@link JnaPdhLibrary}; public only because JNA reflects over public fields. Not thread-safe.
 */
@FieldOrder({
  "dwLength",
  "dwMemoryLoad",
  "ullTotalPhys",
  "ullAvailPhys",
  "ullTotalPageFile",
  "ullAvailPageFile",
  "ullTotalVirtual",
  "ullAvailVirtual",
  "ullAvailExtendedVirtual"
})
public final class MemoryStatusEx extends Structure {
  public int dwLength;
  public int dwMemoryLoad;
  public long ullTotalPhys;
  public long ullAvailPhys;
  public long ullTotalPageFile;
  public long ullAvailPageFile;
  public long ullTotalVirtual;
  public long ullAvailVirtual;
  public long ullAvailExtendedVirtual;

  public MemoryStatusEx() {
    super();
    dwLength = size();
  }

  int offsetOf(String field) {
    return fieldOffset(field);
  }
}
