package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.counters.LoggedCounter;
import java.util.List;

/**
 * The binding table of one perf object: the names a counter log may hold the object under, and its figures in the
 * order a recorded log writes them.
 *
 * @param <C> the counter type
 * @param <M> the node-model record the figures belong to
 * @param <B> the record's builder
 * @param objects the object's names in a counter log, preferred first; {@code --record} writes the first
 * @param figures the rows: counter, figure, kind
 */
public record Binding<C extends LoggedCounter, M, B>(List<String> objects, List<Figure<C, M, B>> figures) {
  public Binding {
    objects = List.copyOf(objects);
    figures = List.copyOf(figures);
    if (objects.isEmpty()) {
      throw new IllegalArgumentException("a binding needs the name of its object");
    }
  }

  /** The object name {@code --record} writes. */
  public String recordedObject() {
    return objects.get(0);
  }
}
