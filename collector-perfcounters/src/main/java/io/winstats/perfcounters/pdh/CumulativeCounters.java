package io.winstats.perfcounters.pdh;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Turns raw counter values into cumulative counts that survive the 2^32 wrap of 32-bit counters and the reset of a
 * 32-bit total. A package-private helper of the PDH source (the shared rate helpers live elsewhere); pure, with table
 * tests.
 *
 * <p>A 64-bit counter ({@code dwType} with {@code PERF_SIZE_LARGE}) is passed through unchanged: it does not wrap in
 * practice, and a decrease is a reset the consumer must see. A 32-bit counter starts at its first observed value, and
 * a later observation below the previous one is told apart by the counter's type:
 *
 * <ul>
 *   <li>a delta counter ({@code PERF_COUNTER_COUNTER}, {@code PERF_COUNTER_BULK_COUNT}: the {@code /sec} counts such
 *       as a driver's 32-bit {@code Bytes Received/sec}) wraps: every observation adds {@code (raw - previous) mod
 *       2^32}. A 10 Gbit/s adapter passes 2^32 bytes in 3.4 s, so a drop there is most likely a wrap;
 *   <li>a raw count ({@code PERF_COUNTER_RAWCOUNT}: the adapter totals {@code Packets Received Errors}, {@code Packets
 *       Outbound Errors}, {@code Packets Received Discarded}, {@code Packets Outbound Discarded}, and a custom counter
 *       of that type) counts rare events, and Windows sets it back to 0 when the adapter is reset or re-created. A drop
 *       is a wrap only when the increase it implies, {@code 2^32 - previous + raw}, is below {@link #RESET_BELOW}
 *       (2^24, 16.8 M events in one round): the previous value was within 2^24 of 2^32 and the new one is below 2^24.
 *       Any other drop is a reset: the baseline restarts at the new value and nothing is added, where a wrap would
 *       have added about 4.29 G errors or discards. The events counted between the reset and the observation are
 *       lost, as they are for any reset seen only through samples.
 * </ul>
 *
 * <p>windows_exporter does not do this: 0.31.8 exports these adapter counts raw, a {@code CounterValue} of the
 * counter's FirstValue ({@code internal/collector/net/net.go:219-224,384-389@v0.31.8} for {@code
 * windows_net_packets_received_errors_total}, the same for the other three), and uses its wrap-carrying {@code
 * utils.Counter} only for the CPU collector's {@code Processor Utility} and {@code Processor Performance} second values
 * ({@code internal/collector/cpu/cpu.go:181-226@v0.31.8}). So at an adapter reset its series drops to the new value,
 * which {@code rate()} reads as a counter reset, and ours stays at the total so far and goes on from there; after a
 * 32-bit wrap its series drops by 2^32 and ours goes on by the increase. Keys not seen in a sample can be forgotten
 * with {@link #retainOnly(Set)}; a key seen again starts afresh.
 *
 * <p>Not thread-safe; the sampling thread owns it.
 *
 * @param <K> the key: counter and instance
 */
final class CumulativeCounters<K> {
  private static final long MASK_32 = 0xFFFF_FFFFL;
  /** A 32-bit raw count that drops by an implied increase of this many or more was reset, not wrapped. */
  static final long RESET_BELOW = 1L << 24;

  private static final class State {
    long lastRaw;
    long total;
  }

  private final Map<K, State> states = new HashMap<>();

  /**
   * The cumulative value of {@code key} after observing {@code raw}.
   *
   * @param raw the raw FirstValue (for a 32-bit counter only the low 32 bits are used)
   * @param type the counter's {@code dwType}: its size bit, and whether it is a raw count (see the class comment)
   * @return the cumulative count, never negative for a 32-bit counter
   * @throws IllegalArgumentException for a negative 64-bit value (the caller treats it as invalid data)
   */
  long update(K key, long raw, int type) {
    if (PerfCounterType.is64Bit(type)) {
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
      long increase = (value - s.lastRaw) & MASK_32;
      if (value >= s.lastRaw || !isRawCount(type) || increase < RESET_BELOW) {
        s.total += increase;
      }
    }
    s.lastRaw = value;
    return s.total;
  }

  /** A count Windows keeps as a total ({@code PERF_COUNTER_RAWCOUNT}, decimal or hex), not a delta counter. */
  static boolean isRawCount(int type) {
    return type == PerfCounterType.PERF_COUNTER_RAWCOUNT || type == PerfCounterType.PERF_COUNTER_RAWCOUNT_HEX;
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
