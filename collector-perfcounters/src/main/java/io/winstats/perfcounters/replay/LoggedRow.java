package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.binding.FigureKind;
import io.winstats.perfcounters.counters.FormattedUnit;
import java.time.Instant;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One row of a counter log and the integrals of its rate columns up to it, read with the blank-cell rules: a needed
 * cell that is blank (or negative) throws {@link BlankCell}, and the part that needed it is missing from the row's
 * sample; an optional cell that is blank gives null.
 */
final class LoggedRow {
  private static final double NANOS_PER_SECOND = 1e9;

  private final LogHeader header;
  private final int row;
  private final CounterLog.Row values;
  private final Instant timestamp;
  private final double[] integral;
  private final double[] complement;

  /**
   * @param row the row's index in the log, 0 for the first
   * @param timestamp the row's time in UTC
   * @param integral per column, Σ value × interval over the rows up to this one
   * @param complement per column, Σ max(0, 100 − value) × interval, for percentages whose complement is wanted
   */
  LoggedRow(
      LogHeader header, int row, CounterLog.Row values, Instant timestamp, double[] integral, double[] complement) {
    this.header = header;
    this.row = row;
    this.values = values;
    this.timestamp = timestamp;
    this.integral = integral;
    this.complement = complement;
  }

  /** A needed cell of a row is blank: the part is missing from that row's sample. */
  static final class BlankCell extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BlankCell(String message) {
      super(message, null, false, false);
    }
  }

  /** The row's index in the log, 0 for the first. */
  int index() {
    return row;
  }

  /** The row's time in UTC. */
  Instant timestamp() {
    return timestamp;
  }

  /** {@code build}'s part, or null with the reason put in {@code missing} when a needed cell is blank. */
  <T> @Nullable T part(NodePart part, Map<NodePart, String> missing, Supplier<T> build) {
    try {
      return build.get();
    } catch (BlankCell | IllegalArgumentException e) {
      missing.put(part, e.getMessage());
      return null;
    }
  }

  /** The integral of a rate column up to this row; a blank cell in this row (after the first) is a gap. */
  double rate(int column) {
    requireRate(column);
    return integral[column];
  }

  /** The integral of 100 minus a percentage column up to this row. */
  double complement(int column) {
    requireRate(column);
    return complement[column];
  }

  long count(int column) {
    return Math.round(rate(column));
  }

  double gaugeValue(int column) {
    double v = values.raw(column);
    if (Double.isNaN(v) || v < 0) {
      throw blank(column);
    }
    return v;
  }

  long gauge(int column) {
    return Math.round(gaugeValue(column));
  }

  /** True when the column's cell in this row is blank. */
  boolean isBlank(int column) {
    return Double.isNaN(values.raw(column));
  }

  /** The gauge in {@code column}; null when there is no such column or its cell is blank. */
  @Nullable Long optionalGauge(@Nullable Integer column) {
    return column == null || isBlank(column) ? null : gauge(column);
  }

  /** The decimal gauge in {@code column}; null when there is no such column or its cell is blank. */
  @Nullable Double optionalDecimal(@Nullable Integer column) {
    return column == null || isBlank(column) ? null : gaugeValue(column);
  }

  /**
   * A bound figure from its column: a unit that is no rate as the value itself; a rate integrated up to this row, as a
   * count ({@link FigureKind#CUMULATIVE}) or as the nanoseconds of a timer's percentage or mean ({@link
   * FigureKind#TIMER}) or of its complement ({@link FigureKind#INVERSE_TIMER}).
   *
   * @param strict whether a blank cell throws {@link BlankCell} (the part leaves the row's sample) rather than give
   *     null; a rate's first row is never blank, its integral is 0 there
   */
  @Nullable Long figure(int column, FigureKind kind, FormattedUnit unit, boolean strict) {
    if (!unit.isRate()) {
      return !strict && isBlank(column) ? null : gauge(column);
    }
    if (!strict && row > 0 && isBlank(column)) {
      return null;
    }
    return switch (kind) {
      case CUMULATIVE -> count(column);
      case TIMER -> Math.round(rate(column) / timerScale(unit) * NANOS_PER_SECOND);
      case INVERSE_TIMER -> Math.round(complement(column) / 100 * NANOS_PER_SECOND);
      case GAUGE -> throw new IllegalStateException("Figure refuses a gauge logged as a rate: " + header.path(column));
    };
  }

  /**
   * What a {@link FigureKind#TIMER}'s logged value is divided by to give the active share of the interval: 100 for a
   * percentage, 1 for a mean over the interval (a queue length).
   */
  static double timerScale(FormattedUnit unit) {
    return unit == FormattedUnit.PERCENT_OF_INTERVAL ? 100 : 1;
  }

  /** A {@link BlankCell} naming this row. */
  BlankCell blank(String what) {
    return new BlankCell("row " + row + " has no value for " + what);
  }

  private void requireRate(int column) {
    if (row > 0 && (Double.isNaN(values.raw(column)) || values.raw(column) < 0)) {
      throw blank(column);
    }
  }

  private BlankCell blank(int column) {
    return blank(String.valueOf(header.path(column)));
  }
}
