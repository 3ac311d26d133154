package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.winstats.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The configs of {@code examples/}. Debian's prometheus 2.42 (+ds) is built without Kubernetes service discovery
 * (its client-go is not packaged), so promtool rejects {@code kubernetes_sd_configs}; promtool checks each config
 * with that block replaced by static targets, and this test checks the discovery block itself. The real-Prometheus
 * IT loads the scrape job of prometheus-kubernetes-sd.yml the same way.
 */
class ExamplesTest {
  @TempDir Path tmp;

  @Test
  @Requires(tools = "promtool")
  void kubernetesSdConfigDiscoversTheDaemonsPodsAndPassesPromtool() throws IOException {
    JsonNode config = ExampleConfigs.read(ExampleConfigs.KUBERNETES_SD);
    JsonNode job = config.at("/scrape_configs/0");
    assertDiscoversDaemonPods(job);
    assertThat(config.path("rule_files")).extracting(JsonNode::asText)
        .containsExactly("winstats-recording.rules.yml", "winstats-alerts.rules.yml");
    ObjectNode checked = config.deepCopy();
    ((ArrayNode) checked.path("scrape_configs"))
        .set(0, ExampleConfigs.withStaticTarget(job, "127.0.0.1:9844", ExampleConfigs.podDiscoveryLabels("n1", "linux")));
    Path file = tmp.resolve("prometheus.yml");
    Rules.YAML.writeValue(file.toFile(), checked);
    for (Path rules : Rules.files()) {
      Files.copy(rules, tmp.resolve(rules.getFileName()));
    }
    Tools.Result r = promtool("check", "config", file.toString());
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS: 8 rules found");
  }

  @Test
  @Requires(tools = "promtool")
  void agentConfigRemoteWritesAndPassesPromtoolInAgentMode() throws IOException {
    JsonNode config = ExampleConfigs.read(ExampleConfigs.AGENT);
    JsonNode job = config.at("/scrape_configs/0");
    assertDiscoversDaemonPods(job);
    assertThat(config.has("rule_files")).as("agent mode evaluates no rules").isFalse();
    assertThat(config.at("/remote_write/0/url").asText()).startsWith("https://");
    assertThat(config.at("/remote_write/0/basic_auth/password_file").asText()).isNotBlank();
    assertThat(config.at("/global/external_labels/cluster").asText()).isNotBlank();
    ObjectNode checked = config.deepCopy();
    ((ArrayNode) checked.path("scrape_configs"))
        .set(0, ExampleConfigs.withStaticTarget(job, "127.0.0.1:9844", ExampleConfigs.podDiscoveryLabels("n1", "linux")));
    Path file = tmp.resolve("agent.yml");
    Rules.YAML.writeValue(file.toFile(), checked);
    Tools.Result r = promtool("check", "config", "--agent", file.toString());
    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS");
  }

  /**
   * The OpenTelemetry Collector is not installable here (no Debian or Maven package), so its config is checked by
   * structure: a prometheus receiver whose scrape job is the Prometheus example's, wired into a metrics pipeline
   * whose every component is defined.
   */
  @Test
  void otelCollectorConfigHasAPrometheusReceiverInAMetricsPipeline() {
    JsonNode config = ExampleConfigs.read(ExampleConfigs.OTEL);
    JsonNode job = config.at("/receivers/prometheus/config/scrape_configs/0");
    assertDiscoversDaemonPods(job);
    JsonNode prometheusJob = ExampleConfigs.read(ExampleConfigs.KUBERNETES_SD).at("/scrape_configs/0");
    assertThat(job.path("relabel_configs")).isEqualTo(prometheusJob.path("relabel_configs"));
    assertThat(job.path("kubernetes_sd_configs")).isEqualTo(prometheusJob.path("kubernetes_sd_configs"));
    assertThat(job.toString()).as("unescaped $ would be expanded by the collector").doesNotContainPattern("[^$]\\$[^$]");
    JsonNode pipeline = config.at("/service/pipelines/metrics");
    assertThat(pipeline.path("receivers")).extracting(JsonNode::asText).containsExactly("prometheus");
    for (String kind : List.of("receivers", "processors", "exporters")) {
      for (JsonNode component : pipeline.path(kind)) {
        assertThat(config.path(kind).has(component.asText())).as("%s %s is defined", kind, component).isTrue();
      }
      assertThat(pipeline.path(kind)).as(kind).isNotEmpty();
    }
    List<String> processors = new ArrayList<>();
    pipeline.path("processors").forEach(p -> processors.add(p.asText()));
    assertThat(processors).as("memory_limiter first, as the collector docs require").startsWith("memory_limiter");
  }

  private static void assertDiscoversDaemonPods(JsonNode job) {
    assertThat(job.path("job_name").asText()).isEqualTo("winstats-exporter");
    assertThat(job.at("/kubernetes_sd_configs/0/role").asText()).isEqualTo("pod");
    // Service discovery finds the pods only in the namespace the docs install them into (never the stack's monitoring).
    assertThat(job.at("/kubernetes_sd_configs/0/namespaces/names")).extracting(JsonNode::asText)
        .containsExactly(installNamespace());
    List<String> kept = new ArrayList<>();
    List<String> targets = new ArrayList<>();
    for (JsonNode r : job.path("relabel_configs")) {
      String sources = r.path("source_labels").toString();
      if (r.path("action").asText().equals("keep")) {
        kept.add(sources + "=" + r.path("regex").asText());
      }
      if (r.has("target_label")) {
        targets.add(r.path("target_label").asText());
      }
    }
    assertThat(kept)
        .containsExactly(
            "[\"__meta_kubernetes_pod_label_app_kubernetes_io_name\"]=winstats-exporter",
            "[\"__meta_kubernetes_pod_container_port_number\"]=9844");
    assertThat(targets).contains("instance").doesNotContain("namespace", "pod", "container");
  }

  /** The namespace README.md creates and installs into. */
  static String installNamespace() {
    try {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^kubectl create namespace (\\S+)$")
          .matcher(Files.readString(Path.of("..", "README.md")));
      assertThat(m.find()).as("README.md creates a namespace").isTrue();
      return m.group(1);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Tools.Result promtool(String... args) {
    List<String> command = new ArrayList<>(List.of(Tools.path("promtool").toString()));
    command.addAll(List.of(args));
    Tools.Result r = Tools.run(Duration.ofSeconds(60), command);
    System.out.println(r.output());
    return r;
  }
}
