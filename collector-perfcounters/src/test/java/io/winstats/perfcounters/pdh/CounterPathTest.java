package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
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

  /** Every declared counter: an English path that parses back to itself, and never the legacy Processor object. */
  @Test
  void declaredCounterSetsAreWellFormedAndDistinct() {
    List<CounterDef> all = new ArrayList<>();
    all.addAll(List.of(ProcessorInformationCounter.values()));
    all.addAll(List.of(MemoryCounter.values()));
    all.addAll(List.of(ProcessCounter.values()));
    all.addAll(List.of(NetworkInterfaceCounter.values()));
    all.addAll(List.of(LogicalDiskCounter.values()));
    all.addAll(List.of(SystemCounter.values()));

    assertThat(all).hasSize(6 + 7 + 1 + 8 + 10 + 5);
    assertThat(all).extracting(d -> d.path().toString()).doesNotHaveDuplicates();
    for (CounterDef d : all) {
      assertThat(CounterPath.parse(d.path().toString())).isEqualTo(d.path());
      assertThat(d.object()).isNotEqualTo("Processor");
    }
    assertThat(ProcessorInformationCounter.USER_TIME.path().toString())
        .isEqualTo("\\Processor Information(*)\\% User Time");
    assertThat(ProcessCounter.WORKING_SET_PRIVATE.path().toString()).isEqualTo("\\Process(_Total)\\Working Set - Private");
    assertThat(MemoryCounter.FREE_AND_ZERO_PAGE_LIST_BYTES.path().toString())
        .isEqualTo("\\Memory\\Free & Zero Page List Bytes");
    assertThat(SystemCounter.SYSTEM_UP_TIME.path().toString()).isEqualTo("\\System\\System Up Time");
  }
}
