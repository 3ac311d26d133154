package io.winstats.perfcounters.procfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.perfcounters.NodeSourceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LoadAvgTest {

  @Test
  void parsesTheCapturedFile() {
    assertThat(LoadAvg.parse(ProcfsFixtures.text(ProcfsFixtures.VM, "loadavg")))
        .isEqualTo(new LoadAvg(1.06, 0.45, 0.20, 4, 116));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "0.1 0.2 0.3", "0.1 0.2 0.3 5 99", "0.1 x 0.3 1/5 99", "0.1 0.2 0.3 1/x 9"})
  void rejectsMalformedText(String text) {
    assertThatThrownBy(() -> LoadAvg.parse(text)).isInstanceOf(NodeSourceException.class);
  }
}
