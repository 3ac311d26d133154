package io.winstats.exporter.sampling;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples one source on its own thread at a fixed delay with a little jitter (as cAdvisor's housekeeping does), never
 * overlapping itself. A failure is reported once per state change, retried with capped exponential backoff, and never
 * ends the loop.
 *
 * @param <T> the sample type
 */
public final class SamplingLoop<T> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SamplingLoop.class);
  private static final Duration FIRST_RETRY = Duration.ofMillis(500);

  /** What the loop tells the outside after each round. */
  public interface Listener<T> {
    /** A round succeeded after {@code durationNanos}. */
    void succeeded(T sample, long durationNanos);

    /** A round failed after {@code durationNanos} for {@code reason}. */
    void failed(String reason, RuntimeException error, long durationNanos);
  }

  private final String collector;
  private final String impact;
  private final Supplier<T> sampler;
  private final Function<RuntimeException, String> reasonOf;
  private final Listener<T> listener;
  private final Duration interval;
  private final ScheduledExecutorService executor;
  private final LongSupplier nanoTime;
  private int consecutiveFailures;
  private long failingSinceNanos;

  /**
   * @param collector the {@code collector} label and thread name
   * @param impact what an operator loses while this collector fails, for the failure log line
   * @param sampler reads the source once; may throw
   * @param reasonOf maps a failure to a short {@code reason} label
   */
  public SamplingLoop(
      String collector,
      String impact,
      Supplier<T> sampler,
      Function<RuntimeException, String> reasonOf,
      Listener<T> listener,
      Duration interval) {
    this(
        collector, impact, sampler, reasonOf, listener, interval,
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "winstats-sampler-" + collector);
              t.setDaemon(true);
              return t;
            }),
        System::nanoTime);
  }

  /**
   * With the time the loop runs on made explicit: rounds are scheduled as delays on {@code executor} (a {@code
   * ScheduledThreadPoolExecutor} counts them on {@code System.nanoTime}), and durations and outages are measured on
   * the monotonic {@code nanoTime}; no wall clock is read.
   */
  SamplingLoop(
      String collector,
      String impact,
      Supplier<T> sampler,
      Function<RuntimeException, String> reasonOf,
      Listener<T> listener,
      Duration interval,
      ScheduledExecutorService executor,
      LongSupplier nanoTime) {
    this.collector = Objects.requireNonNull(collector);
    this.impact = Objects.requireNonNull(impact);
    this.sampler = Objects.requireNonNull(sampler);
    this.reasonOf = Objects.requireNonNull(reasonOf);
    this.listener = Objects.requireNonNull(listener);
    this.interval = Objects.requireNonNull(interval);
    this.executor = Objects.requireNonNull(executor);
    this.nanoTime = Objects.requireNonNull(nanoTime);
  }

  /** Runs the first round now, then keeps going until {@link #close()}. */
  public void start() {
    executor.execute(this::round);
  }

  private void round() {
    long start = nanoTime.getAsLong();
    Duration next;
    try {
      T sample = sampler.get();
      long took = nanoTime.getAsLong() - start;
      listener.succeeded(sample, took);
      if (consecutiveFailures > 0) {
        LOG.info(
            "event=collector_recovered collector={} outage={}",
            collector,
            Duration.ofNanos(nanoTime.getAsLong() - failingSinceNanos));
      }
      consecutiveFailures = 0;
      next = jittered(interval);
    } catch (RuntimeException e) {
      long took = nanoTime.getAsLong() - start;
      String reason = reasonOf.apply(e);
      if (consecutiveFailures == 0) {
        failingSinceNanos = start;
        LOG.warn(
            "event=collector_failed collector={} reason={} error=\"{}\" impact=\"{}; retrying with backoff\"",
            collector,
            reason,
            e.getMessage(),
            impact);
        LOG.debug("collector={} failure detail", collector, e);
      } else {
        LOG.debug("collector={} still failing reason={} error={}", collector, reason, e.getMessage());
      }
      consecutiveFailures++;
      try {
        listener.failed(reason, e, took);
      } catch (RuntimeException listenerError) {
        LOG.error("event=listener_failed collector={}", collector, listenerError);
      }
      next = backoff(consecutiveFailures);
    }
    scheduleNext(next);
  }

  // Nothing waits on the round's future: round() reports its own failures and schedules the round after it.
  @SuppressWarnings("FutureReturnValueIgnored")
  private void scheduleNext(Duration delay) {
    if (!executor.isShutdown()) {
      executor.schedule(this::round, delay.toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  /** 0.5 s, 1 s, 2 s … capped at the sampling interval. */
  Duration backoff(int failures) {
    Duration d = FIRST_RETRY.multipliedBy(1L << Math.min(failures - 1, 20));
    return d.compareTo(interval) > 0 ? interval : d;
  }

  /** Up to 5 % either way, so that several daemons started together do not hit the runtime in lock step. */
  private static Duration jittered(Duration interval) {
    long spread = interval.toNanos() / 20;
    return interval.plusNanos(spread == 0 ? 0 : ThreadLocalRandom.current().nextLong(-spread, spread + 1));
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
