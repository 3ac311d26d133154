package io.winstats.perfcounters.pdh.jna;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import io.winstats.perfcounters.pdh.PdhLibrary;

/**
 * {@code PDH_RAW_COUNTER}: x64 size 40. {@code TimeStamp} is a {@link FileTime} (alignment 4), so it sits at offset 4,
 * not 8; {@code FirstValue} at 16, {@code SecondValue} at 24, {@code MultiCount} at 32, tail padding to 40.
 *
 * <p>Internal to {@link JnaPdhLibrary}; public only because JNA reflects over public fields. Not thread-safe.
 */
// JNA's Structure constructor instantiates every nested by-value Structure field (Structure.initializeField),
// so the struct-typed fields below are never null although no Java code assigns them.
@SuppressWarnings("NullAway.Init")
@FieldOrder({"CStatus", "TimeStamp", "FirstValue", "SecondValue", "MultiCount"})
public final class PdhRawCounter extends Structure {
  public int CStatus;
  public FileTime TimeStamp;
  public long FirstValue;
  public long SecondValue;
  public int MultiCount;

  /** Allocates its own native memory (no PDH call, no DLL load). */
  public PdhRawCounter() {
    super();
  }

  /** A view of native memory owned by someone else; call {@link #read()} before use. */
  public PdhRawCounter(Pointer memory) {
    super(memory);
  }

  int offsetOf(String field) {
    return fieldOffset(field);
  }

  PdhLibrary.RawCounter toRecord() {
    return new PdhLibrary.RawCounter(CStatus, TimeStamp.toLong(), FirstValue, SecondValue, MultiCount);
  }

  void fill(PdhLibrary.RawCounter value) {
    CStatus = value.cStatus();
    TimeStamp.dwLowDateTime = (int) value.localFileTime();
    TimeStamp.dwHighDateTime = (int) (value.localFileTime() >>> 32);
    FirstValue = value.firstValue();
    SecondValue = value.secondValue();
    MultiCount = value.multiCount();
  }

  /** {@code FILETIME}: two {@code DWORD}s, size 8, alignment 4. */
  @FieldOrder({"dwLowDateTime", "dwHighDateTime"})
  public static final class FileTime extends Structure {
    public int dwLowDateTime;
    public int dwHighDateTime;

    public FileTime() {
      super();
    }

    int offsetOf(String field) {
      return fieldOffset(field);
    }

    long toLong() {
      return ((long) dwHighDateTime << 32) | (dwLowDateTime & 0xFFFF_FFFFL);
    }
  }
}
