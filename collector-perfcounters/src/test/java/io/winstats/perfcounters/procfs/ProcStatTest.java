package io.winstats.perfcounters.procfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.CoreCpuTime;
import io.winstats.perfcounters.CpuMode;
import io.winstats.perfcounters.NodeCpu;
import io.winstats.perfcounters.NodeSourceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProcStatTest {

  @Test
  void parsesTheCapturedFile() {
    ProcStat stat = ProcStat.parse(ProcfsFixtures.text(ProcfsFixtures.VM, "stat"));

    assertThat(stat.total().ticks(CpuMode.USER)).isEqualTo(12795);
    assertThat(stat.total().ticks(CpuMode.IDLE)).isEqualTo(99286);
    assertThat(stat.cpus()).extracting(ProcStat.CpuLine::name).containsExactly("0", "1");
    assertThat(stat.cpus().get(1).ticks(CpuMode.IOWAIT)).isEqualTo(359);
    assertThat(stat.bootTimeEpochSeconds()).isEqualTo(1795251410L);
    assertThat(stat.forksSinceBoot()).isEqualTo(7971L);
    assertThat(stat.procsRunning()).isEqualTo(4L);
    assertThat(stat.contextSwitches()).isEqualTo(580520L);
  }

  @Test
  void nodeCpuSumsEveryModeButIdleAndIowaitOfTheAggregateLine() {
    NodeCpu cpu = ProcfsNodeSource.toNodeCpu(ProcStat.parse(ProcfsFixtures.text(ProcfsFixtures.VM, "stat")), 100);

    // user 12795 + nice 0 + system 2912 + irq 0 + softirq 72 + steal 28 = 15807 ticks of 10 ms
    assertThat(cpu.usageCoreNanos()).isEqualTo(158_070_000_000L);
    assertThat(cpu.logicalCores()).isEqualTo(2);
    CoreCpuTime cpu0 = cpu.cores().get(0);
    assertThat(cpu0.core()).isEqualTo("0");
    assertThat(cpu0.nanos(CpuMode.USER)).isEqualTo(59_410_000_000L);
    assertThat(cpu0.nanos(CpuMode.STEAL)).isEqualTo(110_000_000L);
    assertThat(cpu0.nanosByMode())
        .containsOnlyKeys(
            CpuMode.USER, CpuMode.NICE, CpuMode.SYSTEM, CpuMode.IDLE, CpuMode.IOWAIT, CpuMode.IRQ, CpuMode.SOFTIRQ,
            CpuMode.STEAL);
    assertThat(cpu.cores().get(1).nanos(CpuMode.IOWAIT)).isEqualTo(3_590_000_000L);
  }

  @Test
  void aCpuThatWentOfflineDropsFromTheCoresButNotFromTheAggregate() {
    // The captured file with the cpu0 line removed, as the kernel prints it after `echo 0 > cpu0/online`:
    // per-CPU lines are printed for online CPUs only, the aggregate sums every possible CPU.
    String offline = ProcfsFixtures.text(ProcfsFixtures.VM, "stat").replaceFirst("(?m)^cpu0 .*\n", "");

    NodeCpu cpu = ProcfsNodeSource.toNodeCpu(ProcStat.parse(offline), 100);

    assertThat(cpu.logicalCores()).isEqualTo(1);
    assertThat(cpu.cores()).extracting(CoreCpuTime::core).containsExactly("1");
    assertThat(cpu.usageCoreNanos()).isEqualTo(158_070_000_000L);
  }

  @Test
  void anOldKernelLineWithFourModesLeavesTheOthersAbsent() {
    ProcStat stat = ProcStat.parse("cpu  10 1 5 100\ncpu0 10 1 5 100\n");

    assertThat(stat.cpus().get(0).ticksByMode()).containsOnlyKeys(CpuMode.USER, CpuMode.NICE, CpuMode.SYSTEM,
        CpuMode.IDLE);
    assertThat(stat.bootTimeEpochSeconds()).isNull();
    assertThat(ProcfsNodeSource.toNodeCpu(stat, 100).usageCoreNanos()).isEqualTo(160_000_000L);
  }

  @Test
  void noPerCpuLineIsMalformedForTheCpuPart() {
    ProcStat stat = ProcStat.parse("cpu  10 1 5 100 0 0 0 0\nctxt 5\n");

    assertThatThrownBy(() -> ProcfsNodeSource.toNodeCpu(stat, 100))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.MALFORMED))
        .hasMessageContaining("no cpuN lines");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no aggregate line        | 'cpu0 1 2 3 4\nctxt 5\n'             | no aggregate",
        "garbage in a mode        | 'cpu  1 2 x 4\ncpu0 1 2 3 4\n'       | not a counter",
        "too few fields           | 'cpu  1 2 3\ncpu0 1 2 3\n'           | at least 4",
        "negative ticks           | 'cpu  1 2 -3 4\ncpu0 1 2 3 4\n'      | negative",
        "not a cpu line           | 'cpux 1 2 3 4\ncpu  1 2 3 4\n'       | not a cpu line",
        "binary garbage           | '\u0000\u0001\u0002'                 | no aggregate",
      })
  void rejectsMalformedText(String name, String text, String message) {
    String unescaped = text.replace("\\n", "\n");
    assertThatThrownBy(() -> ProcStat.parse(unescaped))
        .isInstanceOfSatisfying(
            NodeSourceException.class, e -> assertThat(e.reason()).isEqualTo(NodeSourceException.Reason.MALFORMED))
        .hasMessageContaining(message);
  }

  @ParameterizedTest(name = "{0} ticks at {1} Hz = {2} ns")
  @CsvSource({
    "0, 100, 0",
    "1, 100, 10000000",
    "15807, 100, 158070000000",
    // 10 years of one CPU at 100 Hz: a product of ticks and 1e9 would overflow a long; the split one does not
    "31536000000, 100, 315360000000000000",
    "1, 300, 3333333",
    "301, 300, 1003333333",
    "1, 1000, 1000000",
  })
  void convertsTicksToNanosExactly(long ticks, long hz, long nanos) {
    assertThat(ProcfsNodeSource.ticksToNanos(ticks, hz)).isEqualTo(nanos);
  }
}
