package io.winstats.perfcounters.win32.jna;

import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.Structure.FieldOrder;
import org.jspecify.annotations.Nullable;

/**
 * {@code ENUM_SERVICE_STATUS_PROCESSW} (winsvc.h): two {@code LPWSTR} and a {@code SERVICE_STATUS_PROCESS}; size 56
 * on x64 (52 padded to the pointers' alignment). {@code EnumServicesStatusExW} writes an array of them at the start of
 * its buffer, the strings they point to after it.
 *
 * <p>Internal to {@link JnaServiceControlManager}; public only because JNA reflects over public fields.
 */
@FieldOrder({"lpServiceName", "lpDisplayName", "ServiceStatusProcess"})
public final class EnumServiceStatusProcessW extends Structure {
  public @Nullable Pointer lpServiceName;
  public @Nullable Pointer lpDisplayName;

  @SuppressWarnings("NullAway.Init") // JNA's Structure constructor creates nested structure fields
  public Status ServiceStatusProcess;

  public EnumServiceStatusProcessW() {
    super();
  }

  /** The item at {@code p}, read. */
  EnumServiceStatusProcessW(Pointer p) {
    super(p);
    read();
  }

  int offsetOf(String field) {
    return fieldOffset(field);
  }

  /** {@code SERVICE_STATUS_PROCESS}: nine {@code DWORD}s, size 36. */
  @FieldOrder({
    "dwServiceType",
    "dwCurrentState",
    "dwControlsAccepted",
    "dwWin32ExitCode",
    "dwServiceSpecificExitCode",
    "dwCheckPoint",
    "dwWaitHint",
    "dwProcessId",
    "dwServiceFlags"
  })
  public static final class Status extends Structure {
    public int dwServiceType;
    public int dwCurrentState;
    public int dwControlsAccepted;
    public int dwWin32ExitCode;
    public int dwServiceSpecificExitCode;
    public int dwCheckPoint;
    public int dwWaitHint;
    public int dwProcessId;
    public int dwServiceFlags;

    public Status() {
      super();
    }

    int offsetOf(String field) {
      return fieldOffset(field);
    }
  }
}
