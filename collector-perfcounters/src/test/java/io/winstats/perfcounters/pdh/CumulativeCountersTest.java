package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class CumulativeCountersTest {

  @ParameterizedTest(name = "32-bit {0} then {1} gives {2}")
  @CsvSource({
    "100,        150,        150",
    "4294967000, 200,        4294967496",
    "4294967295, 0,          4294967296",
    "7,          7,          7",
    "-1,         0,          4294967296",
  })
  void thirtyTwoBitCountersCarryOverTheWrap(long first, long second, long expected) {
    CumulativeCounters<String> c = new CumulativeCounters<>();
    c.update("k", first, false);
    assertThat(c.update("k", second, false)).isEqualTo(expected);
  }

  @Test
  void twoWrapsAccumulate() {
    CumulativeCounters<String> c = new CumulativeCounters<>();
    c.update("k", 4_000_000_000L, false);
    c.update("k", 100L, false);
    assertThat(c.update("k", 4_000_000_000L, false)).isEqualTo(4_000_000_000L + (1L << 32));
  }

  @Test
  void sixtyFourBitCountersPassThroughAndShowResets() {
    CumulativeCounters<String> c = new CumulativeCounters<>();
    assertThat(c.update("k", 10_000_000_000L, true)).isEqualTo(10_000_000_000L);
    assertThat(c.update("k", 5L, true)).isEqualTo(5L);
    assertThatThrownBy(() -> c.update("k", -1L, true)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void forgottenKeysStartAfresh() {
    CumulativeCounters<String> c = new CumulativeCounters<>();
    c.update("a", 4_294_967_000L, false);
    c.update("a", 10L, false);
    c.update("b", 1L, false);
    c.retainOnly(Set.of("b"));
    assertThat(c.size()).isEqualTo(1);
    assertThat(c.update("a", 10L, false)).isEqualTo(10L);
  }
}
