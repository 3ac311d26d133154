package io.winstats.exporter.compare;

import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Every number of one document, keyed by where it is, as {@link FigureComparison} compares two: a Summary's ({@code
 * pods[<uid>].containers[app].cpu.usageCoreNanoSeconds}, {@link SummaryFigures}) or an exposition's series ({@code
 * windows_cpu_time_total{core="0,0",mode="idle"}}, {@link ExpositionFigures}).
 *
 * @param figures each number by its key, in key order
 * @param entities each element a figure can lie in (a pod, a container, an interface, a volume; a metric name), by its
 *     key, with a name for a person ({@code pod namespace/name}, {@code family windows_cpu_time_total})
 */
record Figures(Map<String, Figure> figures, Map<String, String> entities) {

  /**
   * One number.
   *
   * @param field its own name ({@code workingSetBytes}, {@code windows_cpu_time_total}), for a person
   * @param time the first moment the value can have been read, {@code null} when unknown (a file)
   * @param until the last such moment: the same as {@code time} where the document says when (a Summary's {@code
   *     time}, a sample's timestamp); the end of the request where only the request's own window is known
   * @param kind how two of it compare
   * @param floor the absolute tolerance of a gauge, under which its relative one does not go; zero otherwise
   */
  record Figure(
      String field, double value, @Nullable Instant time, @Nullable Instant until, FigureKind kind, double floor) {}

  /** Thrown for a document that is not of the kind expected, with what was wrong in a person's words. */
  static final class NotAFigureDocumentException extends Exception {
    private static final long serialVersionUID = 1L;

    NotAFigureDocumentException(String message) {
      super(message);
    }
  }

  /** Whether the figure or element {@code key} lies inside the element {@code entity}. */
  static boolean inside(String key, String entity) {
    return key.equals(entity) || key.startsWith(entity + ".") || key.startsWith(entity + "{");
  }

  /** The latest moment any figure can have been read; {@code null} when no figure has a time. */
  @Nullable Instant newest() {
    Instant newest = null;
    for (Figure f : figures.values()) {
      Instant t = f.until();
      if (t != null && (newest == null || t.isAfter(newest))) {
        newest = t;
      }
    }
    return newest;
  }
}
