package io.winstats.perfcounters;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One Win32 service as the Service Control Manager describes it, read as windows_exporter v0.31.8's service collector
 * reads it ({@code internal/collector/service/service.go}): the status from {@code EnumServicesStatusExW}, the
 * configuration from {@code QueryServiceConfigW}, the process's creation time from {@code GetProcessTimes}.
 *
 * @param name the service name ({@code lpServiceName}), not the display name
 * @param displayName {@code QUERY_SERVICE_CONFIG.lpDisplayName}; empty when the configuration could not be read
 * @param runAs {@code QUERY_SERVICE_CONFIG.lpServiceStartName}, the account; empty likewise
 * @param pathName {@code QUERY_SERVICE_CONFIG.lpBinaryPathName}; empty likewise
 * @param state {@code SERVICE_STATUS_PROCESS.dwCurrentState}; {@code null} for a code the SCM does not document
 * @param startMode {@code QUERY_SERVICE_CONFIG.dwStartType}; {@code null} for a code the SCM does not document. A
 *     configuration that could not be read is a zeroed one, start type 0, {@link StartMode#BOOT}, as upstream serves it
 * @param processId {@code SERVICE_STATUS_PROCESS.dwProcessId}; 0 when the service has no process
 * @param processStart the creation time of that process; {@code null} when there is none or it could not be read
 */
public record WindowsService(
    String name,
    String displayName,
    String runAs,
    String pathName,
    @Nullable State state,
    @Nullable StartMode startMode,
    long processId,
    @Nullable Instant processStart) {

  public WindowsService {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(displayName, "displayName");
    Objects.requireNonNull(runAs, "runAs");
    Objects.requireNonNull(pathName, "pathName");
    if (processId < 0) {
      throw new IllegalArgumentException("processId must not be negative: " + processId);
    }
  }

  /** {@code dwCurrentState} (winsvc.h), with windows_exporter's label for each (service.go:173-181@v0.31.8). */
  public enum State {
    STOPPED(1, "stopped"),
    START_PENDING(2, "start pending"),
    STOP_PENDING(3, "stop pending"),
    RUNNING(4, "running"),
    CONTINUE_PENDING(5, "continue pending"),
    PAUSE_PENDING(6, "pause pending"),
    PAUSED(7, "paused");

    private final int code;
    private final String label;

    State(int code, String label) {
      this.code = code;
      this.label = label;
    }

    /** The {@code SERVICE_*} value. */
    public int code() {
      return code;
    }

    /** windows_exporter's label value. */
    public String label() {
      return label;
    }

    /** The state of a {@code dwCurrentState} code, or {@code null} for an undocumented one. */
    public static @Nullable State of(int code) {
      for (State s : values()) {
        if (s.code == code) {
          return s;
        }
      }
      return null;
    }
  }

  /** {@code dwStartType} (winsvc.h), with windows_exporter's label for each (service.go:183-189@v0.31.8). */
  public enum StartMode {
    BOOT(0, "boot"),
    SYSTEM(1, "system"),
    AUTO(2, "auto"),
    MANUAL(3, "manual"),
    DISABLED(4, "disabled");

    private final int code;
    private final String label;

    StartMode(int code, String label) {
      this.code = code;
      this.label = label;
    }

    /** The {@code SERVICE_*_START} value ({@code SERVICE_DEMAND_START} for manual). */
    public int code() {
      return code;
    }

    /** windows_exporter's label value. */
    public String label() {
      return label;
    }

    /** The start mode of a {@code dwStartType} code, or {@code null} for an undocumented one. */
    public static @Nullable StartMode of(int code) {
      for (StartMode m : values()) {
        if (m.code == code) {
          return m;
        }
      }
      return null;
    }
  }
}
