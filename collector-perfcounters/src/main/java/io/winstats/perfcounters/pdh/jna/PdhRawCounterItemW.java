package io.winstats.perfcounters.pdh.jna;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import org.jspecify.annotations.Nullable;

/**
 * {@code PDH_RAW_COUNTER_ITEM_W}: x64 size 48; {@code szName} at 0, {@code RawValue} at 8. The name points into the
 * same buffer, after the items.
 *
 * <p>Internal to {@link JnaPdhLibrary}; public only because JNA reflects over public fields. Not thread-safe.
 */
// JNA's Structure constructor instantiates every nested by-value Structure field (Structure.initializeField),
// so the struct-typed fields below are never null although no Java code assigns them.
@SuppressWarnings("NullAway.Init")
@FieldOrder({"szName", "RawValue"})
public final class PdhRawCounterItemW extends Structure {
  public @Nullable Pointer szName;
  public PdhRawCounter RawValue;

  public PdhRawCounterItemW() {
    super();
  }

  /** A view of one item inside an array buffer; call {@link #read()} before use. */
  public PdhRawCounterItemW(Pointer memory) {
    super(memory);
  }

  int offsetOf(String field) {
    return fieldOffset(field);
  }
}
