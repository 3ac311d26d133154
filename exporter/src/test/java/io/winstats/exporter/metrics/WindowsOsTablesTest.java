package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.HostName;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.WindowsOs;
import io.winstats.perfcounters.WindowsVersion;
import io.winstats.summary.SampleFixtures;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What windows-exporter.prom (ExpositionGoldenTest) does not show of windows_exporter v0.31.8's os collector: the
 * series of a part that could not be read, a domain member's names, a Windows 11 host's labels.
 */
class WindowsOsTablesTest {
  private static String os(@Nullable WindowsOs os) throws IOException {
    NodeSample node =
        SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L)
            .toBuilder()
            .windowsOs(os)
            .build();
    return ExpositionGoldenTest.text(WindowsExporterSeries.build(node, WindowsExporterCollector.OS));
  }

  @Test
  void aWindows11HostsInfoAndADomainMembersNames() throws IOException {
    String text =
        os(
            new WindowsOs(
                new WindowsVersion("Windows 11 Enterprise", 10, 0, 22631, 4460),
                new HostName("win11-n1", "corp.example.com", "win11-n1.corp.example.com")));

    assertThat(text)
        .contains(
            "windows_os_info{build_number=\"22631\",major_version=\"10\",minor_version=\"0\","
                + "product=\"Windows 11 Enterprise\",revision=\"4460\",version=\"10.0.22631\"} 1.0",
            "windows_os_hostname{domain=\"corp.example.com\",fqdn=\"win11-n1.corp.example.com\",hostname=\"win11-n1\"}"
                + " 1.0",
            "windows_cs_hostname{domain=\"corp.example.com\",fqdn=\"win11-n1.corp.example.com\",hostname=\"win11-n1\"}"
                + " 1.0");
  }

  /** Upstream serves os_info without a hostname point when a name cannot be read (os.go:121-131@v0.31.8). */
  @Test
  void aPartThatCouldNotBeReadServesNoPointAndTheOtherStays() throws IOException {
    String noNames = os(new WindowsOs(new WindowsVersion("Windows Server 2022 Datacenter", 10, 0, 20348, 2849), null));
    assertThat(noNames).contains("windows_os_info{").doesNotContain("windows_os_hostname{", "windows_cs_hostname{");

    String noRelease = os(new WindowsOs(null, new HostName("akswin000000", "", "akswin000000")));
    assertThat(noRelease).contains("windows_os_hostname{", "windows_cs_hostname{").doesNotContain("windows_os_info{");

    assertThat(os(null)).doesNotContain("windows_os_info{", "windows_os_hostname{", "windows_cs_hostname{");
  }

  @Test
  void theInfoHelpIsUpstreamsWithItsBackslashesEscapedOnTheWire() throws IOException {
    assertThat(os(SampleFixtures.windowsNode(SampleFixtures.T1, 0, 0).windowsOs()))
        .contains(
            "# HELP windows_os_info Contains full product name & version in labels. Note that the \"major_version\" for"
                + " Windows 11 is \\\\\"10\\\\\"; a build number greater than 22000 represents Windows 11.");
  }
}
