package io.winstats.perfcounters.pdh;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.binding.Binding;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.binding.FigureKind;
import io.winstats.perfcounters.counters.PerfCounter;
import io.winstats.perfcounters.pdh.ObjectQuery.Collected;
import io.winstats.perfcounters.pdh.ObjectQuery.Reading;
import io.winstats.perfcounters.pdh.PdhLibrary.RawCounter;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    RawCounter item = item(r, null);
    return item == null ? null : unsigned(r, item.firstValue());
  }

  /**
   * Sets the {@link FigureKind#GAUGE} and {@link FigureKind#CUMULATIVE} figures of {@code binding} that one collect has
   * for {@code instance}: a gauge as read, unsigned at its width; a count carried across the 2^32 wrap of a 32-bit type
   * by {@code counts}. Timer figures are the object's own reader's business. When a needed figure is lacking nothing
   * is set, and the counts of the instance keep their state for the next sample.
   *
   * @param instance the instance, or {@code null} for an object without instances (its one item)
   * @param keys collects the {@code counts} keys of the figures seen, for {@link CumulativeCounters#retainOnly}
   * @return {@code null} when every needed figure was read; else the reading of the first needed one that lacks it
   */
  static <C extends PerfCounter, M, B> @Nullable Reading fill(
      B builder,
      Binding<C, M, B> binding,
      Collected c,
      @Nullable String instance,
      CumulativeCounters<String> counts,
      Set<String> keys) {
    List<Figure<C, M, B>> figures = new ArrayList<>();
    List<Reading> readings = new ArrayList<>();
    List<RawCounter> items = new ArrayList<>();
    for (Figure<C, M, B> f : binding.figures()) {
      if (f.kind() != FigureKind.GAUGE && f.kind() != FigureKind.CUMULATIVE) {
        continue;
      }
      Reading r = reading(c, f.counter());
      RawCounter item = item(r, instance);
      if (f.kind() == FigureKind.CUMULATIVE) {
        keys.add(key(r, instance));
      }
      if (item == null) {
        if (f.needed()) {
          return r;
        }
        continue;
      }
      figures.add(f);
      readings.add(r);
      items.add(item);
    }
    for (int i = 0; i < figures.size(); i++) {
      Figure<C, M, B> f = figures.get(i);
      Reading r = readings.get(i);
      long raw = items.get(i).firstValue();
      f.set().accept(
          builder,
          f.kind() == FigureKind.CUMULATIVE
              ? counts.update(key(r, instance), raw, r.type())
              : unsigned(r, raw));
    }
    return null;
  }

  /** The item of {@code instance} (the first item for {@code null}), or {@code null} when the reading lacks it. */
  static @Nullable RawCounter item(Reading r, @Nullable String instance) {
    if (!r.ok() || r.items().isEmpty()) {
      return null;
    }
    return instance == null ? r.items().values().iterator().next() : r.items().get(instance);
  }

  /** The {@link CumulativeCounters} key of a counter's instance. */
  static String key(Reading r, @Nullable String instance) {
    return instance == null ? r.path() : r.path() + "|" + instance;
  }

  /** Why a needed figure is lacking: its reading's failure, or an instance PDH did not return. */
  static String lacking(Reading r) {
    return r.path() + " " + (r.ok() ? "PDH_CSTATUS_NO_INSTANCE" : r.failure());
  }

  static long ticksToNanos(long ticks, long ticksPerSecond) {
    if (ticksPerSecond <= 0) {
      throw new IllegalArgumentException("no time base");
    }
    return BigInteger.valueOf(ticks).multiply(NANOS_PER_SECOND).divide(BigInteger.valueOf(ticksPerSecond))
        .longValueExact();
  }
}
