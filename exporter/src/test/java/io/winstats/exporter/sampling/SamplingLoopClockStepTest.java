package io.winstats.exporter.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The loop's time is the monotonic clock and its executor's delays, never the wall clock the samples are stamped
 * with: while the wall clock steps an hour back and forth inside every round, each round is still scheduled one
 * interval (±5 % jitter) after the previous one ends and its duration is what the monotonic clock measured. A loop
 * that scheduled at wall-clock instants, or timed rounds with {@code Instant.now()}, would see ±3600 s.
 */
class SamplingLoopClockStepTest {
  private static final Duration INTERVAL = Duration.ofMillis(100);
  private static final Duration ROUND = Duration.ofMillis(7);
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");
  private static final int ROUNDS = 10;

  /** Runs every scheduled round at once, recording the delay asked for and advancing the monotonic clock by it. */
  private static final class RecordingExecutor extends ScheduledThreadPoolExecutor {
    final List<Long> delaysNanos = new ArrayList<>();
    final CountDownLatch done = new CountDownLatch(1);
    private final AtomicLong monotonicNanos;

    RecordingExecutor(AtomicLong monotonicNanos) {
      super(1);
      this.monotonicNanos = monotonicNanos;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
      synchronized (delaysNanos) {
        delaysNanos.add(unit.toNanos(delay));
        monotonicNanos.addAndGet(unit.toNanos(delay));
        if (delaysNanos.size() > ROUNDS) {
          done.countDown();
          return super.schedule(() -> {}, 0, TimeUnit.NANOSECONDS);
        }
      }
      return super.schedule(command, 0, TimeUnit.NANOSECONDS);
    }
  }

  @Test
  void roundsKeepTheirIntervalAndDurationWhileTheWallClockStepsAnHourEachRound() throws InterruptedException {
    AtomicLong monotonicNanos = new AtomicLong(5_000_000_000L);
    Instant[] wallClock = {T0};
    List<Long> durations = new ArrayList<>();
    List<Instant> stamps = new ArrayList<>();
    int[] round = {0};
    SamplingLoop.Listener<Instant> listener =
        new SamplingLoop.Listener<>() {
          @Override
          public void succeeded(Instant sample, long durationNanos) {
            durations.add(durationNanos);
            stamps.add(sample);
          }

          @Override
          public void failed(String reason, RuntimeException error, long durationNanos) {
            durations.add(durationNanos);
          }
        };
    RecordingExecutor executor = new RecordingExecutor(monotonicNanos);
    try (SamplingLoop<Instant> loop =
        new SamplingLoop<>(
            "clock",
            "nothing",
            () -> {
              // NTP or an operator steps the wall clock while the source reads; the round itself takes 7 ms.
              wallClock[0] = wallClock[0].plus(Duration.ofHours(round[0]++ % 2 == 0 ? -1 : 1));
              monotonicNanos.addAndGet(ROUND.toNanos());
              return wallClock[0];
            },
            e -> "internal",
            listener,
            INTERVAL,
            executor,
            monotonicNanos::get)) {
      loop.start();
      assertThat(executor.done.await(10, TimeUnit.SECONDS)).as("10 rounds").isTrue();
    }

    synchronized (executor.delaysNanos) {
      assertThat(executor.delaysNanos.get(0)).as("the first round runs at once").isZero();
      assertThat(executor.delaysNanos.subList(1, ROUNDS + 1))
          .allSatisfy(d -> assertThat(d).isBetween(INTERVAL.toNanos() * 95 / 100, INTERVAL.toNanos() * 105 / 100));
    }
    assertThat(stamps).as("the wall clock did step").contains(T0.minusSeconds(3600), T0);
    assertThat(durations).hasSize(ROUNDS).containsOnly(ROUND.toNanos());
  }
}
