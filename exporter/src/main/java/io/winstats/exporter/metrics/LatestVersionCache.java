package io.winstats.exporter.metrics;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Values computed from one snapshot version, kept only while that version is the newest asked for: the first request
 * for a newer version drops every value of the older ones. A size-bounded cache keyed by version kept up to a dozen
 * superseded 1 MB bodies alive at 110 pods; nothing ever asks for an old version again. Thread-safe; concurrent first
 * requests for one key compute it once.
 *
 * @param <K> what a value is for within a version (format, encoding, endpoint)
 */
public final class LatestVersionCache<K, V> {
  private record Version<K, V>(long number, Map<K, V> values) {}

  private final AtomicReference<Version<K, V>> latest =
      new AtomicReference<>(new Version<>(Long.MIN_VALUE, new ConcurrentHashMap<>()));

  /** The value of {@code key} at {@code version}, computed by {@code compute} on the first request. */
  public V get(long version, K key, Function<K, V> compute) {
    return values(version).computeIfAbsent(key, compute);
  }

  /** The value if it was computed for {@code version}, else {@code null}. */
  public @Nullable V getIfPresent(long version, K key) {
    Version<K, V> v = latest();
    return v.number() == version ? v.values().get(key) : null;
  }

  private Map<K, V> values(long version) {
    while (true) {
      Version<K, V> v = latest();
      if (v.number() == version) {
        return v.values();
      }
      if (v.number() > version) {
        // A request that read an older snapshot than the newest rendered: render it uncached, keep the newest.
        return new ConcurrentHashMap<>();
      }
      Version<K, V> next = new Version<>(version, new ConcurrentHashMap<>());
      if (latest.compareAndSet(v, next)) {
        return next.values();
      }
    }
  }

  /** NullAway models {@link AtomicReference#get()} as nullable; this one starts set and is only ever replaced. */
  private Version<K, V> latest() {
    return Objects.requireNonNull(latest.get(), "latest");
  }
}
