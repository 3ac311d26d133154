package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.exporter.MetricsServerDecoder;
import io.winstats.exporter.sampling.Snapshot;
import org.junit.jupiter.api.Test;

/** The golden snapshot's resource metrics, read with metrics-server's rules, keep the node and every pod. */
class MetricsServerViewTest {
  @Test
  void metricsServerKeepsEverything() throws Exception {
    String body = ExpositionGoldenTest.text(ResourceMetrics.build(ExpositionGoldenTest.HEALTHY));
    var batch = MetricsServerDecoder.decode(body, 0);
    assertThat(batch.node()).isNotNull();
    assertThat(batch.node().cpuNanos()).isEqualTo(25_000_000_000L);
    assertThat(batch.node().timestampMillis()).isEqualTo(ExpositionGoldenTest.HEALTHY.node().timestamp().toEpochMilli());
    assertThat(batch.pods()).containsOnlyKeys("default/burner", "default/sleeper");
  }

  @Test
  void aContainerWithoutWorkingSetMakesMetricsServerDropItsPod() throws Exception {
    Snapshot noMemory = ExpositionGoldenTest.HEALTHY;
    String body = ExpositionGoldenTest.text(ResourceMetrics.build(noMemory)).replaceAll("(?m)^container_memory_working_set_bytes\\{container=\"sleep\".*\\n", "");
    var batch = MetricsServerDecoder.decode(body, 0);
    assertThat(batch.pods()).containsOnlyKeys("default/burner");
  }
}
