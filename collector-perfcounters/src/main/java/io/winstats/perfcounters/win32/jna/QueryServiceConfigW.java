package io.winstats.perfcounters.win32.jna;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import org.jspecify.annotations.Nullable;

/**
 * {@code QUERY_SERVICE_CONFIGW} (winsvc.h): size 64 on x64. {@code QueryServiceConfigW} writes it at the start of its
 * buffer, the strings it points to after it.
 *
 * <p>Internal to {@link JnaServiceControlManager}; public only because JNA reflects over public fields.
 */
@FieldOrder({
  "dwServiceType",
  "dwStartType",
  "dwErrorControl",
  "lpBinaryPathName",
  "lpLoadOrderGroup",
  "dwTagId",
  "lpDependencies",
  "lpServiceStartName",
  "lpDisplayName"
})
public final class QueryServiceConfigW extends Structure {
  public int dwServiceType;
  public int dwStartType;
  public int dwErrorControl;
  public @Nullable Pointer lpBinaryPathName;
  public @Nullable Pointer lpLoadOrderGroup;
  public int dwTagId;
  public @Nullable Pointer lpDependencies;
  public @Nullable Pointer lpServiceStartName;
  public @Nullable Pointer lpDisplayName;

  public QueryServiceConfigW() {
    super();
  }

  /** The structure at {@code p}, read. */
  QueryServiceConfigW(Pointer p) {
    super(p);
    read();
  }

  int offsetOf(String field) {
    return fieldOffset(field);
  }
}
