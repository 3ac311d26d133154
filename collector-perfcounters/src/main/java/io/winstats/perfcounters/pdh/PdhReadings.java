package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import java.math.BigInteger;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Reading raw values out of one collect: the helpers every per-object mapping shares. Stateless. */
final class PdhReadings {
  private static final long MASK_32 = 0xFFFF_FFFFL;
  private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

  private PdhReadings() {}

  static Reading reading(Collected c, PerfCounter d) {
    return c.get(d.path().toString());
  }

  /** Whether every reading is ok; otherwise names the first failure as the part's reason. */
  static boolean require(NodePart part, Map<NodePart, String> missing, Reading... readings) {
    for (Reading r : readings) {
      if (!r.ok()) {
        missing.putIfAbsent(part, r.path() + " " + r.failure());
        return false;
      }
    }
    return true;
  }

  /** A raw value read as unsigned: a 32-bit counter's high half is not part of it. */
  static long unsigned(Reading r, long raw) {
    return PerfCounterType.is64Bit(r.type()) ? raw : raw & MASK_32;
  }

  /** The value of a counter without instances (or of its single instance); {@code null} when not read. */
  static @Nullable Long single(Reading r) {
    if (!r.ok() || r.items().isEmpty()) {
      return null;
    }
    return unsigned(r, r.items().values().iterator().next().firstValue());
  }

  static long ticksToNanos(long ticks, long ticksPerSecond) {
    if (ticksPerSecond <= 0) {
      throw new IllegalArgumentException("no time base");
    }
    return BigInteger.valueOf(ticks).multiply(NANOS_PER_SECOND).divide(BigInteger.valueOf(ticksPerSecond))
        .longValueExact();
  }
}
