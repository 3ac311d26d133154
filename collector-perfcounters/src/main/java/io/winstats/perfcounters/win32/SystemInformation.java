package io.winstats.perfcounters.win32;

/**
 * The narrow port to what windows_exporter v0.31.8's os collector reads ({@code internal/collector/os/os.go}): the
 * version {@code RtlGetVersion} reports, values of the registry key of the release, and the computer's names. Every
 * failure is a {@link Win32Exception} naming the function and the code it returned.
 */
public interface SystemInformation {
  /** The registry key under {@code HKEY_LOCAL_MACHINE} that holds the release's values (os.go:164@v0.31.8). */
  String CURRENT_VERSION_KEY = "SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";

  /** {@code COMPUTER_NAME_FORMAT}'s {@code ComputerNameDnsHostname} (sysinfoapi.h). */
  int COMPUTER_NAME_DNS_HOSTNAME = 1;
  /** {@code ComputerNameDnsDomain}. */
  int COMPUTER_NAME_DNS_DOMAIN = 2;
  /** {@code ComputerNameDnsFullyQualified}. */
  int COMPUTER_NAME_DNS_FULLY_QUALIFIED = 3;

  /**
   * The version fields of {@code RTL_OSVERSIONINFOEXW} (wdm.h) as {@code RtlGetVersion} fills them, each a {@code
   * DWORD} held in an {@code int}. Unlike {@code GetVersionEx}, it does not depend on the calling program's manifest.
   */
  record OsVersionInfo(int majorVersion, int minorVersion, int buildNumber) {}

  /** {@code RtlGetVersion}. */
  OsVersionInfo rtlGetVersion();

  /**
   * A {@code REG_SZ} value of {@code HKEY_LOCAL_MACHINE\key}.
   *
   * @throws Win32Exception {@code ERROR_FILE_NOT_FOUND} when the key or the value does not exist, {@code
   *     ERROR_UNSUPPORTED_TYPE} when the value is of another type
   */
  String registryString(String key, String value);

  /**
   * A {@code REG_DWORD} or {@code REG_QWORD} value of {@code HKEY_LOCAL_MACHINE\key}, unsigned.
   *
   * @throws Win32Exception {@code ERROR_FILE_NOT_FOUND} when the key or the value does not exist, {@code
   *     ERROR_UNSUPPORTED_TYPE} when the value is of another type
   */
  long registryInteger(String key, String value);

  /** {@code GetComputerNameExW(format)}: the name, without its terminating NUL. */
  String computerNameEx(int format);
}
