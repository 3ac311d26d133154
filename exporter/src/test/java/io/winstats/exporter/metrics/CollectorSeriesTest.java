package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.MetricType;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.exporter.testing.PrometheusText;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.testing.GoldenText;
import io.winstats.testing.Requires;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each {@link Collector} row's series, made from the full snapshots of every kind of node it runs on ({@link
 * FullSnapshots}): together they serve a point of every family the series declares, each body is valid Prometheus
 * text whose families are the declared ones (name, type, label names), and each figure served is one a {@code
 * ServedFiguresTest} constant walks. Derived from the rows, so a new row is tested here without an edit; a family
 * declared but never filled fails, naming the row and the family. The names each row serves are pinned by a golden
 * ({@code golden/prometheus/collector-series.txt}), where dashboards' checks find a new collector's names.
 */
class CollectorSeriesTest {
  /** A row's series on a node of one kind: what it declares and the body of each full snapshot. */
  private record Rendered(List<MetricFamilyDescriptor> declared, List<String> bodies) {}

  /**
   * A family may lack points on one kind of node (NTFS has no inode count) but not on every kind the row runs on: there
   * it is declared and never filled.
   */
  @ParameterizedTest
  @EnumSource(Collector.class)
  void everyDeclaredFamilyHasAPointFromAFullSnapshot(Collector row) {
    Set<String> empty = new TreeSet<>();
    Set<String> filled = new TreeSet<>();
    for (NodePlatform platform : NodePlatform.values()) {
      if (row.runsOn(platform)) {
        Rendered rendered = render(row, platform);
        empty.addAll(wireNames(rendered.declared()).keySet());
        rendered.bodies().forEach(body -> PrometheusText.parse(body).forEach(sample -> filled.add(sample.name())));
      }
    }
    assertThat(empty).as("%s's series declare a family on some kind of node", row).isNotEmpty();
    empty.removeAll(filled);
    assertThat(empty)
        .as("families %s declares with no point from the full snapshots of the nodes it runs on (FullSnapshots)", row)
        .isEmpty();
  }

  /**
   * The series names each row serves from the full snapshots, by row and kind of node, in row order: a golden
   * ({@code -Dgolden.update=true} rewrites it) that dashboards' {@code EmittedSeries} reads as served, so a new
   * collector's names reach the dashboards' and rules' checks without a hand-kept list.
   */
  @Test
  void theSeriesNamesEachRowServesArePinned() throws IOException {
    StringBuilder golden =
        new StringBuilder("# Series names each collector row serves from the full snapshots (CollectorSeriesTest).\n");
    for (Collector row : Collector.values()) {
      for (NodePlatform platform : NodePlatform.values()) {
        if (!row.runsOn(platform)) {
          continue;
        }
        Set<String> names = new TreeSet<>();
        render(row, platform).bodies().forEach(b -> PrometheusText.parse(b).forEach(s -> names.add(s.name())));
        if (!names.isEmpty()) {
          golden.append("# ").append(row.flagName()).append(" on ").append(platform).append('\n');
          names.forEach(name -> golden.append(name).append('\n'));
        }
      }
    }
    GoldenText.assertMatches(Path.of("src/test/resources/golden/prometheus/collector-series.txt"), golden.toString());
  }

  @ParameterizedTest
  @EnumSource(Collector.class)
  void eachBodyServesTheDeclaredFamiliesOnly(Collector row) {
    for (NodePlatform platform : NodePlatform.values()) {
      if (!row.runsOn(platform)) {
        continue;
      }
      Rendered rendered = render(row, platform);
      Map<String, MetricFamilyDescriptor> declared = wireNames(rendered.declared());
      for (String body : rendered.bodies()) {
        Map<String, String> types = new TreeMap<>();
        body.lines()
            .filter(l -> l.startsWith("# TYPE "))
            .map(l -> l.split(" "))
            .forEach(t -> types.put(t[2], t[3]));
        Map<String, String> declaredTypes = new TreeMap<>();
        declared.forEach((name, d) -> declaredTypes.put(name, d.getType().name().toLowerCase(Locale.ROOT)));
        declaredTypes.keySet().retainAll(types.keySet());
        assertThat(types).as("%s on a %s node: the families served, by type", row, platform).isEqualTo(declaredTypes);
        for (PrometheusText sample : PrometheusText.parse(body)) {
          assertThat(declared).as("%s on a %s node: a family of its points", row, platform).containsKey(sample.name());
          assertThat(sample.labels().keySet())
              .as("%s on a %s node: the label names of %s", row, platform, sample.name())
              .containsExactlyInAnyOrderElementsOf(declared.get(sample.name()).getLabelNames());
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Collector.class)
  @Requires(tools = "promtool")
  void promtoolAcceptsEachBody(Collector row) throws Exception {
    for (NodePlatform platform : NodePlatform.values()) {
      if (row.runsOn(platform)) {
        for (String body : render(row, platform).bodies()) {
          assertThat(UpstreamGoldenChecksTest.promtoolFindings(body))
              .as("promtool on %s's series on a %s node", row, platform)
              .isEmpty();
        }
      }
    }
  }

  /**
   * Each figure of a full snapshot that a row's series serve (changing it changes the body) is walked by a {@code
   * ServedFiguresTest} constant: from the constant's model down, each record on the figure's path is one that constant
   * walks into. A row serving a part of the model no constant walks into fails here, naming the figures: it needs a
   * constant there, which holds it to every figure of that part.
   */
  @ParameterizedTest
  @EnumSource(Collector.class)
  void everyFigureARowServesIsWalkedByAServedFiguresConstant(Collector row) {
    Map<ServedFiguresTest.Collector, Set<String>> walked = ServedFiguresTest.walkedRecords();
    for (NodePlatform platform : NodePlatform.values()) {
      if (!row.runsOn(platform)) {
        continue;
      }
      Set<String> unwalked = new TreeSet<>();
      for (Snapshot full : FullSnapshots.of(platform)) {
        String before = body(row, platform, full);
        for (Map.Entry<List<String>, UnaryOperator<Object>> figure : ServedFiguresTest.figurePaths(full).entrySet()) {
          List<String> path = figure.getKey();
          if (before != null
              && !walkedByAConstant(path, walked)
              && !before.equals(body(row, platform, (Snapshot) figure.getValue().apply(full)))) {
            unwalked.add(String.join(" > ", path));
          }
        }
      }
      assertThat(unwalked)
          .as("figures %s serves on a %s node that no ServedFiguresTest constant walks into: give it one there", row,
              platform)
          .isEmpty();
    }
  }

  /**
   * Whether a constant's model is on {@code path} and the constant walks into every record from there down, or the
   * constant's model is computed from the figure's record.
   */
  private static boolean walkedByAConstant(List<String> path, Map<ServedFiguresTest.Collector, Set<String>> walked) {
    List<String> records = path.stream().map(name -> name.substring(0, name.indexOf('.'))).toList();
    for (Map.Entry<ServedFiguresTest.Collector, Set<String>> constant : walked.entrySet()) {
      int from = records.indexOf(constant.getKey().model.getClass().getSimpleName());
      if (from >= 0 && constant.getValue().containsAll(records.subList(from, records.size()))
          || constant.getKey().derivedFrom.contains(records.get(records.size() - 1))) {
        return true;
      }
    }
    return false;
  }

  /** The body of {@code row}'s series made from {@code snapshot}; null where other rows serve them. */
  private static @Nullable String body(Collector row, NodePlatform platform, Snapshot snapshot) {
    MultiCollector series = row.series(() -> snapshot, platform);
    return series == null ? null : text(series);
  }

  /** {@code row}'s series made from each full snapshot of a node of this kind; none where other rows serve them. */
  private static Rendered render(Collector row, NodePlatform platform) {
    List<MetricFamilyDescriptor> declared = List.of();
    List<String> bodies = new ArrayList<>();
    for (Snapshot full : FullSnapshots.of(platform)) {
      MultiCollector series = row.series(() -> full, platform);
      if (series != null) {
        declared = series.getMetricFamilyDescriptors();
        bodies.add(text(series));
      }
    }
    return new Rendered(declared, bodies);
  }

  private static String text(MultiCollector series) {
    try {
      return ExpositionGoldenTest.text(series.collect());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The declared families by the name the wire shows: a counter's with its {@code _total}. */
  private static Map<String, MetricFamilyDescriptor> wireNames(List<MetricFamilyDescriptor> declared) {
    Map<String, MetricFamilyDescriptor> byName = new TreeMap<>();
    for (MetricFamilyDescriptor d : declared) {
      String name = d.getPrometheusName() + (d.getType() == MetricType.COUNTER ? "_total" : "");
      assertThat(byName.put(name, d)).as("declared twice: " + name).isNull();
    }
    return byName;
  }
}
