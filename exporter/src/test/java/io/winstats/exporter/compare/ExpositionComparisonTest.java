package io.winstats.exporter.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.exporter.compare.DocumentSource.Body;
import io.winstats.exporter.compare.ExpositionFigures.Families;
import io.winstats.exporter.compare.FigureComparison.Result;
import io.winstats.exporter.compare.FigureComparison.Row;
import io.winstats.exporter.compare.FigureComparison.Verdict;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Series-by-series comparison of expositions. The daemon's side is its own exposition, the golden files
 * ExpositionGoldenTest holds (golden/prometheus/windows-exporter.prom and windows-containers.prom). The
 * windows_exporter side is the same series as windows_exporter 0.31.8 types them: cpu_usage_seconds_kernelmode and
 * _usermode are counters there (internal/collector/container/container.go:217-228@v0.31.8, prometheus.CounterValue),
 * with a family the daemon does not serve (windows_textfile_mtime_seconds of the textfile collector) and its own
 * windows_exporter_build_info.
 */
public class ExpositionComparisonTest {
  static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
  private static final String IDLE = "windows_cpu_time_total{core=\"0,0\",mode=\"idle\"}";

  public static String daemonExposition() throws Exception {
    return resource("/golden/prometheus/windows-exporter.prom")
        + resource("/golden/prometheus/windows-containers.prom");
  }

  /** The daemon's series as windows_exporter 0.31.8 serves them, with two families of its own. */
  public static String windowsExporterExposition() throws Exception {
    return daemonExposition()
            .replace(
                "# TYPE windows_container_cpu_usage_seconds_kernelmode gauge",
                "# TYPE windows_container_cpu_usage_seconds_kernelmode counter")
            .replace(
                "# TYPE windows_container_cpu_usage_seconds_usermode gauge",
                "# TYPE windows_container_cpu_usage_seconds_usermode counter")
        + "# TYPE windows_textfile_mtime_seconds gauge\n"
        + "windows_textfile_mtime_seconds{file=\"C:\\\\textfile\\\\node.prom\"} 1.7951562E9\n"
        + "# TYPE windows_exporter_build_info gauge\n"
        + "windows_exporter_build_info{version=\"0.31.8\"} 1\n";
  }

  /** How many series the text has: its lines that are neither comments nor blank. */
  public static int sampleLines(String text) {
    return (int) text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).count();
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = ExpositionComparisonTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** {@code text} read during the second starting {@code seconds} after T0. */
  private static Figures read(String text, int seconds, boolean daemon) throws Exception {
    Instant sent = T0.plusSeconds(seconds);
    return ExpositionFigures.of(
        ExpositionText.parse(text, "doc"),
        Families.WINDOWS_EXPORTER,
        new Body(text, sent, sent.plusMillis(100)),
        daemon);
  }

  private static Result compare(String daemon, String reference) throws Exception {
    return FigureComparison.compare(
        List.of(read(daemon, 0, true), read(daemon, 20, true)), read(reference, 10, false));
  }

  private static Map<String, Verdict> notOk(Result result) {
    return result.rows().stream()
        .filter(r -> r.verdict() != Verdict.OK)
        .collect(Collectors.toMap(Row::key, Row::verdict));
  }

  private static Row row(Result result, String key) {
    return result.rows().stream().filter(r -> r.key().equals(key)).findFirst()
        .orElseThrow(() -> new AssertionError("no row " + key));
  }

  @Test
  void theDaemonsOwnExpositionAgreesInEverySeries() throws Exception {
    String daemon = daemonExposition();

    Result result = compare(daemon, daemon);

    assertThat(result.rows()).hasSize(read(daemon, 0, true).figures().size()).hasSize(sampleLines(daemon));
    assertThat(notOk(result)).isEmpty();
    assertThat(result.onlyReference()).isEmpty();
    assertThat(result.onlyDaemon()).isEmpty();
    assertThat(result.figuresOnlyReference()).isEmpty();
    assertThat(result.figuresOnlyDaemon()).isEmpty();
  }

  /** Each family's kind, as --help and docs/COMPARE.md state them; the reference's # TYPE decides a counter. */
  @Test
  void eachFamilyGetsItsKind() throws Exception {
    Result result = compare(daemonExposition(), windowsExporterExposition());

    Map<String, FigureKind> kinds =
        result.rows().stream().collect(Collectors.toMap(r -> r.key().replaceAll("\\{.*", ""), Row::kind, (a, b) -> a));
    assertThat(kinds)
        .containsEntry("windows_cs_physical_memory_bytes", FigureKind.CAPACITY)
        .containsEntry("windows_logical_disk_size_bytes", FigureKind.CAPACITY)
        .containsEntry("windows_container_available", FigureKind.CAPACITY)
        .containsEntry("windows_system_boot_time_timestamp_seconds", FigureKind.INSTANT)
        .containsEntry("windows_cpu_time_total", FigureKind.CUMULATIVE)
        .containsEntry("windows_container_cpu_usage_seconds_kernelmode", FigureKind.CUMULATIVE)
        .containsEntry("windows_memory_available_bytes", FigureKind.GAUGE)
        .containsEntry("windows_system_threads", FigureKind.GAUGE);
    assertThat(row(result, "windows_memory_available_bytes").tolerance()).isEqualTo(900_000_000);
    assertThat(row(result, "windows_logical_disk_requests_queued{volume=\"C:\"}").tolerance()).isEqualTo(100);
    assertThat(row(result, "windows_system_boot_time_timestamp_seconds").tolerance()).isEqualTo(1);
    assertThat(notOk(result)).isEmpty();
  }

  @Test
  void exactlyThePerturbedSeriesDiffer() throws Exception {
    String daemon = daemonExposition();
    String reference =
        windowsExporterExposition()
            // A gauge 2 GB off 9 GB: beyond 10%.
            .replace("windows_memory_available_bytes 9.0E9", "windows_memory_available_bytes 1.1E10")
            // A capacity one page off.
            .replace("windows_cs_physical_memory_bytes 1.7179869184E10", "windows_cs_physical_memory_bytes 17179873280")
            // A counter above both of the daemon's readings.
            .replace(IDLE + " 80.0", IDLE + " 85.0")
            // A moment 3 s off.
            .replace("windows_system_boot_time_timestamp 1.7951562E9", "windows_system_boot_time_timestamp 1795156203")
            // A gauge inside its floor: 50 threads off 2100 (10% is 210).
            .replace("windows_system_threads 2100.0", "windows_system_threads 2150");

    Result result = compare(daemon, reference);

    assertThat(notOk(result))
        .containsOnlyKeys(
            "windows_memory_available_bytes",
            "windows_cs_physical_memory_bytes",
            IDLE,
            "windows_system_boot_time_timestamp")
        .containsValue(Verdict.DIFFERS);
    assertThat(row(result, "windows_memory_available_bytes").difference()).isEqualTo(-2e9);
    assertThat(row(result, "windows_cs_physical_memory_bytes").difference()).isEqualTo(-4096);
    assertThat(row(result, IDLE).difference()).isEqualTo(-5);
    assertThat(row(result, "windows_system_boot_time_timestamp").difference()).isEqualTo(-3);
  }

  /** Families and label sets one side lacks are listed, once each; windows_exporter_* is not compared at all. */
  @Test
  void familiesAndLabelSetsOneSideLacksAreListed() throws Exception {
    String daemon =
        daemonExposition().lines()
            .filter(l -> !l.contains("windows_logical_disk_free_bytes"))
            .collect(Collectors.joining("\n", "", "\n"));
    String reference =
        windowsExporterExposition().lines()
            .filter(l -> !l.startsWith("windows_cpu_time_total{core=\"0,1\",mode=\"dpc\"}"))
            .collect(Collectors.joining("\n", "", "\n"));

    Result result = compare(daemon, reference);

    assertThat(notOk(result)).isEmpty();
    assertThat(result.onlyReference())
        .containsOnlyKeys(
            "windows_logical_disk_free_bytes", "windows_textfile_mtime_seconds")
        .containsEntry("windows_textfile_mtime_seconds", "family windows_textfile_mtime_seconds");
    assertThat(result.onlyDaemon()).isEmpty();
    assertThat(result.figuresOnlyDaemon()).containsExactly("windows_cpu_time_total{core=\"0,1\",mode=\"dpc\"}");
    assertThat(result.figuresOnlyReference()).isEmpty();
  }

  /**
   * The daemon's series are as old as their source's newest sample: a counter the daemon sampled before the reference
   * was read bounds it from below even when the daemon's request came after.
   */
  @Test
  void theDaemonsSeriesAreTimedByTheirSourcesSampleAge() throws Exception {
    String ages =
        "# TYPE winstats_exporter_sample_age_seconds gauge\n"
            + "winstats_exporter_sample_age_seconds{source=\"node_pdh\"} 15.0\n"
            + "winstats_exporter_sample_age_seconds{source=\"cri\"} 1.0\n";
    Figures daemon = read(daemonExposition() + ages, 20, true);

    assertThat(daemon.figures().get(IDLE).time()).isEqualTo(T0.plusSeconds(5));
    assertThat(daemon.figures().get(IDLE).until()).isEqualTo(T0.plusSeconds(5).plusMillis(100));
    String container =
        "windows_container_cpu_usage_seconds_total{container=\"burn\",container_id=\"containerd://c-burn\","
        + "namespace=\"default\",pod=\"burner\"}";
    assertThat(daemon.figures().get(container).time()).isEqualTo(T0.plusSeconds(19));

    // Sampled at 5 s, before the reference's read at 10 s: its 80 is a lower bound, and 79 is below it.
    Result result =
        FigureComparison.compare(
            List.of(daemon), read(windowsExporterExposition().replace(IDLE + " 80.0", IDLE + " 79.0"), 10, false));
    Row idle = row(result, IDLE);
    assertThat(idle.verdict()).isEqualTo(Verdict.DIFFERS);
    assertThat(idle.daemonLow()).isEqualTo(80);
    assertThat(idle.daemonHigh()).isNull();
  }

  /** A saved file has no time: its counters are unbracketed, not differences; its gauges still compare. */
  @Test
  void aFilesCountersAreUnbracketed() throws Exception {
    String text = windowsExporterExposition().replace(IDLE + " 80.0", IDLE + " 1.0");
    Figures file = ExpositionFigures.of(ExpositionText.parse(text, "f"), Families.WINDOWS_EXPORTER,
        new Body(text, null, null), false);

    Result result = FigureComparison.compare(List.of(read(daemonExposition(), 0, true)), file);

    assertThat(row(result, IDLE).verdict()).isEqualTo(Verdict.UNBRACKETED);
    assertThat(notOk(result).values()).containsOnly(Verdict.UNBRACKETED);
    assertThat(row(result, "windows_memory_available_bytes").verdict()).isEqualTo(Verdict.OK);
  }
}
