package io.winstats.cri.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link FigureLines}, the form of the whole-reading goldens. */
class FigureLinesTest {
  @Test
  void oneLinePerFigureByItsPathWithListsByIndexAndAbsentPartsAsNull() {
    CgroupStats stats = CgroupStats.builder("/kubepods/pod1")
        .memory(CgroupMemory.builder().cacheBytes(11).swapBytes(12L).build())
        .io(List.of(BlockDeviceIo.builder("/dev/vda").major(254).build()))
        .cpuPressure(new Pressure(new PressureLine(1.5, 0, 0, 7), null))
        .build();

    assertThat(FigureLines.of(stats).lines())
        .contains(
            "path /kubepods/pod1",
            "cpu null",
            "memory.cacheBytes 11",
            "memory.swapBytes 12",
            "memory.swapLimitBytes null",
            "io[0].device /dev/vda",
            "io[0].major 254",
            "cpuPressure.some.avg10 1.5",
            "cpuPressure.some.totalMicros 7",
            "cpuPressure.full null",
            "spec.memoryReservationBytes null",
            "hugetlb []")
        .noneMatch(l -> l.startsWith("io[1]"));
  }
}
