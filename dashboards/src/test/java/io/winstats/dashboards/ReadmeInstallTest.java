package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * README.md's install path, walked as a newcomer would: every {@code helm install} of its "Install on a cluster"
 * section run as {@code helm install --dry-run} with the real Helm engine (the published chart's reference stands for
 * this directory, which is what the release workflow packages), the checkout's path first, the images it installs the
 * ones the build command before it pushes, the {@code --set} form of the kube-prometheus-stack preset rendering
 * exactly what the preset file renders, and the stack's side named and printed by the install's notes.
 */
class ReadmeInstallTest {
  private static final Path ROOT = Path.of("..");
  private static final String OCI = "oci://ghcr.io/winstats/charts/winstats-exporter";
  private static final Path STACK_SIDE = HelmChart.DIR.resolve("presets").resolve("kube-prometheus-stack-values.yaml");

  /** One {@code helm install} line: where the chart comes from, and its namespace, files and {@code --set} values. */
  record Install(String command, String chart, String version, String namespace, List<Path> files, Map<String, String> sets) {
    boolean fromCheckout() {
      return chart.equals("./deploy/helm/winstats-exporter");
    }
  }

  /** The shell commands of the section's code blocks, continuation lines joined. */
  static List<String> commands() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    String section = readme.substring(readme.indexOf("## Install on a cluster"), readme.indexOf("## Set-up for development"));
    List<String> out = new ArrayList<>();
    Matcher block = Pattern.compile("(?s)```sh\\n(.*?)```").matcher(section);
    while (block.find()) {
      for (String command : block.group(1).replace("\\\n", " ").split("\n")) {
        String c = command.replaceAll("\\s+#.*$", "").replaceAll("\\s+", " ").strip();
        if (!c.isEmpty()) {
          out.add(c);
        }
      }
    }
    return out;
  }

  static List<Install> installs() throws IOException {
    List<Install> out = new ArrayList<>();
    for (String c : commands()) {
      if (!c.startsWith("helm install ")) {
        continue;
      }
      String[] t = c.split(" ");
      String version = "";
      String namespace = "default";
      List<Path> files = new ArrayList<>();
      Map<String, String> sets = new LinkedHashMap<>();
      for (int i = 4; i < t.length; i++) {
        switch (t[i]) {
          case "--version" -> version = t[++i];
          case "-n" -> namespace = t[++i];
          case "-f" -> files.add(ROOT.resolve(t[++i]).toAbsolutePath().normalize());
          case "--set" -> {
            for (String kv : t[++i].split(",")) {
              sets.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
          }
          default -> throw new AssertionError("an argument this test does not know: " + t[i] + " in " + c);
        }
      }
      out.add(new Install(c, t[3], version, namespace, files, sets));
    }
    return out;
  }

  @Test
  void theCheckoutsPathComesFirstAndInstallsTheImagesTheBuildPushes() throws IOException {
    List<String> commands = commands();
    List<Install> installs = installs();
    assertThat(installs).hasSizeGreaterThanOrEqualTo(4);
    assertThat(installs.get(0).fromCheckout()).as("the first install works from what exists: %s", installs.get(0).command()).isTrue();
    String build = commands.stream().filter(c -> c.startsWith("deploy/images/build ")).findFirst().orElseThrow();
    assertThat(commands.indexOf(build)).isLessThan(commands.indexOf(installs.get(0).command()));
    String[] b = build.split(" ");
    String chartVersion = Rules.YAML.readTree(HelmChart.DIR.resolve("Chart.yaml").toFile()).path("appVersion").asText();
    assertThat(b[2]).as("the images are tagged with the chart's appVersion, the tag it installs").isEqualTo(chartVersion);
    assertThat(b).contains("--push");
    assertThat(Files.isExecutable(ROOT.resolve("deploy/images/build"))).isTrue();
    for (Install i : installs) {
      if (i.fromCheckout()) {
        assertThat(i.sets().get("image.registry") + "/" + i.sets().get("image.repository")).as(i.command()).isEqualTo(b[1]);
      } else {
        assertThat(i.chart()).isEqualTo(OCI);
        assertThat(i.version()).as("a release's version: the chart's").isEqualTo(chartVersion);
      }
      assertThat(i.namespace()).as("the namespace the section creates, never monitoring").isEqualTo("winstats-exporter");
    }
  }

  /** helm install --dry-run of each: it renders, and its notes say where it went and, with the preset, the stack side. */
  @Test
  void everyInstallRendersAsADryRunAndThePresetsNotesPrintTheStacksSide() throws IOException {
    String stackSide = Files.readString(STACK_SIDE);
    int withPreset = 0;
    for (Install i : installs()) {
      for (Path f : i.files()) {
        assertThat(f).as(i.command()).isRegularFile();
      }
      String out = HelmChart.installDryRun("winstats-exporter", HelmChart.DIR, i.namespace(), i.files(), i.sets());
      assertThat(out).as(i.command()).contains("is installed in namespace winstats-exporter");
      boolean preset = i.files().contains(HelmChart.PRESET) || i.sets().containsKey("prometheus.stockJobs.windowsExporter.enabled");
      if (preset) {
        withPreset++;
        assertThat(out).as(i.command()).contains("presets/kube-prometheus-stack-values.yaml")
            .contains("winstats.io/run-windows-exporter: \"true\"")
            .contains("enabled: false");
      } else {
        assertThat(out).as(i.command()).doesNotContain("kube-prometheus-stack-values.yaml");
      }
    }
    assertThat(withPreset).isEqualTo(2);
    assertThat(stackSide).contains("windowsMonitoring:");
    String upgrade = commands().stream().filter(c -> c.startsWith("helm upgrade kube-prometheus-stack ")).findFirst().orElseThrow();
    assertThat(upgrade).contains("-f deploy/helm/winstats-exporter/presets/kube-prometheus-stack-values.yaml")
        .as("the stack stays on the version it runs, with its defaults").contains("--version STACK_VERSION")
        .contains("--reset-then-reuse-values").doesNotContain("--reuse-values ");
    for (Path f : List.of(STACK_SIDE, HelmChart.DIR.resolve("templates").resolve("NOTES.txt"))) {
      String text = Files.readString(f);
      assertThat(text).as(f.toString()).contains("--version STACK_VERSION --reset-then-reuse-values")
          .doesNotContain("--reuse-values ");
    }
  }

  /** The preset as --set values, for a published chart that has not been pulled, is the preset file. */
  @Test
  void theSetFormOfThePresetRendersWhatThePresetFileRenders() throws IOException {
    Install set = installs().stream().filter(i -> !i.fromCheckout() && !i.sets().isEmpty()).findFirst().orElseThrow();
    List<JsonNode> fromSets = HelmChart.parse(HelmChart.template(set.namespace(), List.of(), set.sets()));
    List<JsonNode> fromFile = HelmChart.parse(HelmChart.template(set.namespace(), List.of(HelmChart.PRESET), Map.of()));
    assertThat(fromSets).hasSameSizeAs(fromFile).isEqualTo(fromFile);
    assertThat(HelmChart.ofKind(fromSets, "PrometheusRule")).hasSize(1);
  }

  /**
   * The stack's side: its Windows rules and dashboards on (windowsMonitoring, the subchart's condition in the stack's
   * Chart.yaml), its windows_exporter unscraped (the subchart's prometheus.monitor.enabled) and unscheduled (a
   * nodeSelector the subchart renders as given, with a label no node carries beside its kubernetes.io/os default).
   */
  @Test
  void theStackSideTurnsWindowsMonitoringOnAndItsWindowsExporterOff() throws IOException {
    JsonNode v = Rules.YAML.readTree(STACK_SIDE.toFile());
    assertThat(v.at("/windowsMonitoring/enabled").asBoolean()).isTrue();
    JsonNode exporter = v.path("prometheus-windows-exporter");
    assertThat(exporter.at("/prometheus/monitor/enabled").asBoolean(true)).isFalse();
    assertThat(exporter.path("nodeSelector").size()).isEqualTo(1);
    String label = exporter.path("nodeSelector").fieldNames().next();
    assertThat(label).as("a label of this project's, which no node carries by default").startsWith("winstats.io/");
    JsonNode preset = Rules.YAML.readTree(HelmChart.PRESET.toFile());
    assertThat(preset.at("/prometheus/stockJobs/windowsExporter/job").asText())
        .as("the job the stack's windows rules select, now served by this daemon").isEqualTo("windows-exporter");
  }
}
