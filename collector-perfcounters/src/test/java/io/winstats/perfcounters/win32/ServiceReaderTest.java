package io.winstats.perfcounters.win32;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.WindowsService;
import io.winstats.perfcounters.WindowsService.StartMode;
import io.winstats.perfcounters.WindowsService.State;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.PatternSyntaxException;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/**
 * {@link ServiceReader} over {@link FakeServiceControlManager}, against windows_exporter v0.31.8's service collector
 * ({@code internal/collector/service/service.go}, cited per case).
 */
class ServiceReaderTest {
  private static final ServiceFilter KUBERNETES =
      new ServiceFilter("containerd|docker|hns|kube-proxy|kubelet|vmcompute|csi-proxy", "");

  private static List<WindowsService> read(FakeServiceControlManager scm, ServiceFilter filter) {
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);
    List<WindowsService> services = new ServiceReader(scm, filter, NOPLogger.NOP_LOGGER).read(missing);
    assertThat(missing).isEmpty();
    return services;
  }

  @Test
  void readsStatusConfigurationAndProcessStartOfEachSelectedService() {
    List<WindowsService> services = read(FakeServiceControlManager.kubernetesNode(), KUBERNETES);

    assertThat(services).extracting(WindowsService::name)
        .containsExactly("containerd", "hns", "kube-proxy", "kubelet", "vmcompute");
    // service.go:299-307: info's labels from QUERY_SERVICE_CONFIG (display name, account, binary path), not the
    // enumeration's display name; 309-342: state from dwCurrentState, start mode from dwStartType.
    assertThat(services.get(1))
        .isEqualTo(
            new WindowsService(
                "hns",
                "Host Network Service",
                "LocalSystem",
                "C:\\Windows\\system32\\svchost.exe -k NetSvcs -p",
                State.RUNNING,
                StartMode.MANUAL,
                1532,
                Instant.parse("2026-11-28T06:00:12Z")));
    assertThat(services.get(3).startMode()).isEqualTo(StartMode.AUTO);
    assertThat(services.get(3).processStart()).isEqualTo(Instant.parse("2026-11-28T06:01:05Z"));
  }

  @Test
  void everyServiceWithWindowsExportersDefaultsAndNoProcessForAStoppedOne() {
    FakeServiceControlManager scm = FakeServiceControlManager.kubernetesNode();
    List<WindowsService> services = read(scm, ServiceFilter.ALL);

    assertThat(services).hasSize(7);
    WindowsService spooler = services.stream().filter(s -> s.name().equals("Spooler")).findFirst().orElseThrow();
    assertThat(spooler.state()).isEqualTo(State.STOPPED);
    assertThat(spooler.startMode()).isEqualTo(StartMode.DISABLED);
    // service.go:344-346: no process id, no process series, no GetProcessTimes
    assertThat(spooler.processId()).isZero();
    assertThat(spooler.processStart()).isNull();
    assertThat(scm.calls).doesNotContain("GetProcessTimes 0").contains("GetProcessTimes 1440");
  }

  @Test
  void theFilterIsAppliedBeforeTheConfigurationIsAsked() {
    FakeServiceControlManager scm = FakeServiceControlManager.kubernetesNode();
    read(scm, new ServiceFilter("kubelet", ""));

    assertThat(scm.calls)
        .containsExactly("EnumServicesStatusExW", "QueryServiceConfigW kubelet", "GetProcessTimes 3012");
  }

  @Test
  void aConfigurationWithoutItsFileIsServedZeroedAndAnyOtherConfigurationFailureLeavesTheServiceOut() {
    FakeServiceControlManager scm =
        FakeServiceControlManager.kubernetesNode()
            .configFails("hns", Win32Exception.ERROR_MUI_FILE_NOT_FOUND)
            .configFails("kube-proxy", Win32Exception.ERROR_FILE_NOT_FOUND)
            .configFails("kubelet", Win32Exception.ERROR_ACCESS_DENIED);
    List<WindowsService> services = read(scm, KUBERNETES);

    // service.go:287-297: ERROR_FILE_NOT_FOUND and ERROR_MUI_FILE_NOT_FOUND give the zero mgr.Config, whose start
    // type 0 is SERVICE_BOOT_START; any other error returns before a series is sent.
    assertThat(services).extracting(WindowsService::name)
        .containsExactly("containerd", "hns", "kube-proxy", "vmcompute");
    WindowsService hns = services.get(1);
    assertThat(hns.displayName()).isEmpty();
    assertThat(hns.runAs()).isEmpty();
    assertThat(hns.pathName()).isEmpty();
    assertThat(hns.startMode()).isEqualTo(StartMode.BOOT);
    assertThat(hns.state()).isEqualTo(State.RUNNING);
  }

  @Test
  void aProcessWhoseTimesCannotBeReadKeepsItsServiceWithoutAStart() {
    FakeServiceControlManager scm =
        FakeServiceControlManager.kubernetesNode().processFails(3012, Win32Exception.ERROR_ACCESS_DENIED);
    WindowsService kubelet = read(scm, new ServiceFilter("kubelet", "")).get(0);

    // service.go:350-376: the process series needs GetProcessTimes; the other series stay.
    assertThat(kubelet.processId()).isEqualTo(3012);
    assertThat(kubelet.processStart()).isNull();
    assertThat(kubelet.state()).isEqualTo(State.RUNNING);
  }

  @Test
  void aFailedEnumerationIsAMissingPartUntilItAnswersAgain() {
    FakeServiceControlManager scm =
        FakeServiceControlManager.kubernetesNode().enumFails(Win32Exception.ERROR_ACCESS_DENIED);
    ServiceReader reader = new ServiceReader(scm, KUBERNETES, NOPLogger.NOP_LOGGER);
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);

    assertThat(reader.read(missing)).isEmpty();
    assertThat(missing).containsEntry(NodePart.SERVICES, "EnumServicesStatusExW failed: ERROR_ACCESS_DENIED");

    scm.enumFails(0);
    Map<NodePart, String> after = new EnumMap<>(NodePart.class);
    assertThat(reader.read(after)).hasSize(5);
    assertThat(after).isEmpty();
    reader.close();
    assertThat(scm.closes).isEqualTo(1);
  }

  @Test
  void fileTimesAreHundredNanosecondsSince1601() {
    assertThat(ServiceReader.fromFileTime(FakeServiceControlManager.BOOT_FILETIME))
        .isEqualTo(Instant.parse("2026-11-28T06:00:00Z"));
    assertThat(ServiceReader.fromFileTime(116_444_736_000_000_000L + 15)).isEqualTo(Instant.ofEpochSecond(0, 1500));
    assertThat(ServiceReader.fromFileTime(0)).isEqualTo(Instant.parse("1601-01-01T00:00:00Z"));
  }

  @Test
  void undocumentedCodesHaveNoStateOrStartMode() {
    assertThat(State.of(4)).isEqualTo(State.RUNNING);
    assertThat(State.of(0)).isNull();
    assertThat(State.of(8)).isNull();
    assertThat(StartMode.of(3)).isEqualTo(StartMode.MANUAL);
    assertThat(StartMode.of(5)).isNull();
  }

  /** Filters as windows_exporter's flags compile them: {@code ^(?:%s)$} (service.go:113-121@v0.31.8). */
  @Test
  void filtersAreAnchoredToTheWholeNameAndExcludeWins() {
    assertThat(ServiceFilter.ALL.includes("kubelet")).isTrue();
    assertThat(ServiceFilter.ALL.includes("")).as(".+ needs a character").isFalse();
    ServiceFilter kube = new ServiceFilter("kube.*", "kube-proxy");
    assertThat(kube.includes("kubelet")).isTrue();
    assertThat(kube.includes("kube-proxy")).isFalse();
    assertThat(kube.includes("mykubelet")).as("anchored at the start").isFalse();
    assertThat(new ServiceFilter("hns", "").includes("hnsx")).as("anchored at the end").isFalse();
    assertThat(new ServiceFilter("a|b", "").includes("ab")).as("alternation inside the group").isFalse();
    assertThat(new ServiceFilter("HNS", "").includes("hns")).as("case-sensitive, as Go's regexp").isFalse();
    assertThat(new ServiceFilter(".+", "")).isEqualTo(ServiceFilter.ALL).hasSameHashCodeAs(ServiceFilter.ALL);
    assertThatThrownBy(() -> new ServiceFilter("(", "")).isInstanceOf(PatternSyntaxException.class);
  }
}
