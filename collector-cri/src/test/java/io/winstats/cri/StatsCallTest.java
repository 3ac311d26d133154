package io.winstats.cri;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StatsCallTest {
  @Test
  void parsesTheRpcNameInAnyCase() {
    assertThat(StatsCall.parse("ListPodSandboxStats")).isEqualTo(StatsCall.LIST_POD_SANDBOX_STATS);
    assertThat(StatsCall.parse(" listcontainerstats ")).isEqualTo(StatsCall.LIST_CONTAINER_STATS);
  }

  @Test
  void anUnknownNameListsTheValidOnes() {
    assertThatThrownBy(() -> StatsCall.parse("ListPodSandbox"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'ListPodSandbox' is not one of ListPodSandboxStats, ListContainerStats");
  }
}
