package io.winstats.perfcounters.pdh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class CumulativeCountersTest {
  private static final int DELTA_32 = PerfCounterType.PERF_COUNTER_COUNTER;
  private static final int RAW_32 = PerfCounterType.PERF_COUNTER_RAWCOUNT;
  private static final int LARGE = PerfCounterType.PERF_COUNTER_BULK_COUNT;

  /**
   * W4: a 32-bit raw count (the adapter error and discard totals) that drops is a reset unless the increase a wrap
   * would imply, 2^32 - previous + new, is below 2^24; a reset restarts the baseline and adds nothing, so an adapter
   * reset does not add 4.29 G errors. The last two rows are wraps: old and new both within 2^24 of the boundary.
   */
  @ParameterizedTest(name = "32-bit raw count {0} then {1} then {2} gives {3}")
  @CsvSource({
    "100,        3,          10,        107",
    "5000,       0,          0,         5000",
    "4000000000, 12,         20,        4000000008",
    "4294967000, 16777000,   16777000,  4294967000",
    "4294967000, 200,        300,       4294967596",
    "4294967295, 16777214,   16777215,  4311744511",
  })
  void aDropOfA32BitRawCountIsAResetUnlessItIsAPlausibleWrap(long first, long second, long third, long expected) {
    CumulativeCounters<String> c = new CumulativeCounters<>();
    c.update("k", first, RAW_32);
    c.update("k", second, RAW_32);
    assertThat(c.update("k", third, RAW_32)).isEqualTo(expected);
  }

  @Test
  void theResetRuleAppliesToRawCountsOnlyAndDeltaCountersKeepWrapping() {
    assertThat(CumulativeCounters.isRawCount(PerfCounterType.PERF_COUNTER_RAWCOUNT)).isTrue();
    assertThat(CumulativeCounters.isRawCount(PerfCounterType.PERF_COUNTER_RAWCOUNT_HEX)).isTrue();
    assertThat(CumulativeCounters.isRawCount(PerfCounterType.PERF_COUNTER_COUNTER)).isFalse();
    assertThat(CumulativeCounters.isRawCount(PerfCounterType.PERF_COUNTER_BULK_COUNT)).isFalse();
    CumulativeCounters<String> c = new CumulativeCounters<>();
    c.update("bytes", 1_000_000_000L, DELTA_32);
    assertThat(c.update("bytes", 5L, DELTA_32)).as("a 32-bit Bytes Received/sec that drops wrapped")
        .isEqualTo(1_000_000_000L + (1L << 32) - 1_000_000_000L + 5L);
  }

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
    c.update("k", first, DELTA_32);
    assertThat(c.update("k", second, DELTA_32)).isEqualTo(expected);
  }

  @Test
  void twoWrapsAccumulate() {
    CumulativeCounters<String> c = new CumulativeCounters<>();
    c.update("k", 4_000_000_000L, DELTA_32);
    c.update("k", 100L, DELTA_32);
    assertThat(c.update("k", 4_000_000_000L, DELTA_32)).isEqualTo(4_000_000_000L + (1L << 32));
  }

  @Test
  void sixtyFourBitCountersPassThroughAndShowResets() {
    CumulativeCounters<String> c = new CumulativeCounters<>();
    assertThat(c.update("k", 10_000_000_000L, LARGE)).isEqualTo(10_000_000_000L);
    assertThat(c.update("k", 5L, LARGE)).isEqualTo(5L);
    assertThatThrownBy(() -> c.update("k", -1L, LARGE)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void forgottenKeysStartAfresh() {
    CumulativeCounters<String> c = new CumulativeCounters<>();
    c.update("a", 4_294_967_000L, DELTA_32);
    c.update("a", 10L, DELTA_32);
    c.update("b", 1L, DELTA_32);
    c.retainOnly(Set.of("b"));
    assertThat(c.size()).isEqualTo(1);
    assertThat(c.update("a", 10L, DELTA_32)).isEqualTo(10L);
  }
}
