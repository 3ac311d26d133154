package io.winstats.exporter.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Values computed from one snapshot version, kept only while that version is the newest asked for: the first request
 * for a newer version drops every value of the older ones and hands each to {@code evicted} (which frees a body's
 * memory once no send holds it). A size-bounded cache keyed by version kept up to a dozen superseded 1 MB bodies alive
 * at 110 pods; nothing ever asks for an old version again.
 *
 * <p>Each value is computed at most once: concurrent first requests for one key wait for one computation, and a
 * request for a version older than the newest cached computes nothing (its caller read an old snapshot: it reads the
 * newest again, which is never older than the figures it asked for). So N requests over K published versions compute
 * at most K values per key, whatever the order in which they arrive. Thread-safe.
 *
 * @param <K> what a value is for within a version (format, encoding, endpoint)
 */
public final class LatestVersionCache<K, V> {
  private final Consumer<V> evicted;
  private final AtomicLong computations = new AtomicLong();
  private long version = Long.MIN_VALUE; // guarded by this
  private Map<K, CompletableFuture<V>> values = new HashMap<>(); // guarded by this

  /** A cache whose dropped values need nothing done. */
  public LatestVersionCache() {
    this(value -> {});
  }

  /**
   * @param evicted called once with each value a newer version dropped, when that value's computation has ended
   */
  public LatestVersionCache(Consumer<V> evicted) {
    this.evicted = evicted;
  }

  /**
   * The value of {@code key} at {@code version}, computed by {@code compute} on the first request; {@code null} when a
   * newer version is already cached (read the snapshot again).
   */
  public @Nullable V get(long version, K key, Function<K, V> compute) {
    CompletableFuture<V> value;
    boolean computes = false;
    List<CompletableFuture<V>> superseded = List.of();
    synchronized (this) {
      if (version < this.version) {
        return null;
      }
      if (version > this.version) {
        superseded = new ArrayList<>(values.values());
        values = new HashMap<>();
        this.version = version;
      }
      value = values.get(key);
      if (value == null) {
        value = new CompletableFuture<>();
        values.put(key, value);
        computes = true;
      }
    }
    // A value still being computed is handed over when its computation ends.
    for (CompletableFuture<V> old : superseded) {
      var unused = old.thenAccept(evicted);
    }
    if (computes) {
      computations.incrementAndGet();
      try {
        value.complete(compute.apply(key));
      } catch (RuntimeException | Error e) {
        forget(key, value);
        value.completeExceptionally(e);
        throw e;
      }
    }
    return value.join();
  }

  /** The value if it was computed for {@code version}, else {@code null}. */
  public synchronized @Nullable V getIfPresent(long version, K key) {
    CompletableFuture<V> value = version == this.version ? values.get(key) : null;
    return value == null || !value.isDone() || value.isCompletedExceptionally() ? null : value.join();
  }

  /** Values computed so far, superseded ones included: what a render counter reads. */
  public long computations() {
    return computations.get();
  }

  /** The values the cache holds now (every one of the newest version, computed): none of a superseded version. */
  public synchronized List<V> held() {
    List<V> held = new ArrayList<>();
    for (CompletableFuture<V> v : values.values()) {
      if (v.isDone() && !v.isCompletedExceptionally()) {
        held.add(v.join());
      }
    }
    return held;
  }

  /** A failed computation is not cached: the next request tries again. */
  private synchronized void forget(K key, CompletableFuture<V> value) {
    values.remove(key, value);
  }
}
