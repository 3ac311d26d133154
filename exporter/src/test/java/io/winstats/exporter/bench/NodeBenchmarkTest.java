package io.winstats.exporter.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NodeBenchmarkTest {
  @Test
  void failedCriRoundsSumEveryReasonOfTheCriCollectorOnly() {
    String metrics =
        """
        # TYPE winstats_exporter_collector_errors_total counter
        winstats_exporter_collector_errors_total{collector="cri",reason="deadline_exceeded"} 4.0
        winstats_exporter_collector_errors_total{collector="cri",reason="unavailable"} 1.0
        winstats_exporter_collector_errors_total{collector="node_procfs",reason="io"} 7.0
        winstats_exporter_collector_success{collector="cri"} 1.0
        """;
    assertThat(NodeBenchmark.failedCriRounds(metrics)).isEqualTo(5.0);
    assertThat(NodeBenchmark.failedCriRounds("")).isZero();
  }
}
