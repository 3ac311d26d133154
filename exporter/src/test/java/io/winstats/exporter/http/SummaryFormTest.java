package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryFormTest {
  @Test
  void onlyASingleExactTrueSelectsCpuAndMemory() {
    assertThat(SummaryForm.onlyCpuAndMemory(List.of("true"), null)).isTrue();
    for (String other : List.of("1", "t", "TRUE", "True", "false", "", "maybe")) {
      assertThat(SummaryForm.onlyCpuAndMemory(List.of(other), null)).as(other).isFalse();
    }
    assertThat(SummaryForm.onlyCpuAndMemory(List.of(), null)).isFalse();
    assertThat(SummaryForm.onlyCpuAndMemory(List.of("true", "true"), null)).as("two values").isFalse();
  }

  @Test
  void aUrlencodedBodyCountsAndMergesWithTheQuery() {
    assertThat(SummaryForm.onlyCpuAndMemory(List.of(), "only_cpu_and_memory=true")).isTrue();
    assertThat(SummaryForm.onlyCpuAndMemory(List.of(), "a=b&only%5Fcpu%5Fand%5Fmemory=tru%65&c")).isTrue();
    assertThat(SummaryForm.onlyCpuAndMemory(List.of("true"), "only_cpu_and_memory=true")).as("body and query").isFalse();
    assertThat(SummaryForm.onlyCpuAndMemory(List.of(), "only_cpu_and_memory")).isFalse();
    assertThatThrownBy(() -> SummaryForm.onlyCpuAndMemory(List.of(), "only_cpu_and_memory=%zz"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void urlencodedIsRecognisedWithParameters() {
    assertThat(SummaryForm.isUrlencoded("application/x-www-form-urlencoded; charset=utf-8")).isTrue();
    assertThat(SummaryForm.isUrlencoded("Application/X-WWW-Form-Urlencoded")).isTrue();
    assertThat(SummaryForm.isUrlencoded("application/json")).isFalse();
    assertThat(SummaryForm.isUrlencoded(null)).isFalse();
  }
}
