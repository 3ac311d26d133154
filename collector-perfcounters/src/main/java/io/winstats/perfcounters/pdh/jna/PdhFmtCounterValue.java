package io.winstats.perfcounters.pdh.jna;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import com.sun.jna.Union;
import io.winstats.perfcounters.pdh.PdhLibrary;
import org.jspecify.annotations.Nullable;

/**
 * {@code PDH_FMT_COUNTERVALUE}: x64 size 16, {@code CStatus} at 0, the value union at <b>8</b> (its alignment is 8).
 *
 * <p>Internal to {@link JnaPdhLibrary}; public only because JNA reflects over public fields. Not thread-safe.
 */
// JNA's Structure constructor instantiates every nested by-value Structure field (Structure.initializeField),
// so the struct-typed fields below are never null although no Java code assigns them.
@SuppressWarnings("NullAway.Init")
@FieldOrder({"CStatus", "Value"})
public final class PdhFmtCounterValue extends Structure {
  public int CStatus;
  public ValueUnion Value;

  public PdhFmtCounterValue() {
    super();
  }

  /** A view of native memory owned by someone else; call {@link #read()} before use. */
  public PdhFmtCounterValue(Pointer memory) {
    super(memory);
  }

  int offsetOf(String field) {
    return fieldOffset(field);
  }

  /** The member of the union that {@code format} selects, widened into a record. */
  PdhLibrary.FormattedValue toRecord(int format) {
    if ((format & PdhLibrary.PDH_FMT_DOUBLE) != 0) {
      return new PdhLibrary.FormattedValue(CStatus, Value.doubleValue, (long) Value.doubleValue);
    }
    if ((format & PdhLibrary.PDH_FMT_LARGE) != 0) {
      return new PdhLibrary.FormattedValue(CStatus, Value.largeValue, Value.largeValue);
    }
    return new PdhLibrary.FormattedValue(CStatus, Value.longValue, Value.longValue);
  }

  /** The value union: {@code LONG}, {@code double}, {@code LONGLONG}, {@code LPCSTR}, {@code LPCWSTR}; size 8. */
  public static final class ValueUnion extends Union {
    public int longValue;
    public double doubleValue;
    public long largeValue;
    public @Nullable Pointer AnsiStringValue;
    public @Nullable Pointer WideStringValue;

    public ValueUnion() {
      super();
    }

    int offsetOf(String field) {
      return fieldOffset(field);
    }
  }
}
