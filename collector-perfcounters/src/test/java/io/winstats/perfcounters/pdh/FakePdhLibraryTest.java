package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The fake PDH says which counter a fixture lacks, and which line to add, rather than failing on a null. */
class FakePdhLibraryTest {
  private static final String FIXTURE = "fixtures/pdh/synthetic-4cpu/sample-1.tsv";
  private static final String ABSENT = "\\Memory\\Pool Nonpaged Bytes (not in the fixture)";

  private final FakePdhLibrary fake = new FakePdhLibrary().load(FIXTURE);

  @Test
  void updatingACounterTheFixtureLacksNamesItTheFixtureAndTheLine() {
    assertThatThrownBy(() -> fake.update(ABSENT, (i, v) -> v))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(FIXTURE)
        .hasMessageContaining("has no counter " + ABSENT)
        .hasMessageContaining("`item\t" + ABSENT);
  }

  @Test
  void settingAnItemOfACounterTheFixtureLacksNamesIt() {
    assertThatThrownBy(() -> fake.setItem(ABSENT, "_Total", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no counter " + ABSENT);
  }
}
