package io.winstats.summary;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.cri.cgroups.CgroupMemory;
import io.winstats.cri.cgroups.CgroupMemoryUsage;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.cri.cgroups.KubepodsCgroup;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.cri.cgroups.Pressure;
import io.winstats.cri.cgroups.PressureLine;
import io.winstats.perfcounters.NodePlatform;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The Linux {@code pods} system container against the kubelet's: the kubepods cgroup through cAdvisor (kubernetes
 * pkg/kubelet/stats/summary_sys_containers.go, memory by cadvisorInfoToMemoryStats in pkg/kubelet/stats/helper.go),
 * whose rssBytes, pageFaults and majorPageFaults the node e2e Summary test (test/e2e_node/summary_test.go) bounds.
 */
class SummaryPodsContainerTest {
  private static final Pressure CPU =
      new Pressure(new PressureLine(1.5, 0.75, 0.1, 1234567), new PressureLine(0.5, 0.25, 0.05, 234567));
  private static final Pressure MEMORY =
      new Pressure(new PressureLine(0.25, 0.5, 0.75, 3000), new PressureLine(0.0, 0.0, 0.0, 1000));

  private final SummaryAssembler assembler = new SummaryAssembler("node-a", NodePlatform.LINUX);
  private final ObjectMapper json = new ObjectMapper();

  private static CgroupSample cgroups(@Nullable KubepodsCgroup kubepods) {
    return CgroupSample.builder(SampleFixtures.T1, CgroupVersion.V2, new NodePressure(null, null, null))
        .kubepods(kubepods)
        .build();
  }

  private static KubepodsCgroup kubepods(
      @Nullable Pressure cpu, @Nullable Pressure memory, @Nullable CgroupMemoryUsage usage) {
    return new KubepodsCgroup(
        CgroupStats.builder("/kubepods")
            .memory(CgroupMemory.builder().rssBytes(700_000_000L).pgfault(4_321L).pgmajfault(12L).build())
            .cpuPressure(cpu)
            .memoryPressure(memory)
            .build(),
        usage);
  }

  private JsonNode podsContainer(@Nullable CgroupSample cgroups) throws Exception {
    JsonNode summary =
        json.readTree(
            SummaryJson.write(
                assembler.assemble(
                    SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
                    SampleFixtures.linuxNode(SampleFixtures.T0, 0, 20_000_000_000L),
                    SampleFixtures.runtime(),
                    cgroups)));
    for (JsonNode c : summary.at("/node/systemContainers")) {
      if (c.get("name").asText().equals("pods")) {
        return c;
      }
    }
    throw new AssertionError("no pods system container in " + summary);
  }

  @Test
  void kubepodsGivesRssFaultsAndPressure() throws Exception {
    JsonNode pods = podsContainer(cgroups(kubepods(CPU, MEMORY, null)));
    JsonNode sums = podsContainer(null);

    assertThat(pods.at("/memory/rssBytes").asLong()).isEqualTo(700_000_000L);
    assertThat(pods.at("/memory/pageFaults").asLong()).isEqualTo(4_321L);
    assertThat(pods.at("/memory/majorPageFaults").asLong()).isEqualTo(12L);
    assertThat(pods.at("/memory/psi/some/total").asLong()).isEqualTo(3000);
    assertThat(pods.at("/cpu/psi/full/total").asLong()).isEqualTo(234567);
    // Without the cgroup's own usage files the runtime's sums stay, and the CPU is always theirs.
    assertThat(pods.at("/memory/workingSetBytes")).isEqualTo(sums.at("/memory/workingSetBytes"));
    assertThat(pods.at("/memory/usageBytes")).isEqualTo(sums.at("/memory/usageBytes"));
    assertThat(pods.at("/cpu/usageCoreNanoSeconds")).isEqualTo(sums.at("/cpu/usageCoreNanoSeconds"));
  }

  /**
   * The kubelet's pods container has usage, working set and availableBytes (limit less working set; the e2e test
   * bounds it by the node allocatable) from the kubepods cgroup itself, not the sums over the pods.
   */
  @Test
  void kubepodsGivesUsageWorkingSetAndAvailable() throws Exception {
    JsonNode pods =
        podsContainer(cgroups(kubepods(null, null, new CgroupMemoryUsage(900_000_000L, 800_000_000L, 3_000_000_000L))));

    assertThat(pods.at("/memory/usageBytes").asLong()).isEqualTo(900_000_000L);
    assertThat(pods.at("/memory/workingSetBytes").asLong()).isEqualTo(800_000_000L);
    assertThat(pods.at("/memory/availableBytes").asLong()).isEqualTo(2_200_000_000L);
  }

  /** A kubepods cgroup without a memory limit (a runtime's, not a kubelet enforcing allocatable) has no available. */
  @Test
  void noAvailableWithoutALimit() throws Exception {
    JsonNode pods =
        podsContainer(cgroups(kubepods(null, null, new CgroupMemoryUsage(900_000_000L, 800_000_000L, null))));

    assertThat(pods.at("/memory/workingSetBytes").asLong()).isEqualTo(800_000_000L);
    assertThat(pods.at("/memory").has("availableBytes")).isFalse();
  }

  /** cgroup v1 has no pressure files: the kubelet reports no PSI there. */
  @Test
  void noPressureWithoutThePressureFiles() throws Exception {
    JsonNode pods = podsContainer(cgroups(kubepods(null, null, null)));

    assertThat(pods.at("/memory/rssBytes").asLong()).isEqualTo(700_000_000L);
    assertThat(pods.at("/memory").has("psi")).isFalse();
    assertThat(pods.at("/cpu").has("psi")).isFalse();
  }

  /** Without a kubepods cgroup (no kubelet's cgroup root, or no cgroups yet) only the pods' sums are there. */
  @Test
  void withoutKubepodsOnlyTheSums() throws Exception {
    for (CgroupSample cgroups : new CgroupSample[] {cgroups(null), null}) {
      JsonNode pods = podsContainer(cgroups);

      assertThat(pods.at("/memory").has("rssBytes")).isFalse();
      assertThat(pods.at("/memory").has("pageFaults")).isFalse();
      assertThat(pods.at("/memory/workingSetBytes").isNumber()).isTrue();
    }
  }
}
