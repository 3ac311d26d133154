package io.winstats.cri.rounds;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * CPU rate ({@code usageNanoCores}) from our own delta of cumulative CPU time between two consecutive readings of the
 * same container or pod instance, stamped with the runtime's own timestamps.
 *
 * <p>We never use the runtime's {@code usage_nano_cores}: containerd computes it against one cached previous reading
 * that every caller shares, so a second client (kubelet, crictl, us) corrupts the window of the others
 * (containerd#9531, kubernetes#122092). The kubelet keeps the same kind of cache ({@code cpuUsageCache} in {@code
 * cri_stats_provider.go}).
 *
 * <p>Entries expire after {@code expireAfterAccess} without a reading, so the cache stays bounded under pod churn.
 * Thread-safe; pure apart from the injected {@link Ticker}.
 */
final class CpuRateCache {
  /** Identifies one container or pod instance: the runtime id plus the restart attempt. */
  record Key(String id, long attempt) {
    Key {
      Objects.requireNonNull(id, "id");
    }
  }

  private record Reading(Instant timestamp, long usageCoreNanos) {}

  private final Cache<Key, Reading> previous;

  /**
   * @param expireAfterAccess how long an instance may go unread before its reading is dropped: a few sampling
   *     intervals
   * @param maximumSize an upper bound on remembered instances
   * @param ticker the clock Caffeine expires entries by
   */
  CpuRateCache(Duration expireAfterAccess, long maximumSize, Ticker ticker) {
    this.previous = ExpiringCaches.expiring(expireAfterAccess, maximumSize, ticker);
  }

  /**
   * Records a reading and returns the rate since the previous reading of the same instance.
   *
   * @return nano-cores (CPU nanoseconds per wall-clock second), or {@code null} on the first reading, when the
   *     cumulative value went down (a reset), or when the interval is zero or negative
   */
  @Nullable
  Long rate(Key key, Instant timestamp, long usageCoreNanos) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(timestamp, "timestamp");
    Reading current = new Reading(timestamp, usageCoreNanos);
    Reading before = previous.asMap().put(key, current);
    if (before == null) {
      return null;
    }
    long intervalNanos;
    try {
      intervalNanos = Duration.between(before.timestamp(), timestamp).toNanos();
    } catch (ArithmeticException e) {
      return null;
    }
    if (intervalNanos <= 0) {
      if (intervalNanos < 0) {
        // An out-of-order reading: keep the newer one as the base for the next delta.
        previous.asMap().put(key, before);
      }
      return null;
    }
    long deltaNanos = usageCoreNanos - before.usageCoreNanos();
    if (deltaNanos < 0) {
      return null;
    }
    return (long) ((double) deltaNanos / intervalNanos * 1e9);
  }

  /** Remembered instances; for tests and the self-metrics. */
  long size() {
    previous.cleanUp();
    return previous.estimatedSize();
  }
}
