package io.winstats.perfcounters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WorkingSetDefinitionTest {

  @Test
  void kubeletIsThePrivateWorkingSetSumAndPhysicalIsTotalMinusAvailable() {
    assertThat(WorkingSetDefinition.KUBELET.workingSetBytes(2_000L, 16_000L, 4_000L)).isEqualTo(2_000L);
    assertThat(WorkingSetDefinition.KUBELET.workingSetBytes(null, 16_000L, 4_000L)).isNull();
    assertThat(WorkingSetDefinition.PHYSICAL.workingSetBytes(null, 16_000L, 4_000L)).isEqualTo(12_000L);
    assertThat(WorkingSetDefinition.PHYSICAL.workingSetBytes(2_000L, null, 4_000L)).isNull();
    assertThat(WorkingSetDefinition.PHYSICAL.workingSetBytes(2_000L, 16_000L, null)).isNull();
  }

  @Test
  void parsesTheFlagValuesOnly() {
    assertThat(WorkingSetDefinition.parse("kubelet")).isEqualTo(WorkingSetDefinition.KUBELET);
    assertThat(WorkingSetDefinition.parse(" physical ")).isEqualTo(WorkingSetDefinition.PHYSICAL);
    assertThat(WorkingSetDefinition.PHYSICAL.flagValue()).isEqualTo("physical");
    assertThatThrownBy(() -> WorkingSetDefinition.parse("task-manager"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kubelet, physical");
  }
}
