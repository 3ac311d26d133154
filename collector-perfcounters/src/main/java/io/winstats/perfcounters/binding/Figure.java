package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.counters.LoggedCounter;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * One row of a binding table: a counter, the figure of a node-model record it fills, and how.
 *
 * @param <C> the counter type
 * @param <M> the node-model record
 * @param <B> the record's builder
 * @param counter the counter, as PDH reads it and a counter log holds it
 * @param kind how the counter's value relates to the figure
 * @param needed whether the record (or the instance it describes) is not built without this figure: a PDH sample or a
 *     log row that lacks it leaves the part (or the instance) out
 * @param value the figure of a record; null where the record does not have it
 * @param set sets the figure on the record's builder
 */
public record Figure<C extends LoggedCounter, M, B>(
    C counter, FigureKind kind, boolean needed, Function<M, @Nullable Long> value, ObjLongConsumer<B> set) {
  public Figure {
    Objects.requireNonNull(counter, "counter");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(set, "set");
    if (kind == FigureKind.GAUGE && counter.formatted().isRate()) {
      throw new IllegalArgumentException("a gauge is logged as its value, not as a rate: " + counter.counter());
    }
  }

  /** A {@link FigureKind#GAUGE} the record may lack. */
  public static <C extends LoggedCounter, M, B> Figure<C, M, B> gauge(
      C counter, Function<M, @Nullable Long> value, ObjLongConsumer<B> set) {
    return new Figure<>(counter, FigureKind.GAUGE, false, value, set);
  }

  /** A {@link FigureKind#CUMULATIVE} count the record may lack. */
  public static <C extends LoggedCounter, M, B> Figure<C, M, B> cumulative(
      C counter, Function<M, @Nullable Long> value, ObjLongConsumer<B> set) {
    return new Figure<>(counter, FigureKind.CUMULATIVE, false, value, set);
  }

  /** A {@link FigureKind#TIMER} the record may lack. */
  public static <C extends LoggedCounter, M, B> Figure<C, M, B> timer(
      C counter, Function<M, @Nullable Long> value, ObjLongConsumer<B> set) {
    return new Figure<>(counter, FigureKind.TIMER, false, value, set);
  }

  /** An {@link FigureKind#INVERSE_TIMER} the record may lack. */
  public static <C extends LoggedCounter, M, B> Figure<C, M, B> inverseTimer(
      C counter, Function<M, @Nullable Long> value, ObjLongConsumer<B> set) {
    return new Figure<>(counter, FigureKind.INVERSE_TIMER, false, value, set);
  }

  /** This figure as a needed one: the record (or instance) is not built without it. */
  public Figure<C, M, B> asNeeded() {
    return new Figure<>(counter, kind, true, value, set);
  }
}
