package io.winstats.exporter.http;

import java.util.function.LongSupplier;

/**
 * The toolkit's {@code rate_limit}: a token bucket of {@code burst} tokens refilled at one per {@code interval}
 * (Go's {@code rate.Limiter}). Thread safe.
 */
final class TokenBucket {
  private final long intervalNanos;
  private final int burst;
  private final LongSupplier nanoTime;
  private double tokens;
  private long last;

  TokenBucket(WebConfig.RateLimit limit, LongSupplier nanoTime) {
    this.intervalNanos = limit.interval().toNanos();
    this.burst = limit.burst();
    this.nanoTime = nanoTime;
    this.tokens = burst;
    this.last = nanoTime.getAsLong();
  }

  /** Takes a token if there is one. */
  synchronized boolean tryAcquire() {
    long now = nanoTime.getAsLong();
    tokens = Math.min(burst, tokens + (double) (now - last) / intervalNanos);
    last = now;
    if (tokens < 1) {
      return false;
    }
    tokens -= 1;
    return true;
  }
}
