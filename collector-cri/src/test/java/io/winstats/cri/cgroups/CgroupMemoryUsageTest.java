package io.winstats.cri.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Working set and limit as cAdvisor (handler.go setMemoryStats) and the kubelet (helper.go) derive them. */
class CgroupMemoryUsageTest {
  @Test
  void workingSetIsUsageLessInactiveFileFlooredAtZero() {
    assertThat(CgroupMemoryUsage.of(1000, 300, null).workingSetBytes()).isEqualTo(700);
    assertThat(CgroupMemoryUsage.of(300, 1000, null).workingSetBytes()).isZero();
  }

  /** v1's no-limit is LONG_MAX rounded down to a page (9223372036854771712); the kubelet's bound is 2^62. */
  @Test
  void limitsAbove2To62AreUnlimited() {
    assertThat(CgroupMemoryUsage.of(1000, 0, 9223372036854771712L).limitBytes()).isNull();
    assertThat(CgroupMemoryUsage.of(1000, 0, Long.MAX_VALUE).limitBytes()).as("v2 max").isNull();
    assertThat(CgroupMemoryUsage.of(1000, 0, 1L << 62).limitBytes()).isEqualTo(1L << 62);
  }

  @Test
  void availableIsLimitLessWorkingSetFlooredAtZero() {
    assertThat(CgroupMemoryUsage.of(1000, 300, 2000L).availableBytes()).isEqualTo(1300);
    assertThat(CgroupMemoryUsage.of(3000, 0, 2000L).availableBytes()).isZero();
    assertThat(CgroupMemoryUsage.of(3000, 0, null).availableBytes()).isNull();
  }
}
