package io.winstats.exporter.compare;

import io.winstats.exporter.compare.Figures.Figure;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The daemon's figures against a reference's (the node's kubelet's Summary or /metrics/resource, windows_exporter's
 * /metrics) figure by figure. The daemon's document is read several times around the reference, so that a counter is
 * bracketed by the daemon's readings just before and just after the reference's own time, and a gauge is compared
 * with the daemon's reading nearest to it.
 */
final class FigureComparison {
  private FigureComparison() {}

  /** How one figure compared. */
  enum Verdict {
    /** Within its tolerance, or equal, or inside the bracket. */
    OK,
    /** Outside it. */
    DIFFERS,
    /** A counter neither side can place in time: the reference has no time and was not read beside the daemon. */
    UNBRACKETED
  }

  /**
   * One figure both sides have.
   *
   * @param daemonLow the daemon's value, or for a counter its reading at or before the reference's time ({@code null}
   *     when every reading is after it)
   * @param daemonHigh the same value, or for a counter its reading at or after the reference's time ({@code null}
   *     when every reading is before it)
   * @param difference how far the daemon is from the reference (daemon minus reference; for a counter, from the
   *     nearest end of its bracket, zero inside it)
   * @param tolerance how far a gauge or an instant may be; zero otherwise
   */
  record Row(
      String key,
      FigureKind kind,
      double reference,
      @Nullable Double daemonLow,
      @Nullable Double daemonHigh,
      double difference,
      double tolerance,
      Verdict verdict) {}

  /**
   * The comparison.
   *
   * @param rows every figure both sides have, in key order
   * @param onlyReference elements (pods, containers, interfaces, volumes; metric names) only the reference has, each
   *     by its key and name; an element inside one listed is not listed again
   * @param onlyDaemon the same for the daemon's last reading
   * @param figuresOnlyReference figures (for an exposition, label sets) only the reference has, of elements both have
   * @param figuresOnlyDaemon figures only the daemon has, of elements both have
   */
  record Result(
      List<Row> rows,
      Map<String, String> onlyReference,
      Map<String, String> onlyDaemon,
      List<String> figuresOnlyReference,
      List<String> figuresOnlyDaemon) {
    long count(Verdict verdict) {
      return rows.stream().filter(r -> r.verdict() == verdict).count();
    }
  }

  /**
   * Compares {@code reference} with the daemon's readings {@code daemon} (at least one, in the order they were read).
   */
  static Result compare(List<Figures> daemon, Figures reference) {
    if (daemon.isEmpty()) {
      throw new IllegalArgumentException("no reading of the daemon");
    }
    Figures last = daemon.get(daemon.size() - 1);
    List<Row> rows = new ArrayList<>();
    List<String> figuresOnlyReference = new ArrayList<>();
    for (Map.Entry<String, Figure> entry : reference.figures().entrySet()) {
      String key = entry.getKey();
      List<Reading> readings = readings(daemon, key);
      if (readings.isEmpty()) {
        if (!insideMissing(key, reference, last)) {
          figuresOnlyReference.add(key);
        }
        continue;
      }
      rows.add(row(key, entry.getValue(), readings));
    }
    List<String> figuresOnlyDaemon = new ArrayList<>();
    for (String key : last.figures().keySet()) {
      if (!reference.figures().containsKey(key) && !insideMissing(key, last, reference)) {
        figuresOnlyDaemon.add(key);
      }
    }
    return new Result(
        List.copyOf(rows),
        onlyIn(reference, last),
        onlyIn(last, reference),
        List.copyOf(figuresOnlyReference),
        List.copyOf(figuresOnlyDaemon));
  }

  /** One reading of the daemon's figure, between its times. */
  private record Reading(double value, @Nullable Instant time, @Nullable Instant until) {}

  private static List<Reading> readings(List<Figures> daemon, String key) {
    List<Reading> readings = new ArrayList<>();
    for (Figures d : daemon) {
      Figure f = d.figures().get(key);
      if (f != null) {
        readings.add(new Reading(f.value(), f.time(), f.until()));
      }
    }
    return readings;
  }

  private static Row row(String key, Figure reference, List<Reading> readings) {
    FigureKind kind = reference.kind();
    double ref = reference.value();
    if (kind == FigureKind.CUMULATIVE) {
      return counterRow(key, reference, readings);
    }
    double daemon = nearest(readings, reference).value();
    double difference = daemon - ref;
    double tolerance = kind.tolerance(ref, reference.floor());
    return new Row(
        key,
        kind,
        ref,
        daemon,
        daemon,
        difference,
        tolerance,
        Math.abs(difference) <= tolerance ? Verdict.OK : Verdict.DIFFERS);
  }

  /** The reading nearest to the reference's time; the last one when either has none. */
  private static Reading nearest(List<Reading> readings, Figure reference) {
    Reading last = readings.get(readings.size() - 1);
    Instant at = reference.time();
    Instant until = reference.until();
    if (at == null || until == null || readings.stream().anyMatch(r -> r.time() == null || r.until() == null)) {
      return last;
    }
    long middle = middle(at, until);
    return readings.stream()
        .min(Comparator.comparingLong(r -> Math.abs(middle(r) - middle)))
        .orElse(last);
  }

  private static long middle(Instant from, Instant to) {
    return from.toEpochMilli() + (to.toEpochMilli() - from.toEpochMilli()) / 2;
  }

  private static long middle(Reading r) {
    return middle(Objects.requireNonNull(r.time()), Objects.requireNonNull(r.until()));
  }

  /**
   * A counter rises: while the reference read it, it was at least the daemon's last reading taken wholly before that
   * and at most its first reading taken wholly after it (both read the same kernel or runtime counter). A reading
   * whose window overlaps the reference's bounds neither side.
   */
  private static Row counterRow(String key, Figure reference, List<Reading> readings) {
    double ref = reference.value();
    Instant at = reference.time();
    Instant until = reference.until();
    if (at == null || until == null || readings.stream().anyMatch(r -> r.time() == null || r.until() == null)) {
      Reading last = readings.get(readings.size() - 1);
      return new Row(
          key, FigureKind.CUMULATIVE, ref, last.value(), last.value(), last.value() - ref, 0, Verdict.UNBRACKETED);
    }
    Double low = null;
    Double high = null;
    Instant lowAt = null;
    Instant highAt = null;
    for (Reading r : readings) {
      Instant from = Objects.requireNonNull(r.time());
      Instant to = Objects.requireNonNull(r.until());
      if (!to.isAfter(at) && (lowAt == null || !to.isBefore(lowAt))) {
        low = r.value();
        lowAt = to;
      }
      if (!from.isBefore(until) && (highAt == null || from.isBefore(highAt))) {
        high = r.value();
        highAt = from;
      }
    }
    double difference = 0;
    if (low != null && ref < low) {
      difference = low - ref;
    } else if (high != null && ref > high) {
      difference = high - ref;
    }
    return new Row(
        key,
        FigureKind.CUMULATIVE,
        ref,
        low,
        high,
        difference,
        0,
        difference == 0 ? Verdict.OK : Verdict.DIFFERS);
  }

  /** Whether {@code key} lies inside an element {@code side} has and {@code other} lacks. */
  private static boolean insideMissing(String key, Figures side, Figures other) {
    for (String entity : side.entities().keySet()) {
      if (Figures.inside(key, entity) && !other.entities().containsKey(entity)) {
        return true;
      }
    }
    return false;
  }

  private static Map<String, String> onlyIn(Figures side, Figures other) {
    Map<String, String> only = new TreeMap<>();
    TreeSet<String> missing = new TreeSet<>();
    for (Map.Entry<String, String> e : side.entities().entrySet()) {
      String key = e.getKey();
      if (other.entities().containsKey(key)) {
        continue;
      }
      boolean insideListed = missing.stream().anyMatch(m -> Figures.inside(key, m));
      missing.add(key);
      if (!insideListed) {
        only.put(key, e.getValue());
      }
    }
    return only;
  }
}
