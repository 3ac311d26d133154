package io.winstats.perfcounters;

import java.util.Objects;

/**
 * The node's DNS names from {@code GetComputerNameExW}, as windows_exporter v0.31.8's os collector reads them for
 * {@code windows_os_hostname} ({@code internal/collector/os/os.go:134-160@v0.31.8}).
 *
 * @param hostname {@code ComputerNameDnsHostname}
 * @param domain {@code ComputerNameDnsDomain}; empty on a host in no domain
 * @param fqdn {@code ComputerNameDnsFullyQualified}
 */
public record HostName(String hostname, String domain, String fqdn) {
  public HostName {
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(domain, "domain");
    Objects.requireNonNull(fqdn, "fqdn");
  }
}
