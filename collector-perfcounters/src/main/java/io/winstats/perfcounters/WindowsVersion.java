package io.winstats.perfcounters;

import java.util.Locale;
import java.util.Objects;

/**
 * The Windows release as windows_exporter v0.31.8's os collector derives it for {@code windows_os_info} ({@code
 * internal/collector/os/os.go:76-100,162-186@v0.31.8}): the registry's {@code ProductName} and {@code UBR} under
 * {@code HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion}, the version numbers from {@code RtlGetVersion}.
 *
 * @param product {@code ProductName}, trimmed, with its first {@code " 10 "} made {@code " 11 "} from build 22000 on
 *     (Microsoft kept "Windows 10" in the product name of Windows 11)
 * @param majorVersion the major version {@code RtlGetVersion} reports, as upstream keeps it in 8 bits
 * @param minorVersion the minor version, in 8 bits
 * @param buildNumber the build number, in 16 bits
 * @param revision {@code UBR}, the update build revision; 0 when the value does not exist
 */
public record WindowsVersion(String product, int majorVersion, int minorVersion, int buildNumber, long revision) {
  public WindowsVersion {
    Objects.requireNonNull(product, "product");
  }

  /** {@code major.minor.build}, upstream's {@code OSVersion.String()} ({@code osversion_windows.go:63-65@v0.31.8}). */
  public String version() {
    return String.format(Locale.ROOT, "%d.%d.%d", majorVersion, minorVersion, buildNumber);
  }
}
