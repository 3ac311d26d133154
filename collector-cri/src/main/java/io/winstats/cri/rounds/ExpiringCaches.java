package io.winstats.cri.rounds;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;

/** The one shape of cache the reader keeps per pod and container: identities, CPU readings, pod CPU totals. */
final class ExpiringCaches {
  private ExpiringCaches() {}

  /**
   * A cache whose entries die after {@code expireAfterAccess} unread on {@code ticker}'s clock, bounded by {@code
   * maximumSize}. Maintenance runs on the calling thread, so expiry follows the injected ticker exactly (tests) and
   * no pool thread is started.
   */
  static <K, V> Cache<K, V> expiring(Duration expireAfterAccess, long maximumSize, Ticker ticker) {
    return Caffeine.newBuilder()
        .expireAfterAccess(expireAfterAccess)
        .maximumSize(maximumSize)
        .ticker(ticker)
        .executor(Runnable::run)
        .<K, V>build();
  }
}
