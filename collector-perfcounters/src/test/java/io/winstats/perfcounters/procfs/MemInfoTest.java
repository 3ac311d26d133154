package io.winstats.perfcounters.procfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSourceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MemInfoTest {

  private static final long KIB = 1024;

  @Test
  void mapsTheCapturedFileWithTheKubeletDefinitions() {
    MemInfo memInfo = MemInfo.parse(ProcfsFixtures.text(ProcfsFixtures.VM, "meminfo"));
    VmStat vmStat = VmStat.parse(ProcfsFixtures.text(ProcfsFixtures.VM, "vmstat"));

    NodeMemory memory = memInfo.toNodeMemory(vmStat);

    assertThat(memory.totalBytes()).isEqualTo(24684084 * KIB);
    assertThat(memory.freeBytes()).isEqualTo(23997156 * KIB);
    assertThat(memory.availableBytes()).isEqualTo(24004020 * KIB);
    // usage = MemTotal - MemFree = 686928 kB; working set = usage - Inactive(file) 98296 kB
    assertThat(memory.usageBytes()).isEqualTo(686928 * KIB);
    assertThat(memory.workingSetBytes()).isEqualTo(588632 * KIB);
    assertThat(memory.cacheBytes()).isEqualTo((1600 + 189772) * KIB);
    assertThat(memory.committedBytes()).isEqualTo(449016 * KIB);
    assertThat(memory.commitLimitBytes()).isEqualTo(12342040 * KIB);
    assertThat(memory.swapTotalBytes()).isZero();
    assertThat(memory.swapFreeBytes()).isZero();
    assertThat(memory.pageFaults()).isEqualTo(3704680L);
    assertThat(memory.majorPageFaults()).isEqualTo(1326L);
  }

  @Test
  void withoutVmstatThePageFaultsAreNull() {
    NodeMemory memory = MemInfo.parse(ProcfsFixtures.text(ProcfsFixtures.VM, "meminfo")).toNodeMemory(null);

    assertThat(memory.pageFaults()).isNull();
    assertThat(memory.majorPageFaults()).isNull();
    assertThat(memory.totalBytes()).isEqualTo(24684084 * KIB);
  }

  /** The node's rssBytes is AnonPages, the root memory cgroup's anon (kubelet node rssBytes, cAdvisor root RSS). */
  @Test
  void rssIsTheAnonymousPages() {
    NodeMemory memory = MemInfo.parse(ProcfsFixtures.text(ProcfsFixtures.VM, "meminfo")).toNodeMemory(null);

    assertThat(memory.rssBytes()).isEqualTo(343156 * KIB);
  }

  @Test
  void workingSetIsFlooredAtZero() {
    String text =
        """
        MemTotal:       1000 kB
        MemFree:         900 kB
        Buffers:           0 kB
        Cached:          500 kB
        Inactive(file):  400 kB
        """;

    NodeMemory memory = MemInfo.parse(text).toNodeMemory(null);

    assertThat(memory.usageBytes()).isEqualTo(100 * KIB);
    assertThat(memory.workingSetBytes()).isZero();
    assertThat(memory.availableBytes()).as("MemAvailable is absent before Linux 3.14").isNull();
    assertThat(memory.committedBytes()).isNull();
    assertThat(memory.rssBytes()).as("no AnonPages line").isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"MemTotal", "MemFree", "Buffers", "Cached", "Inactive(file)"})
  void aMissingRequiredLineIsMalformed(String key) {
    String text = ProcfsFixtures.text(ProcfsFixtures.VM, "meminfo").replaceFirst("(?m)^" + key.replace("(", "\\(")
        .replace(")", "\\)") + ":.*\n", "");

    assertThatThrownBy(() -> MemInfo.parse(text))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.MALFORMED))
        .hasMessageContaining("no " + key + " line");
  }

  @Test
  void garbageIsMalformed() {
    assertThatThrownBy(() -> MemInfo.parse("MemTotal: lots kB\n"))
        .isInstanceOf(NodeSourceException.class)
        .hasMessageContaining("not a counter");
    assertThatThrownBy(() -> MemInfo.parse("MemTotal: 1 kB extra words\n"))
        .isInstanceOf(NodeSourceException.class)
        .hasMessageContaining("unexpected line");
  }

  @Test
  void vmstatWithoutFaultLinesIsMalformed() {
    assertThatThrownBy(() -> VmStat.parse("nr_free_pages 5\npgfault 10\n"))
        .isInstanceOf(NodeSourceException.class)
        .hasMessageContaining("pgmajfault");
  }
}
