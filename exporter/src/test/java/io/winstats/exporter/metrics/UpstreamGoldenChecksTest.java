package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Independent checks of the exposition goldens, which our own code writes: promtool lints every Prometheus text
 * golden, and the series names that claim compatibility are held to name lists taken from the upstream sources
 * ({@code src/test/resources/upstream}, each with its repository and commit). The OpenMetrics and protobuf bodies of
 * the cAdvisor series are pinned as goldens of their own ({@code -Dgolden.update=true} rewrites them).
 */
class UpstreamGoldenChecksTest {
  private static final Path PROMETHEUS = Path.of("src", "test", "resources", "golden", "prometheus");
  private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
  /** node_exporter's own mixed-case memory names, which the daemon copies verbatim (see NodeExporterSeries). */
  private static final String NODE_EXPORTER_CAMEL_CASE =
      "node_memory_[A-Za-z_]+_bytes metric names should be written in 'snake_case' not 'camelCase'";

  /** cAdvisor's own gauge (google/cadvisor metrics/prometheus.go), whose name ends in _total; kept verbatim. */
  private static final String CADVISOR_INODES_TOTAL =
      "container_fs_inodes_total non-counter metrics should not have \"_total\" suffix";

  @Test
  @Requires(tools = "promtool")
  void promtoolAcceptsEveryPrometheusGolden() throws Exception {
    List<Path> goldens;
    try (var files = Files.list(PROMETHEUS)) {
      goldens = files.filter(f -> f.toString().endsWith(".prom")).sorted().toList();
    }
    assertThat(goldens).hasSizeGreaterThanOrEqualTo(5);
    for (Path golden : goldens) {
      Process promtool =
          new ProcessBuilder("promtool", "check", "metrics").redirectInput(golden.toFile()).redirectErrorStream(true).start();
      String findings = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(promtool.waitFor(Duration.ofSeconds(30).toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(
              findings.lines()
                  .filter(l -> !l.matches(NODE_EXPORTER_CAMEL_CASE) && !l.equals(CADVISOR_INODES_TOTAL))
                  .toList())
          .as(golden + ":\n" + findings)
          .isEmpty();
    }
  }

  @Test
  void cadvisorGoldensUseOnlyCadvisorNames() throws IOException {
    Set<String> upstream = names("cadvisor-metric-names.txt");
    assertThat(sampleNames("cadvisor.prom")).isNotEmpty().isSubsetOf(upstream);
    assertThat(sampleNames("cadvisor-runtime-down.prom")).isNotEmpty().isSubsetOf(upstream);
  }

  @Test
  void resourceGoldenUsesOnlyTheKubeletsResourceMetricNames() throws IOException {
    assertThat(sampleNames("resource.prom")).isNotEmpty().isSubsetOf(names("kubelet-resource-metric-names.txt"));
  }

  @Test
  void windowsGoldenUsesOnlyWindowsExporterNames() throws IOException {
    assertThat(sampleNames("windows-exporter.prom")).isNotEmpty().isSubsetOf(names("windows-exporter-metric-names.txt"));
  }

  @Test
  void cadvisorSeriesAsOpenMetrics() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    formats().getOpenMetricsTextFormatWriter().write(out, cadvisor());
    assertGolden(GOLDEN.resolve("openmetrics").resolve("cadvisor.om"), out.toByteArray());
  }

  @Test
  void cadvisorSeriesAsProtobuf() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    formats().getPrometheusProtobufWriter().write(out, cadvisor());
    assertGolden(GOLDEN.resolve("protobuf").resolve("cadvisor.pb"), out.toByteArray());
    // The same body as protobuf text, so that a change shows in review.
    String debug = formats().getPrometheusProtobufWriter().toDebugString(cadvisor(), EscapingScheme.DEFAULT);
    assertGolden(GOLDEN.resolve("protobuf").resolve("cadvisor.pb.txt"), debug.getBytes(StandardCharsets.UTF_8));
  }

  private static MetricSnapshots cadvisor() {
    return CadvisorSeriesCollector.series(ExpositionGoldenTest.HEALTHY, false);
  }

  /** As the daemon's renderer initialises them. */
  private static ExpositionFormats formats() {
    return ExpositionFormats.init(ExporterProperties.builder().prometheusTimestampsInMs(true).build());
  }

  private static void assertGolden(Path golden, byte[] actual) throws IOException {
    if (Boolean.getBoolean("golden.update")) {
      Files.createDirectories(golden.getParent());
      Files.write(golden, actual);
    }
    assertThat(actual).as(golden.toString()).isEqualTo(Files.readAllBytes(golden));
  }

  /** The sample names (as scraped: counters with {@code _total}) of a Prometheus text golden. */
  private static Set<String> sampleNames(String golden) throws IOException {
    return Files.readAllLines(PROMETHEUS.resolve(golden)).stream()
        .filter(l -> !l.isBlank() && !l.startsWith("#"))
        .map(l -> l.split("[{ ]", 2)[0])
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<String> names(String list) throws IOException {
    try (InputStream in = UpstreamGoldenChecksTest.class.getResourceAsStream("/upstream/" + list)) {
      assertThat(in).as(list).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(l -> !l.isBlank() && !l.startsWith("#"))
          .collect(Collectors.toCollection(TreeSet::new));
    }
  }
}
