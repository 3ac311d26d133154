package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CpuRateCacheTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");
  private final AtomicLong nanos = new AtomicLong();
  private final CpuRateCache cache = new CpuRateCache(Duration.ofSeconds(30), 100, nanos::get);

  private static CpuRateCache.Key key(String id) {
    return new CpuRateCache.Key(id, 0);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "null",
      textBlock =
          """
          # case,                     first ms, first ns,      second ms, second ns,     expected nano-cores
          half a core over 10 s,      0,        1000000000,    10000,     6000000000,    500000000
          two cores over 1 s,         0,        0,             1000,      2000000000,    2000000000
          idle,                       0,        5,             1000,      5,             0
          counter reset,              0,        9000000000,    1000,      1000,          null
          zero interval,              1000,     1000,          1000,      2000,          null
          negative interval,          2000,     1000,          1000,      2000,          null
          sub-millisecond interval,   0,        0,             0.5,       250000,        500000000
          """)
  void rateBetweenTwoReadings(
      String ignoredCase, double firstMs, long firstNs, double secondMs, long secondNs, Long expected) {
    assertThat(cache.rate(key("c"), at(firstMs), firstNs)).as("first reading").isNull();
    assertThat(cache.rate(key("c"), at(secondMs), secondNs)).isEqualTo(expected);
  }

  private static Instant at(double millis) {
    return T0.plusNanos((long) (millis * 1_000_000));
  }

  @Test
  void instancesAreKeptApartByIdAndAttempt() {
    cache.rate(new CpuRateCache.Key("c", 0), at(0), 0);
    assertThat(cache.rate(new CpuRateCache.Key("c", 1), at(1000), 10)).as("a new attempt starts afresh").isNull();
    assertThat(cache.rate(new CpuRateCache.Key("d", 0), at(1000), 10)).isNull();
    assertThat(cache.rate(new CpuRateCache.Key("c", 0), at(1000), 1_000_000_000)).isEqualTo(1_000_000_000L);
  }

  @Test
  void aResetReadingBecomesTheBaseForTheNextRate() {
    cache.rate(key("c"), at(0), 5_000_000_000L);
    assertThat(cache.rate(key("c"), at(1000), 100)).isNull();
    assertThat(cache.rate(key("c"), at(2000), 100 + 250_000_000)).isEqualTo(250_000_000L);
  }

  @Test
  void anOutOfOrderReadingDoesNotReplaceTheNewerBase() {
    cache.rate(key("c"), at(2000), 2_000_000_000);
    assertThat(cache.rate(key("c"), at(1000), 1_000_000_000)).isNull();
    assertThat(cache.rate(key("c"), at(3000), 3_000_000_000L)).isEqualTo(1_000_000_000L);
  }

  @Test
  void entriesExpireWhenNotReadForTheExpiryPeriod() {
    cache.rate(key("gone"), at(0), 0);
    cache.rate(key("kept"), at(0), 0);
    nanos.addAndGet(Duration.ofSeconds(20).toNanos());
    cache.rate(key("kept"), at(20_000), 1);
    nanos.addAndGet(Duration.ofSeconds(20).toNanos());
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.rate(key("gone"), at(40_000), 1_000)).as("expired: a first reading again").isNull();
  }

  @Test
  void sizeIsBounded() {
    CpuRateCache small = new CpuRateCache(Duration.ofMinutes(1), 10, nanos::get);
    for (int i = 0; i < 1000; i++) {
      small.rate(key("c" + i), at(0), 0);
    }
    assertThat(small.size()).isLessThanOrEqualTo(10);
  }
}
