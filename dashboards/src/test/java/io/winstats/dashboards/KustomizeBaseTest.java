package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import io.winstats.testing.Requires;
import org.junit.jupiter.api.Test;

/**
 * deploy/kubernetes is the chart's rendered output, not a second copy kept by hand: this renders the chart and holds
 * every file of the kustomize base and its overlays to it, template by template. The base is the chart's defaults (the
 * Windows DaemonSet only, as {@code helm install} gives); {@code linux/}, applied beside it, adds the Linux DaemonSet
 * and its Service (the chart with {@link #LINUX_VALUES}); the monitors are rendered for both with {@link #MONITOR_VALUES}. Everything is
 * namespace-free so that a kustomize overlay's {@code namespace:} or {@code kubectl apply -k ... -n NS} places it, and
 * the monitors (without namespaceSelector) follow; the Helm-only labels are left out. On a difference the expected
 * files are written to {@code dashboards/target/kustomize-base/} to be copied over.
 */
class KustomizeBaseTest {
  static final Path DIR = Path.of("..", "deploy", "kubernetes");
  private static final Path EXPECTED = Path.of("target", "kustomize-base");
  static final String BASE_VALUES = "{}\n";
  static final String LINUX_VALUES = "windows:\n  enabled: false\nlinux:\n  enabled: true\n";
  static final String MONITOR_VALUES =
      "linux:\n  enabled: true\nprometheus:\n  monitor:\n    enabled: %s\n  podMonitor:\n    enabled: %s\n";
  private static final Pattern SOURCE = Pattern.compile("(?m)^# Source: winstats-exporter/templates/(\\S+)$");
  private static final String HEADER =
      "# Generated from the Helm chart deploy/helm/winstats-exporter (KustomizeBaseTest renders it and holds this\n"
          + "# file to it): change the chart, then copy dashboards/target/kustomize-base/ here.\n";

  /** The base's files, path relative to deploy/kubernetes, as the chart renders them. */
  static Map<String, String> expectedFiles(Path work) throws IOException {
    Map<String, String> files = new TreeMap<>();
    files.putAll(byTemplate(render(work, BASE_VALUES), "", Set.of()));
    // The overlay adds what the base lacks; the ServiceAccount comes from the base.
    files.putAll(byTemplate(render(work, LINUX_VALUES), "linux/", Set.of("daemonset-linux.yaml", "service.yaml")));
    files.putAll(byTemplate(render(work, MONITOR_VALUES.formatted(true, false)), "prometheus-operator/", Set.of("servicemonitor.yaml")));
    files.putAll(byTemplate(render(work, MONITOR_VALUES.formatted(false, true)), "prometheus-operator/", Set.of("podmonitor.yaml")));
    return files;
  }

  private static String render(Path work, String values) throws IOException {
    Files.createDirectories(work);
    Path f = Files.writeString(work.resolve("values.yaml"), values);
    return HelmChart.template(List.of(f));
  }

  /** Documents grouped by the template that rendered them, normalized; only {@code only} when it is not empty. */
  private static Map<String, String> byTemplate(String rendered, String prefix, Set<String> only) {
    Map<String, StringBuilder> out = new LinkedHashMap<>();
    for (String doc : rendered.split("(?m)^---\\n")) {
      if (doc.isBlank()) {
        continue;
      }
      Matcher m = SOURCE.matcher(doc);
      assertThat(m.find()).as("a # Source line in\n%s", doc).isTrue();
      String template = m.group(1);
      // helm test's pods (templates/tests/) run check on a Helm release; they are no part of what kubectl applies.
      if (template.startsWith("tests/") || (!only.isEmpty() && !only.contains(template))) {
        continue;
      }
      StringBuilder file = out.computeIfAbsent(prefix + template, k -> new StringBuilder(HEADER));
      if (file.length() > HEADER.length()) {
        file.append("---\n");
      }
      file.append(normalize(doc));
    }
    Map<String, String> files = new LinkedHashMap<>();
    out.forEach((k, v) -> files.put(k, v.toString()));
    return files;
  }

  /** Without the release namespace and the labels that say Helm manages the objects. */
  static String normalize(String doc) {
    String s = doc.replaceAll("(?m)^  namespace: " + HelmChart.NAMESPACE + "\\n", "")
        .replaceAll("(?m)^\\s+helm\\.sh/chart: .*\\n", "")
        .replaceAll("(?m)^\\s+app\\.kubernetes\\.io/managed-by: Helm\\n", "");
    return s.endsWith("\n") ? s : s + "\n";
  }

  @Test
  void theKustomizeBaseIsTheChartsRenderedOutput() throws IOException {
    Map<String, String> expected = expectedFiles(EXPECTED.resolve("work"));
    Map<String, String> actual = new TreeMap<>();
    try (Stream<Path> s = Files.walk(DIR)) {
      for (Path p : s.filter(p -> p.toString().endsWith(".yaml") && !p.endsWith("kustomization.yaml")).toList()) {
        actual.put(DIR.relativize(p).toString(), Files.readString(p));
      }
    }
    if (!actual.equals(expected)) {
      for (Map.Entry<String, String> e : expected.entrySet()) {
        Path f = EXPECTED.resolve(e.getKey());
        Files.createDirectories(f.getParent());
        Files.writeString(f, e.getValue());
      }
    }
    assertThat(actual.keySet()).as("files of deploy/kubernetes (expected written to %s)", EXPECTED.toAbsolutePath())
        .isEqualTo(expected.keySet());
    expected.forEach((file, text) ->
        assertThat(actual.get(file)).as("deploy/kubernetes/%s (expected written to %s)", file, EXPECTED.toAbsolutePath())
            .isEqualTo(text));
  }

  /** kubectl's own kustomize builds the base and linux/: what kubectl apply -k applies. */
  @Test
  @Requires(tools = "kubectl")
  void kubectlBuildsTheBaseWindowsOnlyAndLinuxBesideIt() throws Exception {
    assertThat(kinds(kustomize(DIR))).containsExactlyInAnyOrder(
        "ServiceAccount winstats-exporter", "Service winstats-exporter-windows", "DaemonSet winstats-exporter-windows");
    assertThat(kinds(kustomize(DIR.resolve("linux")))).containsExactlyInAnyOrder(
        "Service winstats-exporter-linux", "DaemonSet winstats-exporter-linux");
    assertThat(kustomize(DIR.resolve("linux"))).contains("serviceAccountName: winstats-exporter\n")
        .contains("image: ghcr.io/winstats/winstats-exporter:0.1.0");
  }

  private static String kustomize(Path dir) throws Exception {
    Process p = new ProcessBuilder("kubectl", "kustomize", dir.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("kubectl kustomize %s:\n%s", dir, out).isZero();
    return out;
  }

  private static List<String> kinds(String yaml) {
    return HelmChart.parse(yaml).stream().map(d -> d.path("kind").asText() + " " + d.at("/metadata/name").asText()).toList();
  }

  @Test
  void theBaseCreatesNoNamespaceAndPinsNone() throws IOException {
    for (String text : expectedFiles(EXPECTED.resolve("work")).values()) {
      for (JsonNode doc : HelmChart.parse(text)) {
        assertThat(doc.path("kind").asText()).isNotEqualTo("Namespace");
        assertThat(doc.at("/metadata/namespace").isMissingNode()).isTrue();
        assertThat(doc.at("/spec/namespaceSelector").isMissingNode()).isTrue();
        assertThat(doc.at("/spec/template/spec/priorityClassName").asText()).isNotEqualTo("system-node-critical");
      }
    }
  }
}
