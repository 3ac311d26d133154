package io.winstats.perfcounters.pdh;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Turns raw counter values into cumulative counts that survive the 2^32 wrap of 32-bit counters. A package-private
 * helper of the PDH source (the shared rate helpers live elsewhere); pure, with table tests.
 *
 * <p>A 64-bit counter is passed through unchanged: it does not wrap in practice, and a decrease is a reset the consumer
 * must see. A 32-bit counter ({@code dwType} without {@code PERF_SIZE_LARGE}) starts at its first observed value; every
 * later observation adds {@code (raw - previous) mod 2^32}. A genuine reset of a 32-bit counter is indistinguishable
 * from a wrap and is counted as one (as windows_exporter's {@code utils.Counter} does). Keys not seen in a sample can be
 * forgotten with {@link #retainOnly(Set)}; a key seen again starts afresh.
 *
 * <p>Not thread-safe; the sampling thread owns it.
 *
 * @param <K> the key: counter and instance
 */
final class CumulativeCounters<K> {
  private static final long MASK_32 = 0xFFFF_FFFFL;

  private static final class State {
    long lastRaw;
    long total;
  }

  private final Map<K, State> states = new HashMap<>();

  /**
   * The cumulative value of {@code key} after observing {@code raw}.
   *
   * @param raw the raw FirstValue (for a 32-bit counter only the low 32 bits are used)
   * @param is64Bit whether the counter type has the size bit
   * @return the cumulative count, never negative for a 32-bit counter
   * @throws IllegalArgumentException for a negative 64-bit value (the caller treats it as invalid data)
   */
  long update(K key, long raw, boolean is64Bit) {
    if (is64Bit) {
      if (raw < 0) {
        throw new IllegalArgumentException("negative 64-bit counter value " + raw);
      }
      states.remove(key);
      return raw;
    }
    long value = raw & MASK_32;
    State s = states.get(key);
    if (s == null) {
      s = new State();
      s.total = value;
      states.put(key, s);
    } else {
      s.total += (value - s.lastRaw) & MASK_32;
    }
    s.lastRaw = value;
    return s.total;
  }

  /** Forgets every key not in {@code present}. */
  void retainOnly(Set<K> present) {
    states.keySet().retainAll(present);
  }

  /** Keys tracked now (for tests). */
  int size() {
    return states.size();
  }
}
