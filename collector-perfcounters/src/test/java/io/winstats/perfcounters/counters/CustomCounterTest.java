package io.winstats.perfcounters.counters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CustomCounterTest {

  @Test
  void labelsAreSortedAndThePathParsed() {
    CustomCounter c =
        new CustomCounter(
            "\\Processor Information(*)\\% Processor Utility",
            "cpu_utility",
            CustomCounter.Type.GAUGE,
            Map.of("z", "1", "a", "2"),
            "core");
    assertThat(c.labels().keySet()).containsExactly("a", "z");
    assertThat(c.counterPath().object()).isEqualTo("Processor Information");
  }

  @Test
  void refusesBadNamesAndWildcardsWithoutAnInstanceLabel() {
    String path = "\\LogicalDisk(*)\\Free Megabytes";
    assertThatThrownBy(() -> new CustomCounter(path, "1bad", CustomCounter.Type.GAUGE, Map.of(), "v"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CustomCounter(path, "ok", CustomCounter.Type.GAUGE, Map.of("__x", "1"), "v"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CustomCounter(path, "ok", CustomCounter.Type.GAUGE, Map.of(), null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CustomCounter(path, "ok", CustomCounter.Type.GAUGE, Map.of("v", "1"), "v"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CustomCounter("Memory\\X", "ok", CustomCounter.Type.GAUGE, Map.of(), null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
