package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class InstanceNamesTest {

  @Test
  void duplicatesGetOccurrenceSuffixesInOrder() {
    assertThat(InstanceNames.disambiguate(List.of("svchost", "svchost", "idle", "svchost")))
        .containsExactly("svchost", "svchost#1", "idle", "svchost#2");
  }

  @Test
  void existingSuffixedNamesAreKeptAndNotReused() {
    assertThat(InstanceNames.disambiguate(List.of("a", "a#1", "a")))
        .containsExactly("a", "a#1", "a#2");
  }

  @Test
  void uniqueNamesAreUnchanged() {
    assertThat(InstanceNames.disambiguate(List.of("0,0", "0,1", "_Total"))).containsExactly("0,0", "0,1", "_Total");
  }

  @Test
  void aggregatesAreRecognised() {
    assertThat(InstanceNames.isTotal("_Total")).isTrue();
    assertThat(InstanceNames.isTotal("0,_Total")).isTrue();
    assertThat(InstanceNames.isTotal("0,1")).isFalse();
    assertThat(InstanceNames.isTotal("Total")).isFalse();
  }
}
