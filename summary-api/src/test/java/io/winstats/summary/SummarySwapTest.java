package io.winstats.summary;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.CgroupMemory;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupSpec;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Swap in the Summary (kubelet stats/v1alpha1 {@code SwapStats} on node, pods and containers), as the kubelet's
 * {@code cadvisorInfoToSwapStats} fills it: usage, and available = limit − usage only under a limit. Absent where the
 * host has no figure (no swap accounting, Windows), never 0.
 */
class SummarySwapTest {
  private static final long MIB = 1L << 20;

  private final ObjectMapper json = new ObjectMapper();

  private static NodeSample nodeWithSwap(@Nullable Long total, @Nullable Long free) {
    NodeSample n = SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L);
    NodeMemory m = n.memory();
    NodeMemory swapped =
        NodeMemory.builder()
            .totalBytes(m.totalBytes())
            .availableBytes(m.availableBytes())
            .workingSetBytes(m.workingSetBytes())
            .usageBytes(m.usageBytes())
            .freeBytes(m.freeBytes())
            .swapTotalBytes(total)
            .swapFreeBytes(free)
            .build();
    return n.toBuilder().memory(swapped).build();
  }

  /** Every pod's and container's cgroup with {@code swap} bytes swapped out under {@code limit}. */
  private static CgroupSample cgroups(RuntimeSample runtime, @Nullable Long swap, @Nullable Long limit) {
    Map<String, CgroupStats> containers = new HashMap<>();
    Map<String, CgroupStats> pods = new HashMap<>();
    CgroupMemory memory = CgroupMemory.builder().swapBytes(swap).swapLimitBytes(limit).build();
    for (PodSample pod : runtime.pods()) {
      pods.put(pod.sandboxId(), CgroupStats.builder("/pod").memory(memory).spec(CgroupSpec.NONE).build());
      for (ContainerSample c : pod.containers()) {
        containers.put(c.id(), CgroupStats.builder("/pod/" + c.id()).memory(memory).spec(CgroupSpec.NONE).build());
      }
    }
    return CgroupSample.builder(SampleFixtures.T1, CgroupVersion.V2, new NodePressure(null, null, null))
        .containers(containers)
        .pods(pods)
        .build();
  }

  private JsonNode summary(SummaryAssembler assembler, NodeSample node, @Nullable CgroupSample cgroups)
      throws Exception {
    return json.readTree(SummaryJson.write(assembler.assemble(node, null, SampleFixtures.runtime(), cgroups)));
  }

  @Test
  void nodeSwapIsMeminfosUsageAndFreeSwap() throws Exception {
    JsonNode s =
        summary(new SummaryAssembler("node-a", NodePlatform.LINUX), nodeWithSwap(2048 * MIB, 1536 * MIB), null);
    assertThat(s.at("/node/swap/swapUsageBytes").asLong()).isEqualTo(512 * MIB);
    assertThat(s.at("/node/swap/swapAvailableBytes").asLong()).isEqualTo(1536 * MIB);
    assertThat(s.at("/node/swap/time").asText()).isEqualTo("2026-11-21T08:00:10Z");
  }

  @Test
  void nodeSwapIsAbsentOnWindowsAndWithoutSwapFigures() throws Exception {
    assertThat(summary(new SummaryAssembler("node-a", NodePlatform.WINDOWS), nodeWithSwap(2048 * MIB, 1536 * MIB), null)
            .at("/node").has("swap"))
        .as("the kubelet reports node swap on non-Windows systems only")
        .isFalse();
    assertThat(summary(new SummaryAssembler("node-a", NodePlatform.LINUX), nodeWithSwap(null, null), null).at("/node").has("swap"))
        .isFalse();
  }

  @Test
  void podAndContainerSwapComeFromTheCgroupWithAvailableUnderALimit() throws Exception {
    RuntimeSample runtime = SampleFixtures.runtime();
    SummaryAssembler assembler = new SummaryAssembler("node-a", NodePlatform.LINUX);
    byte[] written =
        SummaryJson.write(
            assembler.assemble(
                nodeWithSwap(2048 * MIB, 1536 * MIB), null, runtime, cgroups(runtime, 8 * MIB, 64 * MIB)));
    SummaryAssemblerTest.assertMatchesGolden("linux-node-swap.json", written);
    JsonNode s = json.readTree(written);

    JsonNode pod = s.at("/pods/0");
    assertThat(pod.at("/swap/swapUsageBytes").asLong()).isEqualTo(8 * MIB);
    assertThat(pod.at("/swap/swapAvailableBytes").asLong()).isEqualTo(56 * MIB);
    assertThat(pod.at("/containers/0/swap/swapUsageBytes").asLong()).isEqualTo(8 * MIB);
    assertThat(pod.at("/containers/0/swap/swapAvailableBytes").asLong()).isEqualTo(56 * MIB);
  }

  @Test
  void unlimitedSwapHasNoAvailableAndNoAccountingHasNoSwap() throws Exception {
    RuntimeSample runtime = SampleFixtures.runtime();
    SummaryAssembler assembler = new SummaryAssembler("node-a", NodePlatform.LINUX);

    JsonNode unlimited = summary(assembler, nodeWithSwap(0L, 0L), cgroups(runtime, 0L, null)).at("/pods/0");
    assertThat(unlimited.at("/swap/swapUsageBytes").isNumber()).isTrue();
    assertThat(unlimited.at("/swap").has("swapAvailableBytes")).isFalse();

    JsonNode none = summary(assembler, nodeWithSwap(0L, 0L), cgroups(runtime, null, null)).at("/pods/0");
    assertThat(none.has("swap")).isFalse();
    assertThat(none.at("/containers/0").has("swap")).isFalse();
  }
}
