package io.winstats.exporter.parts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PartsReportTest {
  private static final Instant T0 = Instant.parse("2026-11-28T08:00:00Z");
  private static final Instant T1 = Instant.parse("2026-11-28T08:00:10Z");

  @Test
  void theWorstRowDecidesTheStateAndTheExitCode() {
    PartStatus ok = PartStatus.ok("node_source", "procfs", T0);
    PartStatus na = PartStatus.notApplicable("hns", "a Linux node");
    PartStatus degraded = PartStatus.degraded("runtime.pod_stats", "", "not implemented", null);
    PartStatus failed = PartStatus.failed("runtime", "unavailable", "start containerd");
    assertThat(new PartsReport(List.of(ok, na)).exitCode()).isEqualTo(PartsReport.EXIT_OK).isZero();
    assertThat(new PartsReport(List.of(ok, degraded, na)).exitCode()).isEqualTo(PartsReport.EXIT_DEGRADED).isEqualTo(3);
    assertThat(new PartsReport(List.of(degraded, failed)).exitCode()).isEqualTo(PartsReport.EXIT_FAILED).isEqualTo(4);
    assertThat(new PartsReport(List.of(degraded, failed)).overall()).isEqualTo(PartState.FAILED);
  }

  @Test
  void textIsOneRowPerPartWithCauseAndFixBelowIt() {
    String text =
        new PartsReport(
                List.of(
                    PartStatus.ok("node_source", "procfs cores=2", T0),
                    PartStatus.failed("runtime", "unavailable: connection refused", "start containerd")))
            .text();
    assertThat(text)
        .isEqualTo(
            "node_source  ok             procfs cores=2\n"
                + "runtime      failed\n"
                + "             cause: unavailable: connection refused\n"
                + "             fix: start containerd\n"
                + "overall: failed\n");
  }

  @Test
  void jsonCarriesEveryFieldOfEveryRow() throws Exception {
    PartLedger ledger = new PartLedger();
    ledger.ok("runtime", "containerd 2.0.0", T0);
    ledger.error("runtime", PartState.FAILED, "unavailable", "start it");
    ledger.error("runtime", PartState.FAILED, "deadline_exceeded", "start it");
    ledger.notApplicable("hns", "a Linux node");
    JsonNode json = new ObjectMapper().readTree(new PartsReport(ledger.rows()).json());
    assertThat(json.get("state").asText()).isEqualTo("failed");
    JsonNode runtime = json.get("parts").get(0);
    assertThat(runtime.get("name").asText()).isEqualTo("runtime");
    assertThat(runtime.get("state").asText()).isEqualTo("failed");
    assertThat(runtime.get("detail").asText()).isEqualTo("containerd 2.0.0");
    assertThat(runtime.get("cause").asText()).isEqualTo("deadline_exceeded");
    assertThat(runtime.get("fix").asText()).isEqualTo("start it");
    assertThat(runtime.get("last_success").asText()).isEqualTo("2026-11-28T08:00:00Z");
    assertThat(runtime.get("last_error").asText()).isEqualTo("deadline_exceeded");
    assertThat(runtime.get("error_count").asLong()).isEqualTo(2);
    JsonNode hns = json.get("parts").get(1);
    assertThat(hns.get("state").asText()).isEqualTo("not_applicable");
    assertThat(hns.get("cause").isNull()).isTrue();
    assertThat(hns.get("last_success").isNull()).isTrue();
  }

  @Test
  void aRecoveryKeepsTheErrorHistory() {
    PartLedger ledger = new PartLedger();
    ledger.error("node_source", PartState.FAILED, "pdh: no object", null);
    ledger.ok("node_source", "pdh", T1);
    PartStatus row = ledger.get("node_source");
    assertThat(row).isNotNull();
    assertThat(row.state()).isEqualTo(PartState.OK);
    assertThat(row.cause()).isNull();
    assertThat(row.lastError()).isEqualTo("pdh: no object");
    assertThat(row.errorCount()).isEqualTo(1);
    assertThat(row.lastSuccess()).isEqualTo(T1);
    assertThatThrownBy(() -> ledger.error("x", PartState.OK, "c", null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void redactionReplacesNamesAndAddresses() {
    PartsReport report =
        new PartsReport(
            List.of(
                PartStatus.failed(
                    "runtime", "unavailable at unix:///run/secret/containerd.sock from 10.1.2.3 and [fe80::1]:80",
                    "node worker-7 pod web-abc"),
                PartStatus.ok("listen_address", "192.168.0.5:9182 free", T0)));
    String text =
        report.redacted(
                Map.of("unix:///run/secret/containerd.sock", "<runtime-endpoint>", "worker-7", "<node>", "", "x"))
            .text();
    assertThat(text)
        .doesNotContain("secret", "10.1.2.3", "fe80", "worker-7", "192.168.0.5")
        .contains("<runtime-endpoint>", "<node>", "<address>:9182", "<address>:80");
  }
}
