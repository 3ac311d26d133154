package io.winstats.exporter.metrics;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Taking over from windows_exporter without a silent loss (issue 41): every family of windows_exporter v0.31.8's
 * default collectors and of container ({@code upstream/windows-exporter-metric-families.txt}, how it was made in its
 * header) is either served ({@link WindowsExporterSeries} or {@link WindowsContainerSeries} declares it) or listed in
 * {@link #UNSERVED} with the reason, never both; and the list names the collectors outside that set, whose families the
 * daemon does not serve at all. A family added upstream, or one this daemon stops serving, fails here until it is
 * served or given a reason.
 */
class WindowsExporterCoverageTest {
  private static final String LIST = "/upstream/windows-exporter-metric-families.txt";

  /** windows_exporter v0.31.8's default collectors ({@code pkg/collector/types.go:29@v0.31.8}) and container. */
  private static final Set<String> COLLECTORS =
      Set.of("cpu", "memory", "logical_disk", "physical_disk", "net", "os", "service", "system", "container");

  /** Families of those collectors the daemon does not serve, each with why. */
  static final Map<String, String> UNSERVED =
      Map.ofEntries(
          entry(
              "windows_logical_disk_bitlocker_status",
              "off by default upstream (sub-collector bitlocker_status, logical_disk.go:57-63@v0.31.8); read from the"
                  + " shell property System.Volume.BitLockerProtection over COM (logical_disk.go:752-859): not read"),
          entry(
              "windows_logical_disk_readonly",
              "declared but emitted by no call in 0.31.8 (logical_disk.go): served as upstream serves it, never"),
          entry(
              "windows_net_route_info",
              "declared but emitted by no call in 0.31.8 (net.go): served as upstream serves it, never"));

  /**
   * docs/DEPLOYMENT.md tells the operator, before the switch, exactly which families the daemon does not serve: its
   * section names the families of {@link #UNSERVED} and no other (the four kept removed ones aside).
   */
  @Test
  void theDeploymentGuideNamesExactlyTheUnservedFamilies() throws IOException {
    String guide = Files.readString(Path.of("..", "docs", "DEPLOYMENT.md"));
    int start = guide.indexOf("#### What switching off windows_exporter keeps and loses");
    int end = guide.indexOf("**Served differently by default**", start);
    assertThat(start).as("the section").isNotNegative();
    assertThat(end).as("its end").isGreaterThan(start);
    String section = guide.substring(start, end);
    int notServed = section.indexOf("**Not served yet**");
    assertThat(notServed).isNotNegative();
    Set<String> named = new TreeSet<>();
    Matcher m = Pattern.compile("`(windows_\\w+)`").matcher(section.substring(notServed));
    while (m.find()) {
      named.add(m.group(1));
    }
    assertThat(named).as("families DEPLOYMENT.md lists as not served").isEqualTo(new TreeSet<>(UNSERVED.keySet()));
  }

  /** A line of the list: the family, its type, labels, collector (with {@code @v0.30.0} for a kept removed one). */
  record UpstreamFamily(String name, String type, String labels, String collector, String help) {}

  @Test
  void everyFamilyOfTheDefaultCollectorsAndContainerIsServedOrUnservedWithAReasonNeverBoth() throws IOException {
    Set<String> served = servedFamilies();
    Map<String, String> neither = new TreeMap<>();
    Set<String> both = new TreeSet<>();
    for (UpstreamFamily f : upstream()) {
      boolean isServed = served.contains(f.name());
      String reason = UNSERVED.get(f.name());
      if (!isServed && (reason == null || reason.isBlank())) {
        neither.put(f.name(), f.collector());
      }
      if (isServed && reason != null) {
        both.add(f.name());
      }
    }
    assertThat(neither).as("families neither served nor listed in UNSERVED with a reason (name: collector)").isEmpty();
    assertThat(both).as("families served and yet listed in UNSERVED").isEmpty();
    Set<String> listed = new TreeSet<>();
    upstream().forEach(f -> listed.add(f.name()));
    assertThat(new TreeSet<>(UNSERVED.keySet())).as("UNSERVED names that are no upstream family").isSubsetOf(listed);
  }

  @Test
  void theListCoversExactlyTheDefaultCollectorsAndContainerAndNamesTheOthers() throws IOException {
    Set<String> collectors = new TreeSet<>();
    upstream().stream().map(f -> f.collector()).filter(c -> !c.contains("@")).forEach(collectors::add);
    assertThat(collectors).isEqualTo(new TreeSet<>(COLLECTORS));

    List<String> outside = outsideCollectors();
    assertThat(outside).as("collectors outside the default set, named in the list's '#! outside:' line")
        .contains("textfile", "process", "iis")
        .doesNotContainAnyElementsOf(COLLECTORS);
    assertThat(upstream()).as("no family of a collector outside the set")
        .noneMatch(f -> outside.contains(f.collector().split("@")[0]));
  }

  /** Every family the daemon declares for windows_exporter's names, as exposed (a counter with {@code _total}). */
  static Set<String> servedFamilies() {
    Set<String> served = new TreeSet<>();
    Stream.concat(WindowsExporterSeries.FAMILIES.stream(), WindowsContainerSeries.FAMILIES.stream())
        .map(WindowsExporterCoverageTest::exposedName)
        .forEach(served::add);
    return served;
  }

  private static String exposedName(MetricFamilyDescriptor d) {
    return d.getType().name().equals("COUNTER") ? d.getPrometheusName() + "_total" : d.getPrometheusName();
  }

  static List<UpstreamFamily> upstream() throws IOException {
    List<UpstreamFamily> families = new ArrayList<>();
    for (String line : lines()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split(" ", 5);
      families.add(new UpstreamFamily(f[0], f[1], f[2], f[3], f.length > 4 ? f[4] : ""));
    }
    return families;
  }

  private static List<String> outsideCollectors() throws IOException {
    String prefix = "#! outside: ";
    return lines().stream()
        .filter(l -> l.startsWith(prefix))
        .findFirst()
        .map(l -> List.of(l.substring(prefix.length()).split(",")))
        .orElse(List.of());
  }

  private static List<String> lines() throws IOException {
    try (InputStream in = WindowsExporterCoverageTest.class.getResourceAsStream(LIST)) {
      return new String(Objects.requireNonNull(in, LIST).readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
  }
}
