package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The series served from one part of the model (a {@code NodeMemory}, a {@code CgroupCpu}, one interface's counters),
 * declared once: each row holds its family (name, help, type, label names) and the getter that fills it. A collector
 * adds a part's points with {@link #add} and derives its family list from its tables ({@link #families}), so a family
 * cannot be declared without being served or served without being declared. A series that is not one figure of the
 * part read one way (more than one point per part, a label of its own) is a {@link Builder#write} row with its own
 * code.
 *
 * @param <P> the part of the model the rows read
 */
final class SeriesTable<P> {
  /** Fills one row's family from a part. */
  @FunctionalInterface
  interface Writer<P> {
    void write(FamiliesBuilder f, MetricFamilyDescriptor family, P part, Labels labels, @Nullable Instant at);
  }

  /**
   * Reads the one figure of a part a plain row serves; {@code null} (absent) adds no point, as the kubelet skips nil.
   * A getter, unlike {@code perfcounters.binding.Figure}, which binds a counter to a model field both ways.
   */
  @FunctionalInterface
  interface Getter<P> {
    @Nullable Number get(P part);
  }

  /** A served series: its family and how a part fills it. */
  record Row<P>(MetricFamilyDescriptor family, Writer<P> writer) {
    Row {
      Objects.requireNonNull(family, "family");
      Objects.requireNonNull(writer, "writer");
    }
  }

  private final List<Row<P>> rows;
  private final List<MetricFamilyDescriptor> families;

  private SeriesTable(List<Row<P>> rows) {
    this.rows = List.copyOf(rows);
    this.families = this.rows.stream().map(Row::family).toList();
  }

  /** A table whose families carry {@code labelNames}; rows are added in the order they are served. */
  static <P> Builder<P> labelled(List<String> labelNames) {
    return new Builder<>(labelNames);
  }

  /** Adds every row's points for {@code part}; {@code at} is the figure's own time, or null for scrape time. */
  void add(FamiliesBuilder f, P part, Labels labels, @Nullable Instant at) {
    for (Row<P> row : rows) {
      row.writer().write(f, row.family(), part, labels, at);
    }
  }

  List<Row<P>> rows() {
    return rows;
  }

  /** The families of this table, in row order. */
  List<MetricFamilyDescriptor> families() {
    return families;
  }

  /**
   * The families of {@code tables} one after the other, each once: a collector's family list. A family several tables
   * fill (a root's, a pod's and a container's CPU) is a row of each, naming one descriptor.
   */
  static List<MetricFamilyDescriptor> families(SeriesTable<?>... tables) {
    return Arrays.stream(tables).flatMap(t -> t.families().stream()).distinct().toList();
  }

  static final class Builder<P> {
    private final List<String> labelNames;
    private final List<Row<P>> rows = new ArrayList<>();

    private Builder(List<String> labelNames) {
      this.labelNames = List.copyOf(labelNames);
    }

    /** A gauge family served from one figure of the part. */
    Builder<P> gauge(String name, String help, Getter<P> getter) {
      return row(FamiliesBuilder.gauge(name, help, labelNames), getter);
    }

    /** A counter family ({@code name} ends in {@code _total}) served from one figure of the part. */
    Builder<P> counter(String name, String help, Getter<P> getter) {
      return row(FamiliesBuilder.counter(name, help, labelNames), getter);
    }

    /** A family declared elsewhere (shared with another collector) served from one figure of the part. */
    Builder<P> row(MetricFamilyDescriptor family, Getter<P> getter) {
      Objects.requireNonNull(getter, "getter");
      return write(
          family,
          (f, fam, part, labels, at) -> {
            Number value = getter.get(part);
            if (value != null) {
              f.add(fam, value.doubleValue(), labels, at);
            }
          });
    }

    /** A family whose points a part fills by code of its own (several points, labels of its own). */
    Builder<P> write(MetricFamilyDescriptor family, Writer<P> writer) {
      rows.add(new Row<>(family, writer));
      return this;
    }

    SeriesTable<P> build() {
      return new SeriesTable<>(rows);
    }
  }
}
