package io.winstats.exporter.compare;

import io.winstats.exporter.compare.DocumentSource.Body;
import io.winstats.exporter.compare.ExpositionText.Document;
import io.winstats.exporter.compare.ExpositionText.Sample;
import io.winstats.exporter.compare.Figures.Figure;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The series of one Prometheus text exposition as {@link Figures}: each series keyed by its name and label set
 * ({@link Sample#key()}), each metric name an element, so that two documents match series by series and a label set
 * or a family one side lacks is listed.
 *
 * <p>How each family compares ({@link #kind}): capacities and identity series exact ({@link #EXACT}, every {@code
 * _info}); moments ({@code _timestamp}, {@code _timestamp_seconds}, {@code _start_time_seconds}) within a second;
 * counters (the family's {@code # TYPE} says counter, or an untyped {@code _total}) bracketed; every other family a
 * gauge within 10% or a floor by unit: 16 MiB for {@code _bytes}, 100 for anything else (counts, queue lengths).
 */
final class ExpositionFigures {
  /** Which families of an exposition a comparison takes. */
  enum Families {
    /**
     * windows_exporter's {@code /metrics} against the daemon's: the {@code windows_*} node families and the {@code
     * windows_container_*} series, not windows_exporter's own {@code windows_exporter_*}.
     */
    WINDOWS_EXPORTER,
    /** The kubelet's {@code /metrics/resource} against the daemon's: every family. */
    RESOURCE;

    boolean takes(String name) {
      return switch (this) {
        case WINDOWS_EXPORTER -> name.startsWith("windows_") && !name.startsWith("windows_exporter_");
        case RESOURCE -> true;
      };
    }
  }

  /** Series compared exactly: what the node declares (memory, processors, disk sizes) and identity series. */
  static final Set<String> EXACT =
      Set.of(
          "windows_cs_physical_memory_bytes",
          "windows_cs_logical_processors",
          "windows_cs_hostname",
          "windows_cpu_logical_processor",
          "windows_memory_physical_total_bytes",
          "windows_os_visible_memory_bytes",
          "windows_logical_disk_size_bytes",
          "windows_container_available",
          "scrape_error",
          "resource_scrape_error");

  /** The daemon's own series that says how old each source's newest sample is, by its {@code source} label. */
  static final String SAMPLE_AGE = "winstats_exporter_sample_age_seconds";

  private ExpositionFigures() {}

  /**
   * The figures of {@code doc}, read as {@code body} says. A sample's own timestamp is its time. On the daemon's side
   * ({@code daemon}) a series without one is as old as its source's newest sample ({@link #SAMPLE_AGE}: the runtime's
   * for {@code windows_container_*}, the node source's for the other {@code windows_*}); anything else was read during
   * the request (a file: no time).
   */
  static Figures of(Document doc, Families families, Body body, boolean daemon) {
    Map<String, Double> ages = daemon ? ages(doc) : Map.of();
    Map<String, Figure> figures = new TreeMap<>();
    Map<String, String> entities = new LinkedHashMap<>();
    for (Sample s : doc.samples()) {
      if (!families.takes(s.name())) {
        continue;
      }
      entities.putIfAbsent(s.name(), "family " + s.name());
      FigureKind kind = kind(s.name(), doc.typeOf(s.name()));
      Instant time = body.sent();
      Instant until = body.received();
      Long own = s.timestampMillis();
      Double age = ages.get(ageSource(s.name()));
      if (own != null) {
        time = Instant.ofEpochMilli(own);
        until = time;
      } else if (age != null && time != null && until != null) {
        Duration old = Duration.ofNanos((long) (age * 1e9));
        time = time.minus(old);
        until = until.minus(old);
      }
      figures.put(s.key(), new Figure(s.name(), s.value(), time, until, kind, floor(s.name(), kind)));
    }
    return new Figures(Collections.unmodifiableMap(figures), Collections.unmodifiableMap(entities));
  }

  /** How a family named {@code name} of {@code # TYPE type} compares (the reference's type decides a row). */
  static FigureKind kind(String name, String type) {
    if (EXACT.contains(name) || name.endsWith("_info")) {
      return FigureKind.CAPACITY;
    }
    if (name.endsWith("_timestamp") || name.endsWith("_timestamp_seconds") || name.endsWith("_start_time_seconds")) {
      return FigureKind.INSTANT;
    }
    boolean counter =
        switch (type) {
          case "counter", "histogram", "gaugehistogram" -> true;
          case "summary" -> name.endsWith("_sum") || name.endsWith("_count");
          case "untyped", "unknown" -> name.endsWith("_total");
          default -> false;
        };
    return counter ? FigureKind.CUMULATIVE : FigureKind.GAUGE;
  }

  private static double floor(String name, FigureKind kind) {
    return switch (kind) {
      case GAUGE ->
          name.endsWith("_bytes") || name.contains("_bytes_") ? FigureKind.FLOOR_BYTES : FigureKind.FLOOR_COUNT;
      case INSTANT -> FigureKind.FLOOR_INSTANT;
      case CAPACITY, CUMULATIVE -> 0;
    };
  }

  /** The {@code source} label of the sample age that times a series of {@code name}: a prefix of the source's. */
  private static String ageSource(String name) {
    return name.startsWith("windows_container_") ? "cri" : name.startsWith("windows_") ? "node_" : "";
  }

  /** Each source's sample age in seconds, by {@code cri} and, for whichever node source runs, {@code node_}. */
  private static Map<String, Double> ages(Document doc) {
    Map<String, Double> ages = new HashMap<>();
    for (Sample s : doc.samples()) {
      String source = s.labels().get("source");
      if (s.name().equals(SAMPLE_AGE) && source != null && Double.isFinite(s.value())) {
        ages.put(source.startsWith("node_") ? "node_" : source, s.value());
      }
    }
    return ages;
  }
}
