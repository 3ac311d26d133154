package io.winstats.summary;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupSpec;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.cri.cgroups.Pressure;
import io.winstats.cri.cgroups.PressureLine;
import io.winstats.perfcounters.NodePlatform;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** PSI in the Summary (kubelet stats/v1alpha1 PSIStats, GA in 1.36): present where the host has it, else absent. */
class SummaryPressureTest {
  private static final Pressure NODE_CPU =
      Pressure.parse("some avg10=83.24 avg60=61.16 avg300=25.95 total=103600009\n");
  private static final Pressure CGROUP =
      new Pressure(new PressureLine(1.5, 0.75, 0.1, 1234567), new PressureLine(0.5, 0.25, 0.05, 234567));

  private final SummaryAssembler assembler = new SummaryAssembler("node-a", NodePlatform.LINUX);
  private final ObjectMapper json = new ObjectMapper();

  private static CgroupSample cgroups(RuntimeSample runtime, @Nullable Pressure cgroupPressure) {
    Map<String, CgroupStats> containers = new HashMap<>();
    Map<String, CgroupStats> pods = new HashMap<>();
    for (PodSample pod : runtime.pods()) {
      pods.put(pod.sandboxId(), stats("/pod", cgroupPressure));
      for (ContainerSample c : pod.containers()) {
        containers.put(c.id(), stats("/pod/" + c.id(), cgroupPressure));
      }
    }
    return CgroupSample.builder(
            SampleFixtures.T1,
            cgroupPressure == null ? CgroupVersion.V1 : CgroupVersion.V2,
            new NodePressure(NODE_CPU, CGROUP, CGROUP))
        .containers(containers)
        .pods(pods)
        .build();
  }

  private static CgroupStats stats(String path, @Nullable Pressure p) {
    return CgroupStats.builder(path).cpuPressure(p).memoryPressure(p).ioPressure(p).spec(CgroupSpec.NONE).build();
  }

  private JsonNode summary(@Nullable CgroupSample cgroups) throws Exception {
    return json.readTree(
        SummaryJson.write(
            assembler.assemble(
                SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
                SampleFixtures.linuxNode(SampleFixtures.T0, 0, 20_000_000_000L),
                SampleFixtures.runtime(),
                cgroups)));
  }

  @Test
  void cgroupV2NodeCarriesPsiOnNodePodsAndContainers() throws Exception {
    JsonNode s = summary(cgroups(SampleFixtures.runtime(), CGROUP));

    // /proc/pressure/cpu without a "full" line: full is zeros, as the kubelet's non-pointer PSIData shows it.
    assertThat(s.at("/node/cpu/psi/some/total").asLong()).isEqualTo(103600009);
    assertThat(s.at("/node/cpu/psi/some/avg10").asDouble()).isEqualTo(83.24);
    assertThat(s.at("/node/cpu/psi/full/total").asLong()).isZero();
    assertThat(s.at("/node/memory/psi/full/total").asLong()).isEqualTo(234567);
    assertThat(s.at("/node/io/psi/some/avg60").asDouble()).isEqualTo(0.75);
    // metav1.Time: RFC 3339 in whole seconds.
    assertThat(s.at("/node/io/time").asText())
        .isEqualTo(SampleFixtures.T1.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    JsonNode pod = s.at("/pods/0");
    assertThat(pod.at("/cpu/psi/some/total").asLong()).isEqualTo(1234567);
    assertThat(pod.at("/memory/psi/full/avg300").asDouble()).isEqualTo(0.05);
    assertThat(pod.at("/io/psi/some/total").asLong()).isEqualTo(1234567);
    assertThat(pod.at("/containers/0/cpu/psi/full/total").asLong()).isEqualTo(234567);
    assertThat(pod.at("/containers/0/io/psi/some/total").asLong()).isEqualTo(1234567);
  }

  @Test
  void cgroupV1NodeHasNodePsiOnlyAndNoZerosForPods() throws Exception {
    JsonNode s = summary(cgroups(SampleFixtures.runtime(), null));

    assertThat(s.at("/node/cpu/psi").isMissingNode()).isFalse();
    JsonNode pod = s.at("/pods/0");
    assertThat(pod.at("/cpu").isMissingNode()).isFalse();
    assertThat(pod.at("/cpu/psi").isMissingNode()).isTrue();
    assertThat(pod.at("/memory/psi").isMissingNode()).isTrue();
    assertThat(pod.has("io")).isFalse();
    assertThat(pod.at("/containers/0/cpu/psi").isMissingNode()).isTrue();
    assertThat(pod.at("/containers/0").has("io")).isFalse();
  }

  @Test
  void withoutCgroupsThereIsNoPsiAnywhere() throws Exception {
    JsonNode s = summary(null);

    assertThat(s.at("/node/cpu/psi").isMissingNode()).isTrue();
    assertThat(s.at("/node").has("io")).isFalse();
    assertThat(s.at("/pods/0/cpu/psi").isMissingNode()).isTrue();
  }
}
