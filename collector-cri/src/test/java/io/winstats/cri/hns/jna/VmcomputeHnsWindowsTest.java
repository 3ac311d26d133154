package io.winstats.cri.hns.jna;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.hns.HnsEndpoint;
import io.winstats.cri.hns.HnsReplies;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * One real HNS call through {@code vmcompute.dll}, on a Windows host with the Containers feature (the workflow's
 * {@code cri} job asserts it ran): {@code GET /endpoints/}, as hcsshim's {@code HNSListEndpointRequest} asks it
 * (internal/hns/hnsendpoint.go@v0.15.0-rc.1), and its reply parsed by the daemon's reader. The raw reply is printed,
 * so the first run on a runner records which envelope HNS sends for the runner's endpoints (none, most likely: the
 * HostProcess pods share the host network), the shape the reader's fakes copy.
 */
@EnabledOnOs(OS.WINDOWS)
class VmcomputeHnsWindowsTest {
  @Test
  void theEndpointListOfThisHostParses() {
    String reply = new VmcomputeHns().call("GET", "/endpoints/", "");
    System.out.println("VmcomputeHnsWindowsTest GET /endpoints/ reply: " + reply);

    List<HnsEndpoint> endpoints = HnsReplies.endpoints(reply);

    System.out.println("VmcomputeHnsWindowsTest endpoints parsed: " + endpoints.size());
    assertThat(reply).as("an envelope").containsIgnoringCase("\"success\"");
    assertThat(endpoints).allSatisfy(e -> assertThat(e.id()).isNotBlank());
  }
}
