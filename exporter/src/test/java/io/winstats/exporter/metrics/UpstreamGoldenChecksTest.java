package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.config.ExporterProperties;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.exporter.testing.PrometheusText;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.testing.Requires;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Independent checks of the exposition goldens, which our own code writes: promtool lints every Prometheus text
 * golden; each golden serves exactly the families its collector declares (name, type, label names; the cgroup v1 and
 * v2 goldens together, checked on the render of the same fixtures); and the declared families that claim
 * compatibility are held to the families of the upstream sources ({@code src/test/resources/upstream}, each list with
 * its repository and commit), by name, type and labels, where a known difference says why. The
 * OpenMetrics and protobuf bodies of the cAdvisor series are pinned as goldens of their own ({@code
 * -Dgolden.update=true} rewrites them).
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

  /** windows_exporter's own gauge (memory.go:216-222,496-500@v0.31.8), whose name ends in _total; kept verbatim. */
  private static final String WINDOWS_POOL_NONPAGED_ALLOCS =
      "windows_memory_pool_nonpaged_allocs_total non-counter metrics should not have \"_total\" suffix";

  /** windows_exporter's own gauge (container.go:186-191@v0.31.8), whose name ends in _count; kept verbatim. */
  private static final String WINDOWS_CONTAINER_COUNT =
      "windows_container_count non-histogram and non-summary metrics should not have \"_count\" suffix";

  @Test
  @Requires(tools = "promtool")
  void promtoolAcceptsEveryPrometheusGolden() throws Exception {
    List<Path> goldens;
    try (var files = Files.list(PROMETHEUS)) {
      goldens = files.filter(f -> f.toString().endsWith(".prom")).sorted().toList();
    }
    assertThat(goldens).hasSizeGreaterThanOrEqualTo(5);
    for (Path golden : goldens) {
      assertThat(promtoolFindings(Files.readString(golden))).as(golden.toString()).isEmpty();
    }
  }

  /**
   * What {@code promtool check metrics} finds in {@code body}, but the upstream names it flags that the daemon keeps
   * verbatim. Needs promtool on the {@code PATH}.
   */
  static List<String> promtoolFindings(String body) throws IOException, InterruptedException {
    Process promtool = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
    try (OutputStream in = promtool.getOutputStream()) {
      in.write(body.getBytes(StandardCharsets.UTF_8));
    }
    String findings = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(promtool.waitFor(Duration.ofSeconds(30).toSeconds(), TimeUnit.SECONDS)).isTrue();
    return findings.lines()
        .filter(l -> !l.matches(NODE_EXPORTER_CAMEL_CASE) && !l.equals(CADVISOR_INODES_TOTAL)
            && !l.equals(WINDOWS_CONTAINER_COUNT)
            && !l.equals(WINDOWS_POOL_NONPAGED_ALLOCS))
        .toList();
  }

  /**
   * What a Prometheus golden serves: the families its collector declares, and the upstream list of families (name,
   * type, labels) its names copy; node_exporter's names are not pinned in a list here.
   */
  enum Golden {
    CADVISOR("cadvisor.prom", CadvisorSeriesCollector.families(NodePlatform.LINUX), "cadvisor-metric-families.txt"),
    RESOURCE("resource.prom", ResourceMetrics.FAMILIES, "kubelet-resource-metric-families.txt"),
    NODE_EXPORTER("node-exporter.prom", NodeExporterSeries.FAMILIES, null),
    WINDOWS_EXPORTER("windows-exporter.prom", WindowsExporterSeries.FAMILIES, "windows-exporter-metric-families.txt"),
    WINDOWS_CONTAINERS("windows-containers.prom", WindowsContainerSeries.FAMILIES, "windows-exporter-metric-families.txt");

    final String file;
    final List<MetricFamilyDescriptor> declared;
    final @Nullable String upstream;

    Golden(String file, List<MetricFamilyDescriptor> declared, @Nullable String upstream) {
      this.file = file;
      this.declared = declared;
      this.upstream = upstream;
    }
  }

  /** A family as the wire shows it: the name with a counter's {@code _total}, the type, the label names. */
  record Family(String name, String type, Set<String> labelNames) {}

  /**
   * Where a declared family knowingly differs from its upstream one, and why; a difference not listed here, or listed
   * and gone, fails {@link #theDeclaredFamiliesAreTheUpstreamFamilies}.
   */
  private static final Map<String, String> UPSTREAM_DIFFERENCES =
      Map.of(
          "container_memory_failcnt",
          "a counter in cAdvisor, but without _total, which client_java 1.x appends to a counter: a gauge keeps the name",
          "machine_cpu_cores",
          "cAdvisor labels it machine_id, system_uuid, boot_id; this daemon reads none of the three (it serves no"
              + " labels, and sum() over a node's series gives the same figure)",
          "machine_memory_bytes",
          "as machine_cpu_cores: without cAdvisor's machine_id, system_uuid, boot_id labels",
          "windows_container_cpu_usage_seconds_kernelmode",
          "a counter in windows_exporter 0.31 without _total (container.go:223-228@v0.31.8), which client_java 1.x"
              + " appends to a counter: a gauge keeps the name",
          "windows_container_cpu_usage_seconds_usermode",
          "as windows_container_cpu_usage_seconds_kernelmode (container.go:217-222@v0.31.8)");

  /** Every golden serves exactly the families its collector declares, each with the declared type and labels. */
  @ParameterizedTest
  @EnumSource(Golden.class)
  void eachGoldenServesExactlyTheDeclaredFamilies(Golden golden) throws IOException {
    String body = Files.readString(PROMETHEUS.resolve(golden.file));
    Map<String, String> types = new TreeMap<>();
    body.lines()
        .filter(l -> l.startsWith("# TYPE "))
        .map(l -> l.split(" "))
        .forEach(t -> types.put(t[2], t[3]));
    Map<String, Set<Set<String>>> labelSets = new TreeMap<>();
    for (PrometheusText sample : PrometheusText.parse(body)) {
      labelSets.computeIfAbsent(sample.name(), n -> new HashSet<>()).add(sample.labels().keySet());
    }
    Map<String, Family> declared = families(golden.declared);

    Map<String, String> declaredTypes = new TreeMap<>();
    declared.forEach((name, family) -> declaredTypes.put(name, family.type()));
    assertThat(GoldenDiff.entries(declaredTypes, types))
        .as("families of %s that differ from the declared ones (name: how)", golden.file)
        .isEmpty();
    labelSets.forEach(
        (name, sets) ->
            assertThat(sets).as("label names of " + name).containsExactly(declared.get(name).labelNames()));
  }

  /**
   * The declared families are upstream's, by name, type and labels (a container_* family of cAdvisor's with the
   * kubelet's base labels before its own), but where {@link #UPSTREAM_DIFFERENCES} says why not.
   */
  @ParameterizedTest
  @EnumSource(value = Golden.class, names = "NODE_EXPORTER", mode = EnumSource.Mode.EXCLUDE)
  void theDeclaredFamiliesAreTheUpstreamFamilies(Golden golden) throws IOException {
    Map<String, Family> upstream = upstreamFamilies(Objects.requireNonNull(golden.upstream, "upstream"));
    Map<String, Family> declared = families(golden.declared);
    if (golden == Golden.CADVISOR) {
      declared.putAll(families(CgroupSeriesCollector.FAMILIES));
    }

    assertThat(upstream).as("upstream " + golden.upstream).containsKeys(declared.keySet().toArray(String[]::new));
    Map<String, Family> differing = new TreeMap<>(declared);
    differing.entrySet().removeIf(e -> e.getValue().equals(upstream.get(e.getKey())));
    List<Family> theirs = differing.keySet().stream().map(upstream::get).toList();
    assertThat(differing.keySet())
        .as("families that differ from upstream's: %s against %s", differing.values(), theirs)
        .isEqualTo(new TreeSet<>(UPSTREAM_DIFFERENCES.keySet().stream().filter(declared::containsKey).toList()));
  }

  /**
   * The collectors whose help texts are held to windows_exporter v0.31.8's, verbatim (the fifth field of the upstream
   * list). The kept legacy families (collector {@code cs@v0.30.0}, {@code os@v0.30.0}, {@code system@v0.30.0}) keep
   * their own help, which says they are deprecated names kept for the kubernetes-mixin rules.
   */
  private static final Set<String> HELP_CHECKED =
      Set.of("cpu", "logical_disk", "memory", "net", "os", "physical_disk", "system");

  @Test
  void windowsExportersHelpTextsAreUpstreamsForTheCheckedCollectors() throws IOException {
    Map<String, String> upstreamHelp = new TreeMap<>();
    Map<String, String> declaredHelp = new TreeMap<>();
    try (InputStream in =
        UpstreamGoldenChecksTest.class.getResourceAsStream("/upstream/windows-exporter-metric-families.txt")) {
      assertThat(in).isNotNull();
      new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(l -> !l.isBlank() && !l.startsWith("#"))
          .map(l -> l.split(" ", 5))
          .filter(f -> HELP_CHECKED.contains(f[3]))
          .forEach(f -> upstreamHelp.put(f[0], f.length > 4 ? f[4] : ""));
    }
    for (MetricFamilyDescriptor d : WindowsExporterSeries.FAMILIES) {
      String name = family(d.getPrometheusName(), d.getType().name().toLowerCase(Locale.ROOT), Set.of()).name();
      if (upstreamHelp.containsKey(name)) {
        declaredHelp.put(name, d.getMetadata().getHelp());
      }
    }
    upstreamHelp.keySet().retainAll(declaredHelp.keySet());
    assertThat(declaredHelp).as("help texts of the served families of %s", HELP_CHECKED).isEqualTo(upstreamHelp);
    assertThat(declaredHelp).as("some families are checked").hasSizeGreaterThan(30);
  }

  @Test
  void theCgroupFamiliesAreServedWithTheDeclaredTypesAndLabels() {
    Map<String, Family> declared = families(CgroupSeriesCollector.FAMILIES);
    Map<String, Family> served = new TreeMap<>();
    for (CgroupVersion version : CgroupVersion.values()) {
      for (MetricSnapshot s : CgroupSeriesCollector.series(CadvisorContractTest.linuxSnapshot(version))) {
        for (DataPointSnapshot p : s.getDataPoints()) {
          Family f = family(s.getMetadata().getPrometheusName(), type(s), labelNames(p.getLabels()));
          assertThat(f).as("a point of " + f.name()).isEqualTo(declared.get(f.name()));
          served.put(f.name(), f);
        }
      }
    }
    assertThat(served).as("cgroup v1 and v2 together serve every declared family").isEqualTo(declared);
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
    return CadvisorSeriesCollector.series(ExpositionGoldenTest.HEALTHY, NodePlatform.LINUX);
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

  private static Map<String, Family> families(List<MetricFamilyDescriptor> descriptors) {
    Map<String, Family> families = new TreeMap<>();
    for (MetricFamilyDescriptor d : descriptors) {
      Family f =
          family(
              d.getPrometheusName(),
              d.getType().name().toLowerCase(Locale.ROOT),
              new TreeSet<>(d.getLabelNames()));
      assertThat(families.put(f.name(), f)).as("declared twice: " + f.name()).isNull();
    }
    return families;
  }

  /** The family as exposed: a counter's name with its {@code _total}. */
  private static Family family(String prometheusName, String type, Set<String> labelNames) {
    return new Family(type.equals("counter") ? prometheusName + "_total" : prometheusName, type, labelNames);
  }

  private static String type(MetricSnapshot s) {
    return s instanceof CounterSnapshot ? "counter" : "gauge";
  }

  private static Set<String> labelNames(Labels labels) {
    Set<String> names = new TreeSet<>();
    labels.forEach(l -> names.add(l.getName()));
    return names;
  }

  /** An upstream list: one family per line, {@code name type label,label} ({@code -} for none). */
  private static Map<String, Family> upstreamFamilies(String list) throws IOException {
    try (InputStream in = UpstreamGoldenChecksTest.class.getResourceAsStream("/upstream/" + list)) {
      assertThat(in).as(list).isNotNull();
      Map<String, Family> families = new TreeMap<>();
      new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(l -> !l.isBlank() && !l.startsWith("#"))
          .map(l -> l.split(" "))
          .forEach(
              f -> {
                Set<String> labels = new TreeSet<>(f[2].equals("-") ? List.of() : List.of(f[2].split(",")));
                if (list.startsWith("cadvisor") && f[0].startsWith("container_") && !f[0].equals("container_scrape_error")) {
                  labels.addAll(CadvisorSeriesCollector.CONTAINER_LABELS);
                }
                if (list.startsWith("cadvisor") && f[0].startsWith("machine_")) {
                  labels.addAll(List.of("machine_id", "system_uuid", "boot_id"));
                }
                families.put(f[0], new Family(f[0], f[1], labels));
              });
      return families;
    }
  }
}
