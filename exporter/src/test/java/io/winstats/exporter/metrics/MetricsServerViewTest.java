package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.exporter.MetricsServerDecoder;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.summary.SampleFixtures;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
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

  /**
   * A pod whose init container completed: containerd 1.6 still reports the exited container's last CPU and memory.
   * The kubelet leaves it out by its CRI state, and so does the daemon; served, its frozen readings would pose as a
   * running container's.
   */
  @Test
  void aCompletedInitContainerIsLeftOutSoMetricsServerKeepsThePod() throws Exception {
    Snapshot healthy = ExpositionGoldenTest.HEALTHY;
    RuntimeSample runtime = healthy.runtime();
    List<PodSample> pods = new ArrayList<>();
    for (PodSample p : runtime.pods()) {
      ContainerSample init = SampleFixtures.exited("c-init-" + p.ref().name(), "init", 0,
          new io.winstats.cri.CpuUsage(SampleFixtures.T0, 54_000_000L, null));
      pods.add(p.toBuilder().containers(Stream.concat(p.containers().stream(), Stream.of(init)).toList()).build());
    }
    Snapshot withInit =
        new Snapshot(healthy.version(), healthy.node(), healthy.previousNode(), runtime.toBuilder().pods(pods).build(),
            null);

    String body = ExpositionGoldenTest.text(ResourceMetrics.build(withInit));

    assertThat(body).doesNotContain("container=\"init\"");
    var batch = MetricsServerDecoder.decode(body, 0);
    assertThat(batch.pods()).containsOnlyKeys("default/burner", "default/sleeper");
    assertThat(batch.pods().get("default/sleeper")).containsOnlyKeys("sleep");
  }
}
