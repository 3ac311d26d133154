package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.binding.Binding;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.counters.LoggedCounter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The columns a counter log has for the figures of one {@link Binding}, under one object and instance, and reading
 * them from a row.
 *
 * @param <C> the counter type
 * @param <M> the node-model record
 * @param <B> its builder
 */
final class BoundColumns<C extends LoggedCounter, M, B> {
  private final @Nullable String instance;
  private final Map<Figure<C, M, B>, Integer> columns;
  private final List<Figure<C, M, B>> lacking;

  private BoundColumns(
      @Nullable String instance, Map<Figure<C, M, B>, Integer> columns, List<Figure<C, M, B>> lacking) {
    this.instance = instance;
    this.columns = Collections.unmodifiableMap(columns);
    this.lacking = List.copyOf(lacking);
  }

  /** The columns of {@code object(instance)} (or {@code object} for {@code null}) for each figure the header has. */
  static <C extends LoggedCounter, M, B> BoundColumns<C, M, B> of(
      LogHeader header, String object, @Nullable String instance, Binding<C, M, B> binding) {
    Map<Figure<C, M, B>, Integer> columns = new LinkedHashMap<>();
    List<Figure<C, M, B>> lacking = new ArrayList<>();
    for (Figure<C, M, B> f : binding.figures()) {
      Integer column = header.column(object, instance, f.counter());
      if (column != null) {
        columns.put(f, column);
      } else if (f.needed()) {
        lacking.add(f);
      }
    }
    return new BoundColumns<>(instance, columns, lacking);
  }

  /** The instance, for a binding read per instance. */
  String instance() {
    return Objects.requireNonNull(instance, "an object without instances");
  }

  /** Whether every needed figure has a column. */
  boolean complete() {
    return lacking.isEmpty();
  }

  /** Whether no figure has a column. */
  boolean isEmpty() {
    return columns.isEmpty();
  }

  /** The needed counters without a column, in table order, for a message. */
  String lacking() {
    return lacking.stream().map(f -> f.counter().counter()).collect(Collectors.joining(", "));
  }

  /**
   * Sets every figure the row has on {@code builder}. A needed figure's blank cell throws {@link LoggedRow.BlankCell},
   * so the part leaves the row's sample; an optional one's blank cell leaves only that figure out.
   */
  void read(LoggedRow row, B builder) {
    columns.forEach((f, column) -> set(f, row.figure(column, f.kind(), f.counter().formatted(), f.needed()), builder));
  }

  /** Sets every figure the row has on {@code builder}; any blank cell throws {@link LoggedRow.BlankCell}. */
  void readStrictly(LoggedRow row, B builder) {
    columns.forEach((f, column) -> set(f, row.figure(column, f.kind(), f.counter().formatted(), true), builder));
  }

  private static <C extends LoggedCounter, M, B> void set(Figure<C, M, B> f, @Nullable Long value, B builder) {
    if (value != null) {
      f.set().accept(builder, value);
    }
  }
}
