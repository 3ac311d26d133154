package io.winstats.perfcounters.win32;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The answers of {@code RtlGetVersion}, {@code RegGetValueW} and {@code GetComputerNameExW} in memory, as Microsoft
 * Learn documents them: {@code RTL_OSVERSIONINFOEXW}'s version fields; a registry value by key and name, both
 * case-insensitive as the registry's are, typed {@code REG_SZ}, {@code REG_DWORD} or {@code REG_QWORD}, {@code
 * ERROR_FILE_NOT_FOUND} for a key or value that does not exist and {@code ERROR_UNSUPPORTED_TYPE} for a value of
 * another type than the one asked for; a name per {@code COMPUTER_NAME_FORMAT}, empty for the DNS domain of a host in
 * no domain, a failure as the {@code GetLastError} code the call would set.
 *
 * <p>{@link #windowsServer2022()} is an Azure Kubernetes Windows node in no domain, as such a node reports it: Windows
 * Server 2022 Datacenter (build 20348, the November 2024 update 20348.2849), named {@code akswin000000}; made up, not
 * captured. Its registry key holds the values a real one does, beside the two windows_exporter reads ({@code
 * ProductName} and {@code UBR}, os.go:173-178@v0.31.8), so that a read of the wrong one shows.
 */
public final class FakeSystemInformation implements SystemInformation {
  /** A {@code REG_SZ} value. */
  public record Sz(String value) {}

  /** A {@code REG_DWORD} value, as the 32 bits Windows stores. */
  public record Dword(int value) {}

  /** A {@code REG_QWORD} value. */
  public record Qword(long value) {}

  private final Map<String, Map<String, Object>> registry = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
  private OsVersionInfo version;
  private final Map<Integer, String> names = new LinkedHashMap<>();
  private final Map<Integer, Integer> nameErrors = new LinkedHashMap<>();
  private int versionStatus;
  /** Every call, in order: {@code RtlGetVersion}, {@code RegGetValueW <value>}, {@code GetComputerNameExW <format>}. */
  public final List<String> calls = new ArrayList<>();

  public FakeSystemInformation(OsVersionInfo version) {
    this.version = version;
  }

  /** An Azure Kubernetes Windows Server 2022 node in no domain (see the class comment). */
  public static FakeSystemInformation windowsServer2022() {
    return new FakeSystemInformation(new OsVersionInfo(10, 0, 20348))
        .value("BuildLabEx", new Sz("20348.1.amd64fre.fe_release.210507-1500"))
        .value("CurrentBuild", new Sz("20348"))
        .value("CurrentBuildNumber", new Sz("20348"))
        .value("CurrentMajorVersionNumber", new Dword(10))
        .value("CurrentMinorVersionNumber", new Dword(0))
        .value("CurrentType", new Sz("Multiprocessor Free"))
        .value("CurrentVersion", new Sz("6.3"))
        .value("DisplayVersion", new Sz("21H2"))
        .value("EditionID", new Sz("ServerDatacenter"))
        .value("InstallationType", new Sz("Server"))
        .value("ProductName", new Sz("Windows Server 2022 Datacenter"))
        .value("ReleaseId", new Sz("2009"))
        .value("UBR", new Dword(2849))
        .names("akswin000000", "");
  }

  /** Sets a value of {@code HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion}. */
  public FakeSystemInformation value(String name, Object value) {
    registry.computeIfAbsent(CURRENT_VERSION_KEY, k -> new TreeMap<>(String.CASE_INSENSITIVE_ORDER)).put(name, value);
    return this;
  }

  /** Deletes a value of the release's key. */
  public FakeSystemInformation delete(String name) {
    Map<String, Object> values = registry.get(CURRENT_VERSION_KEY);
    if (values != null) {
      values.remove(name);
    }
    return this;
  }

  /** What {@code RtlGetVersion} reports. */
  public FakeSystemInformation version(OsVersionInfo value) {
    this.version = value;
    return this;
  }

  /** {@code RtlGetVersion} returns this NTSTATUS (0: success). */
  public FakeSystemInformation versionStatus(int ntStatus) {
    this.versionStatus = ntStatus;
    return this;
  }

  /**
   * The DNS names: the host name, and the domain ({@code ""} for none); the fully qualified name is {@code
   * host.domain}, or the host name alone outside a domain.
   */
  public FakeSystemInformation names(String host, String domain) {
    names.put(COMPUTER_NAME_DNS_HOSTNAME, host);
    names.put(COMPUTER_NAME_DNS_DOMAIN, domain);
    names.put(COMPUTER_NAME_DNS_FULLY_QUALIFIED, domain.isEmpty() ? host : host + "." + domain);
    return this;
  }

  /** {@code GetComputerNameExW(format)} fails with this code (0: succeeds again). */
  public FakeSystemInformation nameFails(int format, int errorCode) {
    if (errorCode == 0) {
      nameErrors.remove(format);
    } else {
      nameErrors.put(format, errorCode);
    }
    return this;
  }

  @Override
  public OsVersionInfo rtlGetVersion() {
    calls.add("RtlGetVersion");
    if (versionStatus != 0) {
      throw new Win32Exception("RtlGetVersion", versionStatus);
    }
    return version;
  }

  @Override
  public String registryString(String key, String value) {
    Object v = registryValue(key, value);
    if (v instanceof Sz sz) {
      return sz.value();
    }
    throw new Win32Exception("RegGetValueW " + value, Win32Exception.ERROR_UNSUPPORTED_TYPE);
  }

  @Override
  public long registryInteger(String key, String value) {
    Object v = registryValue(key, value);
    if (v instanceof Dword d) {
      return Integer.toUnsignedLong(d.value());
    }
    if (v instanceof Qword q) {
      return q.value();
    }
    throw new Win32Exception("RegGetValueW " + value, Win32Exception.ERROR_UNSUPPORTED_TYPE);
  }

  private Object registryValue(String key, String value) {
    calls.add("RegGetValueW " + value);
    Map<String, Object> values = registry.get(key);
    Object v = values == null ? null : values.get(value);
    if (v == null) {
      throw new Win32Exception("RegGetValueW " + value, Win32Exception.ERROR_FILE_NOT_FOUND);
    }
    return v;
  }

  @Override
  public String computerNameEx(int format) {
    calls.add("GetComputerNameExW " + format);
    Integer error = nameErrors.get(format);
    if (error != null) {
      throw new Win32Exception("GetComputerNameExW", error);
    }
    String name = names.get(format);
    if (name == null) {
      throw new Win32Exception("GetComputerNameExW", Win32Exception.ERROR_INVALID_PARAMETER);
    }
    return name;
  }
}
