package io.winstats.perfcounters.win32;

import java.util.List;
import java.util.Objects;

/**
 * The narrow port to the Service Control Manager (and the two process calls the service collector needs), in Java
 * terms: the records carry the fields of the Win32 structures as Microsoft Learn documents them, strings decoded.
 *
 * <p>Every failure is a {@link Win32Exception} naming the function and the {@code GetLastError} code. Implementations
 * may be called from one thread at a time.
 */
public interface ServiceControlManager extends AutoCloseable {

  /**
   * {@code SERVICE_STATUS_PROCESS} (winsvc.h): nine {@code DWORD}s, in this order.
   *
   * @param processId {@code dwProcessId}; 0 when the service runs in no process now
   */
  record ServiceStatusProcess(
      int serviceType,
      int currentState,
      int controlsAccepted,
      int win32ExitCode,
      int serviceSpecificExitCode,
      int checkPoint,
      int waitHint,
      int processId,
      int serviceFlags) {}

  /** {@code ENUM_SERVICE_STATUS_PROCESSW}: the service name, its display name and its status. */
  record EnumServiceStatusProcess(String serviceName, String displayName, ServiceStatusProcess status) {
    public EnumServiceStatusProcess {
      Objects.requireNonNull(serviceName, "serviceName");
      Objects.requireNonNull(displayName, "displayName");
      Objects.requireNonNull(status, "status");
    }
  }

  /**
   * {@code QUERY_SERVICE_CONFIGW} (winsvc.h), in field order; a NULL string is the empty string.
   *
   * @param dependencies the double-NUL-terminated list of names split
   * @param serviceStartName the account the service runs as
   */
  record QueryServiceConfig(
      int serviceType,
      int startType,
      int errorControl,
      String binaryPathName,
      String loadOrderGroup,
      int tagId,
      List<String> dependencies,
      String serviceStartName,
      String displayName) {
    public QueryServiceConfig {
      Objects.requireNonNull(binaryPathName, "binaryPathName");
      Objects.requireNonNull(loadOrderGroup, "loadOrderGroup");
      dependencies = List.copyOf(dependencies);
      Objects.requireNonNull(serviceStartName, "serviceStartName");
      Objects.requireNonNull(displayName, "displayName");
    }

    /** The zeroed configuration upstream serves when the SCM has none to give (service.go:286-307@v0.31.8). */
    public static QueryServiceConfig zero() {
      return new QueryServiceConfig(0, 0, 0, "", "", 0, List.of(), "", "");
    }
  }

  /**
   * {@code EnumServicesStatusExW(scm, SC_ENUM_PROCESS_INFO, SERVICE_WIN32, SERVICE_STATE_ALL, ...)} on the manager
   * opened with {@code SC_MANAGER_ENUMERATE_SERVICE}, grown until every service fits (service.go:379-430@v0.31.8).
   * An entry whose name pointer is invalid is left out, as upstream skips it (service.go:245-252@v0.31.8).
   */
  List<EnumServiceStatusProcess> enumServicesStatusEx();

  /**
   * {@code OpenServiceW(scm, name, SERVICE_QUERY_CONFIG)}, {@code QueryServiceConfigW} grown until it fits, then
   * {@code CloseServiceHandle} (service.go:268-297,460-501@v0.31.8).
   */
  QueryServiceConfig queryServiceConfig(String serviceName);

  /**
   * {@code OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION)}, {@code GetProcessTimes}, {@code CloseHandle}
   * (service.go:432-458@v0.31.8).
   *
   * @return the {@code lpCreationTime} FILETIME: 100-nanosecond intervals since 1601-01-01 UTC
   */
  long processCreationFileTime(int processId);

  /** {@code CloseServiceHandle} on the manager. Idempotent. */
  @Override
  void close();
}
