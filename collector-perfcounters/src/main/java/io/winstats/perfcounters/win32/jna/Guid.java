package io.winstats.perfcounters.win32.jna;

import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;

/**
 * {@code GUID} (guiddef.h), by value inside PDH's and IP Helper's structures: size 16, 4-byte aligned. jna-platform's
 * {@code Guid.GUID} is the same, but that library is no dependency of this module for fields nobody reads.
 */
@FieldOrder({"Data1", "Data2", "Data3", "Data4"})
public final class Guid extends Structure {
  public int Data1;
  public short Data2;
  public short Data3;
  public byte[] Data4 = new byte[8];

  public Guid() {
    super();
  }
}
