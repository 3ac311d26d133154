package io.winstats.perfcounters.counters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CounterPathTest {

  @Test
  void parsesPathsWithAndWithoutInstances() {
    assertThat(CounterPath.parse("\\Processor Information(*)\\% User Time"))
        .isEqualTo(new CounterPath("Processor Information", "*", "% User Time"));
    assertThat(CounterPath.parse("\\Memory\\Available Bytes")).isEqualTo(new CounterPath("Memory", null, "Available Bytes"));
    assertThat(CounterPath.parse("\\Process(chrome (1))\\Working Set").instance()).isEqualTo("chrome (1)");
    assertThat(CounterPath.parse("\\LogicalDisk(*)\\% Free Space").wildcard()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"Memory\\Available Bytes", "\\\\host\\Memory\\Available Bytes", "\\Memory\\", "\\Memory", "\\Proc(x\\C"})
  void refusesMalformedOrRemotePaths(String path) {
    assertThatThrownBy(() -> CounterPath.parse(path)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "null",
      value = {
        "\\\\H\\Memory\\Available Bytes                 | H | Memory             | null            | Available Bytes",
        "\\\\H\\Processor Information(0,3)\\% DPC Time  | H | Processor Information | 0,3          | % DPC Time",
        "\\\\H\\Process(Clash for Windows)\\ID Process  | H | Process            | Clash for Windows | ID Process",
        "\\\\H\\Process(a (b))\\ID Process              | H | Process            | a (b)           | ID Process",
        "\\\\H\\LogicalDisk(C:)\\% Free Space           | H | LogicalDisk        | C:              | % Free Space",
      })
  void parsesCounterPaths(String cell, String host, String object, String instance, String counter) {
    CounterPath path = new CounterPath(host, object, instance, counter);

    assertThat(CounterPath.parseQualified(cell)).contains(path);
    assertThat(path.toString()).isEqualTo(cell);
  }

  @ParameterizedTest
  @CsvSource({"Time", "\\\\H", "\\\\H\\Memory", "\\\\H\\Memory\\", "\\\\H\\Process(x\\ID"})
  void rejectsCellsThatAreNotCounterPaths(String cell) {
    assertThat(CounterPath.parseQualified(cell)).isEqualTo(Optional.empty());
  }
}
