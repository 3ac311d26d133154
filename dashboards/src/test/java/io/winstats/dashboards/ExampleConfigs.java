package io.winstats.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/** The configs of {@code examples/}, and their scrape jobs with service discovery replaced by static targets. */
final class ExampleConfigs {
  static final Path DIR = Path.of("..", "examples");
  static final Path KUBERNETES_SD = DIR.resolve("prometheus-kubernetes-sd.yml");
  static final Path AGENT = DIR.resolve("prometheus-agent-remote-write.yml");
  static final Path OTEL = DIR.resolve("otel-collector-prometheus-receiver.yaml");

  /**
   * The {@code __meta_kubernetes_*} labels Kubernetes pod discovery gives the container port 9844 of a Linux
   * winstats-exporter pod of deploy/kubernetes on {@code node}.
   */
  static Map<String, String> podDiscoveryLabels(String node, String component) {
    return Map.of(
        "__meta_kubernetes_namespace", "monitoring",
        "__meta_kubernetes_pod_name", "winstats-exporter-" + component + "-x7k2p",
        "__meta_kubernetes_pod_node_name", node,
        "__meta_kubernetes_pod_phase", "Running",
        "__meta_kubernetes_pod_ready", "true",
        "__meta_kubernetes_pod_label_app_kubernetes_io_name", "winstats-exporter",
        "__meta_kubernetes_pod_label_app_kubernetes_io_component", component,
        "__meta_kubernetes_pod_container_name", "winstats-exporter",
        "__meta_kubernetes_pod_container_port_name", "metrics",
        "__meta_kubernetes_pod_container_port_number", "9844");
  }

  private ExampleConfigs() {}

  static JsonNode read(Path file) {
    try {
      return Rules.YAML.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code job} (one scrape_configs entry) with its {@code kubernetes_sd_configs} replaced by one static target
   * carrying {@code labels}; everything else, relabelling included, stays as it is.
   */
  static ObjectNode withStaticTarget(JsonNode job, String address, Map<String, String> labels) {
    ObjectNode copy = job.deepCopy();
    if (copy.remove("kubernetes_sd_configs") == null) {
      throw new IllegalArgumentException("job has no kubernetes_sd_configs: " + job);
    }
    ArrayNode statics = copy.putArray("static_configs");
    ObjectNode target = statics.addObject();
    target.putArray("targets").add(address);
    ObjectNode l = target.putObject("labels");
    labels.forEach(l::put);
    return copy;
  }
}
