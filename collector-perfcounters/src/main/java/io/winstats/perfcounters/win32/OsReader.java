package io.winstats.perfcounters.win32;

import io.winstats.perfcounters.HostName;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.WindowsOs;
import io.winstats.perfcounters.WindowsVersion;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The Windows release and the node's DNS names, read as windows_exporter v0.31.8's os collector reads them ({@code
 * internal/collector/os/os.go}). The release once: upstream reads it when the collector is built (os.go:75-114) and
 * never again, here it is read until it has been read once. The names with every sample: upstream reads them on every
 * scrape (os.go:127,134-160), the three formats in its order, the first failure giving none.
 *
 * <p><b>Failure</b>: a release or names that cannot be read are {@code null} in the {@link WindowsOs}, and {@link
 * NodePart#OS} is put in the sample's missing parts with the failed call; one WARN line {@code event=os_unreadable}
 * per change of failure, one INFO line {@code event=os_recovered} when it ends. Upstream fails the collector's build
 * (no os series) or the scrape's hostname; here the part that was read is still served.
 *
 * <p>Not thread-safe: one sampling thread.
 */
public final class OsReader {
  /** The first build of Windows 11 ({@code osversion.V21H2Win11}, windowsbuilds.go:94@v0.31.8). */
  static final int WINDOWS_11_BUILD = 22000;

  private final SystemInformation system;
  private final Logger log;
  private @Nullable WindowsVersion version;
  private @Nullable String lastFailure;

  public OsReader(SystemInformation system, Logger log) {
    this.system = Objects.requireNonNull(system, "system");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** The release and the names now; what could not be read is {@code null}, with the reason put in {@code missing}. */
  public WindowsOs read(Map<NodePart, String> missing) {
    StringJoiner failures = new StringJoiner("; ");
    WindowsVersion v = version;
    if (v == null) {
      try {
        v = release(system);
        version = v;
      } catch (RuntimeException e) {
        failures.add(reason(e));
      }
    }
    HostName names = null;
    try {
      names = names(system);
    } catch (RuntimeException e) {
      failures.add(reason(e));
    }
    String failure = failures.length() == 0 ? null : failures.toString();
    if (failure != null) {
      missing.put(NodePart.OS, failure);
      if (!failure.equals(lastFailure)) {
        log.warn("event=os_unreadable error=\"{}\"", failure);
      }
    } else if (lastFailure != null) {
      log.info("event=os_recovered");
    }
    lastFailure = failure;
    return new WindowsOs(v, names);
  }

  private static String reason(RuntimeException e) {
    return e instanceof Win32Exception
        ? String.valueOf(e.getMessage())
        : e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  /**
   * os.go:76-86,162-186@v0.31.8: {@code ProductName} (a failure fails the read), {@code UBR} (0 when the value does not
   * exist, any other failure fails the read), then {@code RtlGetVersion} kept in 8, 8 and 16 bits as {@code
   * osversion_windows.go:40-43} keeps it.
   */
  static WindowsVersion release(SystemInformation system) {
    String product = trimSpace(system.registryString(SystemInformation.CURRENT_VERSION_KEY, "ProductName"));
    long revision;
    try {
      revision = system.registryInteger(SystemInformation.CURRENT_VERSION_KEY, "UBR");
    } catch (Win32Exception e) {
      if (e.errorCode() != Win32Exception.ERROR_FILE_NOT_FOUND) {
        throw e;
      }
      revision = 0;
    }
    SystemInformation.OsVersionInfo info = system.rtlGetVersion();
    int major = info.majorVersion() & 0xFF;
    int minor = info.minorVersion() & 0xFF;
    int build = info.buildNumber() & 0xFFFF;
    if (build >= WINDOWS_11_BUILD) {
      // os.go:83-86: Windows 11 keeps "Windows 10" in ProductName; strings.Replace(..., 1) replaces the first only.
      int at = product.indexOf(" 10 ");
      if (at >= 0) {
        product = product.substring(0, at) + " 11 " + product.substring(at + 4);
      }
    }
    return new WindowsVersion(product, major, minor, build, revision);
  }

  /**
   * Go's {@code strings.TrimSpace} (os.go:185): trims what {@code unicode.IsSpace} calls space, the Unicode White_Space
   * characters, no-break spaces included (which {@link String#strip()} keeps).
   */
  static String trimSpace(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && isGoSpace(s.charAt(start))) {
      start++;
    }
    while (end > start && isGoSpace(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(start, end);
  }

  /** Unicode's White_Space: the space separators (Zs, Zl, Zp), tab to carriage return, and NEL (U+0085). */
  private static boolean isGoSpace(char c) {
    return (c >= '\t' && c <= '\r') || c == '\u0085' || Character.isSpaceChar(c);
  }

  /** os.go:134-160@v0.31.8: the DNS host name, the DNS domain and the fully qualified DNS name, in this order. */
  static HostName names(SystemInformation system) {
    String hostname = system.computerNameEx(SystemInformation.COMPUTER_NAME_DNS_HOSTNAME);
    String domain = system.computerNameEx(SystemInformation.COMPUTER_NAME_DNS_DOMAIN);
    String fqdn = system.computerNameEx(SystemInformation.COMPUTER_NAME_DNS_FULLY_QUALIFIED);
    return new HostName(hostname, domain, fqdn);
  }
}
