package io.winstats.perfcounters.win32;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Service Control Manager in memory, answering as the Win32 API documents its structures: {@code
 * ENUM_SERVICE_STATUS_PROCESSW} with {@code SERVICE_STATUS_PROCESS} (Microsoft Learn, winsvc.h), {@code
 * QUERY_SERVICE_CONFIGW}, and a process's {@code lpCreationTime} FILETIME from {@code GetProcessTimes}; failures as the
 * {@code GetLastError} code the call would set. Services are answered in the order they were added, as the SCM
 * answers in its database's (alphabetical) order. The values of {@link #kubernetesNode()} are those of a typical
 * Windows Server 2022 Kubernetes node, made up, not captured.
 */
public final class FakeServiceControlManager implements ServiceControlManager {
  /** {@code SERVICE_WIN32_OWN_PROCESS}. */
  public static final int OWN_PROCESS = 0x10;
  /** {@code SERVICE_WIN32_SHARE_PROCESS}. */
  public static final int SHARE_PROCESS = 0x20;
  /** {@code SERVICE_ACCEPT_STOP | SERVICE_ACCEPT_SHUTDOWN}. */
  public static final int STOP_AND_SHUTDOWN = 0x1 | 0x4;

  /** 2026-11-28T06:00:00Z as a FILETIME. */
  public static final long BOOT_FILETIME = 116_444_736_000_000_000L + 1_795_845_600L * 10_000_000L;

  private final Map<String, EnumServiceStatusProcess> statuses = new LinkedHashMap<>();
  private final Map<String, QueryServiceConfig> configs = new LinkedHashMap<>();
  private final Map<String, Integer> configErrors = new LinkedHashMap<>();
  private final Map<Integer, Long> processTimes = new LinkedHashMap<>();
  private final Map<Integer, Integer> processErrors = new LinkedHashMap<>();
  private int enumError;
  public final List<String> calls = new ArrayList<>();
  public int closes;

  /** Adds a service: its status (state, pid) and its configuration (start type, path, account, display name). */
  public FakeServiceControlManager service(
      String name, int type, int state, int pid, int startType, String path, String account, String displayName) {
    statuses.put(
        name,
        new EnumServiceStatusProcess(
            name,
            displayName,
            new ServiceStatusProcess(type, state, state == 4 ? STOP_AND_SHUTDOWN : 0, state == 1 ? 1077 : 0, 0, 0, 0,
                pid, 0)));
    configs.put(name, new QueryServiceConfig(type, startType, 1, path, "", 0, List.of(), account, displayName));
    return this;
  }

  /** The process {@code pid} was created at this FILETIME. */
  public FakeServiceControlManager process(int pid, long creationFileTime) {
    processTimes.put(pid, creationFileTime);
    return this;
  }

  /** {@code QueryServiceConfigW} (or {@code OpenServiceW}) of {@code name} fails with this code. */
  public FakeServiceControlManager configFails(String name, int errorCode) {
    configErrors.put(name, errorCode);
    return this;
  }

  /** {@code OpenProcess} of {@code pid} fails with this code. */
  public FakeServiceControlManager processFails(int pid, int errorCode) {
    processErrors.put(pid, errorCode);
    return this;
  }

  /** {@code EnumServicesStatusExW} fails with this code from now on; 0 answers again. */
  public FakeServiceControlManager enumFails(int errorCode) {
    enumError = errorCode;
    return this;
  }

  /**
   * A Kubernetes node's services: containerd, hns, kubelet, kube-proxy, vmcompute (the ones the daemon's default
   * filter selects), and three others (one stopped and disabled, one whose process has ended).
   */
  public static FakeServiceControlManager kubernetesNode() {
    long started = BOOT_FILETIME + 45L * 10_000_000L;
    return new FakeServiceControlManager()
        .service("containerd", OWN_PROCESS, 4, 2816, 2,
            "\"C:\\Program Files\\containerd\\bin\\containerd.exe\" --run-service", "LocalSystem", "containerd")
        .service("hns", SHARE_PROCESS, 4, 1532, 3, "C:\\Windows\\system32\\svchost.exe -k NetSvcs -p",
            "LocalSystem", "Host Network Service")
        .service("kube-proxy", OWN_PROCESS, 4, 3340, 2, "C:\\k\\kube-proxy.exe --windows-service", "LocalSystem",
            "kube-proxy")
        .service("kubelet", OWN_PROCESS, 4, 3012, 2, "C:\\k\\kubelet.exe --windows-service", "LocalSystem",
            "kubelet")
        .service("Spooler", OWN_PROCESS, 1, 0, 4, "C:\\Windows\\System32\\spoolsv.exe", "LocalSystem",
            "Print Spooler")
        .service("vmcompute", OWN_PROCESS, 4, 1904, 3, "C:\\Windows\\system32\\vmcompute.exe", "LocalSystem",
            "Hyper-V Host Compute Service")
        .service("W32Time", SHARE_PROCESS, 4, 1440, 3, "C:\\Windows\\system32\\svchost.exe -k LocalService",
            "NT AUTHORITY\\LocalService", "Windows Time")
        .process(2816, started)
        .process(1532, BOOT_FILETIME + 12L * 10_000_000L)
        .process(3340, started + 30L * 10_000_000L)
        .process(3012, started + 20L * 10_000_000L)
        .process(1904, BOOT_FILETIME + 15L * 10_000_000L)
        .process(1440, BOOT_FILETIME + 20L * 10_000_000L);
  }

  @Override
  public List<EnumServiceStatusProcess> enumServicesStatusEx() {
    calls.add("EnumServicesStatusExW");
    if (enumError != 0) {
      throw new Win32Exception("EnumServicesStatusExW", enumError);
    }
    return List.copyOf(statuses.values());
  }

  @Override
  public QueryServiceConfig queryServiceConfig(String serviceName) {
    calls.add("QueryServiceConfigW " + serviceName);
    Integer error = configErrors.get(serviceName);
    if (error != null) {
      throw new Win32Exception("QueryServiceConfigW", error);
    }
    QueryServiceConfig config = configs.get(serviceName);
    if (config == null) {
      throw new Win32Exception("OpenServiceW", 1060); // ERROR_SERVICE_DOES_NOT_EXIST
    }
    return config;
  }

  @Override
  public long processCreationFileTime(int processId) {
    calls.add("GetProcessTimes " + processId);
    Integer error = processErrors.get(processId);
    if (error != null) {
      throw new Win32Exception("OpenProcess", error);
    }
    Long time = processTimes.get(processId);
    if (time == null) {
      throw new Win32Exception("OpenProcess", Win32Exception.ERROR_INVALID_PARAMETER);
    }
    return time;
  }

  @Override
  public void close() {
    closes++;
  }
}
