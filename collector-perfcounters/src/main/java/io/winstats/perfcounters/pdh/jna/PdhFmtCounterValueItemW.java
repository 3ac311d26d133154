package io.winstats.perfcounters.pdh.jna;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import org.jspecify.annotations.Nullable;

/**
 * {@code PDH_FMT_COUNTERVALUE_ITEM_W}: x64 size 24; {@code szName} at 0, {@code FmtValue} at 8.
 *
 * <p>Internal to {@link JnaPdhLibrary}; public only because JNA reflects over public fields. Not thread-safe.
 */
// JNA's Structure constructor instantiates every nested by-value Structure field (Structure.initializeField),
// so the struct-typed fields below are never null although no Java code assigns them.
@SuppressWarnings("NullAway.Init")
@FieldOrder({"szName", "FmtValue"})
public final class PdhFmtCounterValueItemW extends Structure {
  public @Nullable Pointer szName;
  public PdhFmtCounterValue FmtValue;

  public PdhFmtCounterValueItemW() {
    super();
  }

  /** A view of one item inside an array buffer; call {@link #read()} before use. */
  public PdhFmtCounterValueItemW(Pointer memory) {
    super(memory);
  }

  int offsetOf(String field) {
    return fieldOffset(field);
  }
}
