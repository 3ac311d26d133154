package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.CounterReading;
import io.winstats.perfcounters.CounterRates;
import io.winstats.perfcounters.CounterWidth;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.LoggedCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.jspecify.annotations.Nullable;

/**
 * One column {@link CounterLogRecorder} writes: its counter path and how a cell is formatted from the previous and the
 * current sample.
 */
record RecordedColumn(CounterPath path, Cell cell) {

  /** A value of one column from the previous and the current sample; null for a blank cell. */
  @FunctionalInterface
  interface Cell {
    @Nullable String value(@Nullable NodeSample previous, NodeSample current, long intervalNanos);
  }

  /** Builds the columns of one host, in the order they are added. */
  static final class Columns {
    private final String host;
    private final List<RecordedColumn> columns = new ArrayList<>();

    Columns(String host) {
      this.host = host;
    }

    /** Adds {@code \object(instance)\counter}; PDH's {@code (}/{@code )} in instance names become {@code [}/{@code ]}. */
    void add(String object, @Nullable String instance, LoggedCounter counter, Cell cell) {
      String pdhInstance = instance == null ? null : instance.replace('(', '[').replace(')', ']');
      columns.add(new RecordedColumn(new CounterPath(host, object, pdhInstance, counter.counter()), cell));
    }

    List<RecordedColumn> list() {
      return List.copyOf(columns);
    }
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
