package io.winstats.perfcounters.pdh.jna;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import com.sun.jna.Union;
import io.winstats.perfcounters.win32.jna.Guid;
import org.jspecify.annotations.Nullable;

/**
 * The fixed part of {@code PDH_COUNTER_INFO_W}: x64 size 112. Strings follow it in the same buffer ({@code dwLength}
 * is the total). {@code DWORD_PTR} fields are mapped as {@link Pointer} so that they are pointer-sized.
 *
 * <p>Offsets: dwLength 0, dwType 4, CVersion 8, CStatus 12, lScale 16, lDefaultScale 20, dwUserData 24,
 * dwQueryUserData 32, szFullPath 40, path union 48 (48 bytes), szExplainText 96, DataBuffer 104.
 *
 * <p>Internal to {@link JnaPdhLibrary}; public only because JNA reflects over public fields. Not thread-safe.
 */
// JNA's Structure constructor instantiates every nested by-value Structure field (Structure.initializeField),
// so the struct-typed fields below are never null although no Java code assigns them.
@SuppressWarnings("NullAway.Init")
@FieldOrder({
  "dwLength",
  "dwType",
  "CVersion",
  "CStatus",
  "lScale",
  "lDefaultScale",
  "dwUserData",
  "dwQueryUserData",
  "szFullPath",
  "Path",
  "szExplainText",
  "DataBuffer"
})
public final class PdhCounterInfoW extends Structure {
  public int dwLength;
  public int dwType;
  public int CVersion;
  public int CStatus;
  public int lScale;
  public int lDefaultScale;
  public @Nullable Pointer dwUserData;
  public @Nullable Pointer dwQueryUserData;
  public @Nullable Pointer szFullPath;
  public PathUnion Path;
  public @Nullable Pointer szExplainText;
  public int[] DataBuffer = new int[1];

  public PdhCounterInfoW() {
    super();
  }

  /** A view of a buffer PDH filled; call {@link #read()} before use. */
  public PdhCounterInfoW(Pointer memory) {
    super(memory);
  }

  int offsetOf(String field) {
    return fieldOffset(field);
  }

  /**
   * The union of {@code DataItemPath} (40 bytes, "not used") and {@code CounterPath} (48 bytes; the anonymous struct
   * member has the same layout and is not declared twice).
   */
  // JNA's Structure constructor instantiates every nested by-value Structure field (Structure.initializeField),
  // so the struct-typed fields below are never null although no Java code assigns them.
  @SuppressWarnings("NullAway.Init")
  public static final class PathUnion extends Union {
    public DataItemPathElementsW DataItemPath;
    public CounterPathElementsW CounterPath;

    public PathUnion() {
      super();
    }
  }

  /** {@code PDH_COUNTER_PATH_ELEMENTS_W}: size 48. */
  @FieldOrder({
    "szMachineName",
    "szObjectName",
    "szInstanceName",
    "szParentInstance",
    "dwInstanceIndex",
    "szCounterName"
  })
  public static final class CounterPathElementsW extends Structure {
    public @Nullable Pointer szMachineName;
    public @Nullable Pointer szObjectName;
    public @Nullable Pointer szInstanceName;
    public @Nullable Pointer szParentInstance;
    public int dwInstanceIndex;
    public @Nullable Pointer szCounterName;

    public CounterPathElementsW() {
      super();
    }

    int offsetOf(String field) {
      return fieldOffset(field);
    }
  }

  /** {@code PDH_DATA_ITEM_PATH_ELEMENTS_W}: size 40. */
  // JNA's Structure constructor instantiates every nested by-value Structure field (Structure.initializeField),
  // so the struct-typed fields below are never null although no Java code assigns them.
  @SuppressWarnings("NullAway.Init")
  @FieldOrder({"szMachineName", "ObjectGUID", "dwItemId", "szInstanceName"})
  public static final class DataItemPathElementsW extends Structure {
    public @Nullable Pointer szMachineName;
    public Guid ObjectGUID;
    public int dwItemId;
    public @Nullable Pointer szInstanceName;

    public DataItemPathElementsW() {
      super();
    }

    int offsetOf(String field) {
      return fieldOffset(field);
    }
  }
}
