package io.winstats.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.OS;

class HostOsTest {

  @Test
  void everyWindowsEditionNameIsWindowsAndTheRestAreNot() {
    assertThat(HostOs.of("Windows Server 2022")).isEqualTo(HostOs.WINDOWS);
    assertThat(HostOs.of("Windows 11")).isEqualTo(HostOs.WINDOWS);
    assertThat(HostOs.of("windows nt (unknown)")).isEqualTo(HostOs.WINDOWS);
    assertThat(HostOs.of("Linux")).isEqualTo(HostOs.OTHER);
    assertThat(HostOs.of("Mac OS X")).isEqualTo(HostOs.OTHER);
    assertThat(HostOs.of("")).isEqualTo(HostOs.OTHER);
  }

  @Test
  void theCurrentAnswerAgreesWithJUnits() {
    assertThat(HostOs.current().isWindows()).isEqualTo(OS.WINDOWS.isCurrentOs());
  }

  @Test
  void theDefaultCriEndpointFollowsTheAnswer() {
    assertThat(CriSettings.ENDPOINT.defaultValue())
        .isEqualTo(
            HostOs.current().isWindows()
                ? CriSettings.DEFAULT_CRI_ENDPOINT_WINDOWS
                : CriSettings.DEFAULT_CRI_ENDPOINT_LINUX);
  }
}
