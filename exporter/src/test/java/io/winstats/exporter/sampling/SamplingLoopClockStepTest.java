package io.winstats.exporter.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.cri.testing.Deadline;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sampling loop schedules on the monotonic clock ({@code ScheduledThreadPoolExecutor} uses {@code System.nanoTime})
 * and never looks at the samples' own timestamps: samples stamped by a wall clock that jumps an hour back and forth on
 * every round keep coming one interval apart.
 */
class SamplingLoopClockStepTest {
  private static final Duration INTERVAL = Duration.ofMillis(100);
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");

  @Test
  void roundsKeepTheirIntervalWhileTheSamplesWallClockJumps() throws InterruptedException {
    List<Long> roundNanos = new ArrayList<>();
    List<Instant> stamps = new ArrayList<>();
    int[] round = {0};
    SamplingLoop.Listener<Instant> listener =
        new SamplingLoop.Listener<>() {
          @Override
          public void succeeded(Instant sample, long durationNanos) {
            synchronized (roundNanos) {
              roundNanos.add(System.nanoTime());
              stamps.add(sample);
            }
          }

          @Override
          public void failed(String reason, RuntimeException error, long durationNanos) {}
        };
    try (SamplingLoop<Instant> loop =
        new SamplingLoop<>(
            "clock",
            "nothing",
            () -> T0.plus(Duration.ofHours(round[0]++ % 2 == 0 ? -1 : 1)),
            e -> "internal",
            listener,
            INTERVAL)) {
      loop.start();
      Deadline.await("10 rounds", Duration.ofSeconds(10), () -> {
        synchronized (roundNanos) {
          return roundNanos.size() >= 10;
        }
      });
    }
    List<Long> gapsMillis = new ArrayList<>();
    synchronized (roundNanos) {
      for (int i = 1; i < 10; i++) {
        gapsMillis.add((roundNanos.get(i) - roundNanos.get(i - 1)) / 1_000_000);
      }
      assertThat(stamps).contains(T0.minusSeconds(3600), T0.plusSeconds(3600));
    }
    System.out.printf("SamplingLoopClockStepTest: gaps between rounds %s ms (interval 100 ms +-5%% jitter)%n", gapsMillis);
    // 95-105 ms by design; the upper bound leaves room for a loaded machine, the lower one is the jitter's floor.
    assertThat(gapsMillis).allSatisfy(g -> assertThat(g).isBetween(94L, 1_000L));
  }
}
