package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.CounterRates;
import io.winstats.perfcounters.CounterReading;
import io.winstats.perfcounters.CounterWidth;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.binding.Binding;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.LoggedCounter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One column {@link CounterLogRecorder} writes: its counter path and how a cell is formatted from the previous and the
 * current sample.
 */
record RecordedColumn(CounterPath path, Cell cell) {
  private static final double NANOS_PER_SECOND = 1e9;

  /** A value of one column from the previous and the current sample; null for a blank cell. */
  @FunctionalInterface
  interface Cell {
    @Nullable String value(@Nullable NodeSample previous, NodeSample current, long intervalNanos);
  }

  /** The record a sample holds for one set of columns: its memory, one core, one interface; null when it lacks it. */
  @FunctionalInterface
  interface Select<M> {
    @Nullable M from(NodeSample sample);
  }

  /** Builds the columns of one host, in the order they are added. */
  static final class Columns {
    private final String host;
    private final List<RecordedColumn> columns = new ArrayList<>();

    Columns(String host) {
      this.host = host;
    }

    /**
     * Adds {@code \object(instance)\counter}; PDH's {@code (}/{@code )} in instance names become {@code [}/{@code ]}.
     */
    void add(String object, @Nullable String instance, LoggedCounter counter, Cell cell) {
      String pdhInstance = instance == null ? null : instance.replace('(', '[').replace(')', ']');
      columns.add(new RecordedColumn(new CounterPath(host, object, pdhInstance, counter.counter()), cell));
    }

    /**
     * Adds a column under {@code object(instance)} for each figure of {@code binding} that {@code first} has, written
     * as the figure's counter formats it: a unit that is no rate as the value, a count per second, a timer as the
     * percentage of the interval or its mean (an inverse timer as 100 minus the percentage), each between the previous
     * and the current row. A counter two figures read is written once, from the first figure {@code first} has.
     *
     * @param select the record in a sample (null when the sample lacks it)
     */
    <C extends LoggedCounter, M, B> void addFigures(
        String object,
        @Nullable String instance,
        Binding<C, M, B> binding,
        M first,
        Select<M> select) {
      Set<C> written = new HashSet<>();
      for (Figure<C, M, B> f : binding.figures()) {
        // A counter that fills two figures (% Idle Time: idle and busy time) is one column, from the first it has.
        if (f.value().apply(first) == null || !written.add(f.counter())) {
          continue;
        }
        add(object, instance, f.counter(), (p, c, dt) -> {
          M now = select.from(c);
          Long value = now == null ? null : f.value().apply(now);
          if (value == null) {
            return null;
          }
          if (!f.counter().formatted().isRate()) {
            return Long.toString(value);
          }
          M then = p == null ? null : select.from(p);
          Long before = then == null ? null : f.value().apply(then);
          return switch (f.kind()) {
            case CUMULATIVE -> perSecond(before, value, dt);
            case TIMER -> shareOfInterval(before, value, dt, LoggedRow.timerScale(f.counter().formatted()), false);
            case INVERSE_TIMER -> shareOfInterval(before, value, dt, 100, true);
            case GAUGE -> throw new IllegalStateException("Figure refuses a gauge logged as a rate");
          };
        });
      }
    }

    List<RecordedColumn> list() {
      return List.copyOf(columns);
    }
  }

  /**
   * The share of the interval that {@code before} to {@code now} nanoseconds of a timer took, times {@code scale} as
   * PDH formats it (100: in percent; 1: a queue length's mean over the interval) ({@code inverse}: {@code scale} minus
   * it), or null (a blank cell) without a previous value, on a reset or without an interval.
   */
  static @Nullable String shareOfInterval(
      @Nullable Long before, long now, long intervalNanos, double scale, boolean inverse) {
    if (before == null) {
      return null;
    }
    OptionalDouble rate = rate(before, now, intervalNanos);
    if (rate.isEmpty()) {
      return null;
    }
    double share = rate.getAsDouble() / NANOS_PER_SECOND * scale;
    return PdhCsv.decimal(inverse ? scale - share : share);
  }

  /** The per-second rate of a 64-bit cumulative figure over {@code intervalNanos}; empty on a reset or no interval. */
  static OptionalDouble rate(long before, long now, long intervalNanos) {
    return CounterRates.rate(
        new CounterReading(before, 0), new CounterReading(now, intervalNanos), CounterWidth.BITS_64);
  }

  /** {@link #rate} formatted as PDH formats a {@code /sec} counter, or null (a blank cell). */
  static @Nullable String perSecond(@Nullable Long before, @Nullable Long now, long intervalNanos) {
    if (before == null || now == null) {
      return null;
    }
    OptionalDouble rate = rate(before, now, intervalNanos);
    return rate.isEmpty() ? null : PdhCsv.decimal(rate.getAsDouble());
  }
}
