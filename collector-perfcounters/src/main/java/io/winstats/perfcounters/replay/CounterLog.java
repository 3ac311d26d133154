package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.counters.CounterPath;
import java.nio.charset.Charset;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import org.jspecify.annotations.Nullable;

/**
 * A parsed PDH-CSV counter log: the header and the rows, values as the log holds them (formatted).
 *
 * @param banner the first header cell, such as {@code (PDH-CSV 4.0) (Pacific Daylight Time)(420)}; localized logs
 *     often carry only {@code (PDH-CSV 4.0) (}
 * @param biasMinutes the Windows time-zone bias in the banner, in minutes, with UTC = local time + bias; null when the
 *     banner has none
 * @param charset how the file's bytes were decoded
 * @param columns one entry per value column (the timestamp column excluded): the counter path, or null for a column
 *     that is not a counter path
 * @param rows the data rows, in file order
 * @param droppedRows rows left out because their cell count differs from the header's or their timestamp did not
 *     parse (such as a last line cut short while the log was being written)
 */
public record CounterLog(
    String banner,
    @Nullable Integer biasMinutes,
    Charset charset,
    List<@Nullable CounterPath> columns,
    List<Row> rows,
    int droppedRows) {
  public CounterLog {
    Objects.requireNonNull(banner, "banner");
    Objects.requireNonNull(charset, "charset");
    columns = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(columns));
    rows = List.copyOf(rows);
  }

  /**
   * One data row.
   *
   * @param localTime the logged time, in the logging machine's local time (see {@link CounterLog#biasMinutes()})
   * @param values one value per column; {@link Double#NaN} where the cell was blank ({@code ""} or {@code " "}) or
   *     not a number
   */
  // The array is copied in and out, and equals, hashCode and toString below compare and show its contents.
  @SuppressWarnings("ArrayRecordComponent")
  public record Row(LocalDateTime localTime, double[] values) {
    public Row {
      Objects.requireNonNull(localTime, "localTime");
      values = values.clone();
    }

    /** The value in {@code column} (0 = the first value column), or empty where the cell was blank. */
    public OptionalDouble value(int column) {
      double v = values[column];
      return Double.isNaN(v) ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    @Override
    public double[] values() {
      return values.clone();
    }

    double raw(int column) {
      return values[column];
    }

    @Override
    public boolean equals(@Nullable Object other) {
      return other instanceof Row row && row.localTime.equals(localTime) && Arrays.equals(row.values, values);
    }

    @Override
    public int hashCode() {
      return 31 * localTime.hashCode() + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
      return "Row[" + localTime + ", " + values.length + " values]";
    }
  }
}
