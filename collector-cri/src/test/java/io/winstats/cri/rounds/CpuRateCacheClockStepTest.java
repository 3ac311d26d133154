package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The CPU rate cache uses the runtime's own timestamps, which follow the runtime host's wall clock: what a step of that
 * clock does to {@code usageNanoCores}. A container burns exactly half a core throughout; readings come every 10 s of
 * real time.
 */
class CpuRateCacheClockStepTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");
  private static final long HALF_CORE = 500_000_000L;
  private static final long TEN_SECONDS_OF_HALF_CORE = 5_000_000_000L;

  private final AtomicLong ticker = new AtomicLong();
  private final CpuRateCache cache = new CpuRateCache(Duration.ofMinutes(2), 100, ticker::get);
  private final CpuRateCache.Key key = new CpuRateCache.Key("c", 0);

  /** Feeds {@code readings} readings 10 s apart on the runtime's clock starting at {@code from}; returns the rates. */
  private List<Long> readings(Instant from, long usageFrom, int readings) {
    List<Long> rates = new ArrayList<>();
    for (int i = 0; i < readings; i++) {
      ticker.addAndGet(Duration.ofSeconds(10).toNanos());
      rates.add(cache.rate(key, from.plusSeconds(10L * i), usageFrom + TEN_SECONDS_OF_HALF_CORE * i));
    }
    return rates;
  }

  @Test
  void aBackwardStepGivesNoRateNeverANegativeOneAndRatesResumeOnceTheClockPassesTheLastReading() {
    List<Long> before = readings(T0, 0, 4);
    assertThat(before.subList(1, 4)).containsOnly(HALF_CORE);

    // The runtime's clock steps back 60 s between two readings; CPU time keeps counting.
    List<Long> after = readings(T0.plusSeconds(30 + 10 - 60), 4 * TEN_SECONDS_OF_HALF_CORE, 12);

    assertThat(after).allSatisfy(r -> assertThat(r == null || (r >= 0 && r <= 2 * HALF_CORE)).as("rate %s", r).isTrue());
    // The pre-step reading stays the base while later readings carry older timestamps (CpuRateCache keeps the newer
    // base on an out-of-order reading): no rate for as long as the step (60 s = 6 readings here), then a rate over
    // the whole span, which is exact because CPU time kept counting.
    int missing = (int) after.stream().takeWhile(r -> r == null).count();
    System.out.printf("CpuRateCacheClockStepTest: a 60 s backward step left %d readings (10 s apart) without a rate%n", missing);
    assertThat(missing).isEqualTo(6);
    assertThat(after.subList(missing, after.size())).doesNotContainNull().allSatisfy(r -> assertThat(r).isBetween(0L, 2 * HALF_CORE));
  }

  @Test
  void aForwardStepGivesOneRateDilutedOverTheStepNeverAHugeOne() {
    readings(T0, 0, 3);
    // The runtime's clock jumps an hour ahead; 10 s of CPU time passed in reality.
    List<Long> after = readings(T0.plusSeconds(20 + 3600 + 10), 3 * TEN_SECONDS_OF_HALF_CORE, 4);

    assertThat(after.get(0)).as("rate across the step: 10 s of half a core over 3610 s").isEqualTo(
        (long) ((double) TEN_SECONDS_OF_HALF_CORE / Duration.ofSeconds(3610).toNanos() * 1e9));
    assertThat(after.subList(1, 4)).containsOnly(HALF_CORE);
  }

  @Test
  void aCounterThatGoesDownAcrossAStepGivesNoRate() {
    readings(T0, 10 * TEN_SECONDS_OF_HALF_CORE, 2);
    ticker.addAndGet(Duration.ofSeconds(10).toNanos());
    assertThat(cache.rate(key, T0.minusSeconds(3600), 1_000)).isNull();
    ticker.addAndGet(Duration.ofSeconds(10).toNanos());
    assertThat(cache.rate(key, T0.plusSeconds(3600), 500)).as("lower than the kept base").isNull();
  }
}
