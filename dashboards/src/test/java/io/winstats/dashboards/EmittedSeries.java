package io.winstats.dashboards;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The series names winstats-exporter serves on {@code /metrics}, from two committed sources:
 *
 * <ul>
 *   <li>the exporter's golden scrapes of {@code /metrics} ({@code exporter/src/test/resources/golden/prometheus}:
 *       cAdvisor, cAdvisor with the runtime down, the cgroup series of the v1 and v2 fixtures, node_exporter names,
 *       windows_exporter names, the pods' ephemeral storage), which pin the compatibility series and the project's
 *       own, and {@code collector-series.txt}, the names each collector row serves from full snapshots (so a new
 *       collector's names need no line below); {@code resource.prom} is left out, it is {@code /metrics/resource},
 *       which no scrape config of ours reads;
 *   <li>{@code emitted/live-metric-names.txt}: every name in live scrapes of the real jar (self, JVM and process
 *       series, and node series the golden fixtures lack, such as {@code node_disk_*}). {@link
 *       DashboardsOnPrometheusIT} scrapes the real daemons and fails if a listed name is no longer served, or if a
 *       name is served that is neither listed nor golden (but for the cgroup names the kernel decides); it writes the
 *       live list to {@code target/live-metric-names.txt} to copy over this file. A name a golden holds needs no
 *       line here (a new cgroup series is in the cgroup goldens).
 * </ul>
 */
final class EmittedSeries {
  static final List<String> METRICS_GOLDEN_FILES =
      List.of(
          "cadvisor.prom",
          "cadvisor-runtime-down.prom",
          "cgroup-v1.prom",
          "cgroup-v2.prom",
          "node-exporter.prom",
          "windows-exporter.prom",
          "pod-ephemeral-storage.prom",
          // names only, one a line, by collector row (the exporter's CollectorSeriesTest)
          "collector-series.txt");
  static final Path GOLDEN = Path.of("..", "exporter", "src", "test", "resources", "golden", "prometheus");
  static final String LIVE_LIST = "/emitted/live-metric-names.txt";

  private EmittedSeries() {}

  /** Names in the golden scrapes of {@code /metrics} and in the committed live list. */
  static Set<String> all() {
    Set<String> names = new TreeSet<>(golden());
    names.addAll(liveList());
    return names;
  }

  static Set<String> golden() {
    Set<String> names = new TreeSet<>();
    for (String file : METRICS_GOLDEN_FILES) {
      try {
        names.addAll(namesInScrape(Files.readString(GOLDEN.resolve(file))));
      } catch (IOException e) {
        throw new UncheckedIOException("golden scrape " + GOLDEN.resolve(file), e);
      }
    }
    return names;
  }

  static Set<String> liveList() {
    try (InputStream in = EmittedSeries.class.getResourceAsStream(LIVE_LIST)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + LIVE_LIST);
      }
      Set<String> names = new TreeSet<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String name = line.strip();
        if (!name.isEmpty() && !name.startsWith("#")) {
          names.add(name);
        }
      }
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Series names of the sample lines of a Prometheus text scrape. */
  static Set<String> namesInScrape(String text) {
    Set<String> names = new TreeSet<>();
    for (String line : text.split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        names.add(line.split("[{ ]", 2)[0]);
      }
    }
    return names;
  }
}
