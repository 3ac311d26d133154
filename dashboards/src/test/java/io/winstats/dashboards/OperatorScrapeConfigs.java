package io.winstats.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scrape configs the Prometheus Operator generates from a rendered ServiceMonitor, field by field as
 * {@code generateServiceMonitorConfig} in prometheus-operator's pkg/prometheus/promcfg.go (main at 6adcebc, v0.93)
 * writes them for a Prometheus without sharding, scrape classes or enforced namespace labels; only the
 * {@code kubernetes_sd_configs} (role endpoints) is replaced by static targets that carry the {@code __meta_kubernetes_*}
 * labels endpoints discovery gives a DaemonSet pod behind the monitor's Service ({@link #discoveredPod}), so a real
 * Prometheus applies the operator's relabelling and the chart's own exactly as in a cluster.
 */
final class OperatorScrapeConfigs {
  private OperatorScrapeConfigs() {}

  /** One target as Kubernetes endpoints discovery would give it: its address and meta labels. */
  record Target(String address, Map<String, String> meta) {}

  /**
   * The meta labels of a pod of {@code daemonSet} on {@code node}, listed through {@code service} on its port
   * {@code portName} (kubernetes_sd role endpoints: the Service's labels, the endpoint's port and target, the pod's
   * labels, name, node, container and phase).
   */
  static Map<String, String> discoveredPod(JsonNode service, JsonNode daemonSet, String node, String portName) {
    Map<String, String> meta = new TreeMap<>();
    String namespace = service.at("/metadata/namespace").asText();
    String pod = daemonSet.at("/metadata/name").asText() + "-" + Integer.toHexString(node.hashCode() & 0xfffff);
    meta.put("__meta_kubernetes_namespace", namespace);
    meta.put("__meta_kubernetes_service_name", service.at("/metadata/name").asText());
    service.at("/metadata/labels").fields().forEachRemaining(l -> {
      meta.put("__meta_kubernetes_service_label_" + sanitize(l.getKey()), l.getValue().asText());
      meta.put("__meta_kubernetes_service_labelpresent_" + sanitize(l.getKey()), "true");
    });
    meta.put("__meta_kubernetes_endpoint_port_name", portName);
    meta.put("__meta_kubernetes_endpoint_port_protocol", "TCP");
    meta.put("__meta_kubernetes_endpoint_ready", "true");
    meta.put("__meta_kubernetes_endpoint_address_target_kind", "Pod");
    meta.put("__meta_kubernetes_endpoint_address_target_name", pod);
    meta.put("__meta_kubernetes_endpoint_node_name", node);
    meta.put("__meta_kubernetes_pod_name", pod);
    meta.put("__meta_kubernetes_pod_node_name", node);
    meta.put("__meta_kubernetes_pod_phase", "Running");
    meta.put("__meta_kubernetes_pod_ready", "true");
    meta.put("__meta_kubernetes_pod_container_name", "winstats-exporter");
    meta.put("__meta_kubernetes_pod_container_port_name", portName);
    daemonSet.at("/spec/template/metadata/labels").fields().forEachRemaining(l -> {
      meta.put("__meta_kubernetes_pod_label_" + sanitize(l.getKey()), l.getValue().asText());
      meta.put("__meta_kubernetes_pod_labelpresent_" + sanitize(l.getKey()), "true");
    });
    return meta;
  }

  /** One scrape config per endpoint of {@code monitor}, job_name {@code serviceMonitor/NS/NAME/I}. */
  static List<ObjectNode> serviceMonitor(JsonNode monitor, List<Target> targets) {
    List<ObjectNode> jobs = new ArrayList<>();
    JsonNode spec = monitor.path("spec");
    int i = 0;
    for (JsonNode ep : spec.path("endpoints")) {
      ObjectNode job = Rules.YAML.createObjectNode();
      job.put("job_name", "serviceMonitor/" + monitor.at("/metadata/namespace").asText() + "/"
          + monitor.at("/metadata/name").asText() + "/" + i++);
      job.put("honor_labels", ep.path("honorLabels").asBoolean(false));
      ArrayNode statics = job.putArray("static_configs");
      for (Target t : targets) {
        ObjectNode s = statics.addObject();
        s.putArray("targets").add(t.address());
        ObjectNode labels = s.putObject("labels");
        t.meta().forEach(labels::put);
      }
      putText(job, "scrape_interval", ep.path("interval"));
      putText(job, "scrape_timeout", ep.path("scrapeTimeout"));
      putText(job, "metrics_path", ep.path("path"));
      putText(job, "scheme", ep.path("scheme"));
      ArrayNode relabel = job.putArray("relabel_configs");
      relabel.add(rule(List.of("job"), null, "__tmp_prometheus_job_name", null, null, null));
      Map<String, String> matchLabels = new TreeMap<>();
      spec.at("/selector/matchLabels").fields().forEachRemaining(l -> matchLabels.put(l.getKey(), l.getValue().asText()));
      matchLabels.forEach((k, v) -> relabel.add(rule(
          List.of("__meta_kubernetes_service_label_" + sanitize(k), "__meta_kubernetes_service_labelpresent_" + sanitize(k)),
          null, null, "(" + v + ");true", null, "keep")));
      if (ep.hasNonNull("port")) {
        relabel.add(rule(List.of("__meta_kubernetes_endpoint_port_name"), null, null, ep.path("port").asText(), null, "keep"));
      }
      List<String> target = List.of("__meta_kubernetes_endpoint_address_target_kind", "__meta_kubernetes_endpoint_address_target_name");
      relabel.add(rule(target, ";", "node", "Node;(.*)", "${1}", null));
      relabel.add(rule(target, ";", "pod", "Pod;(.*)", "${1}", null));
      relabel.add(rule(List.of("__meta_kubernetes_namespace"), null, "namespace", null, null, null));
      relabel.add(rule(List.of("__meta_kubernetes_service_name"), null, "service", null, null, null));
      relabel.add(rule(List.of("__meta_kubernetes_pod_name"), null, "pod", null, null, null));
      relabel.add(rule(List.of("__meta_kubernetes_pod_container_name"), null, "container", null, null, null));
      if (ep.path("filterRunning").asBoolean(true)) {
        relabel.add(rule(List.of("__meta_kubernetes_pod_phase"), null, null, "(Failed|Succeeded)", null, "drop"));
      }
      relabel.add(rule(List.of("__meta_kubernetes_service_name"), null, "job", null, "${1}", null));
      if (!spec.path("jobLabel").asText().isEmpty()) {
        relabel.add(rule(List.of("__meta_kubernetes_service_label_" + sanitize(spec.path("jobLabel").asText())), null,
            "job", "(.+)", "${1}", null));
      }
      if (ep.hasNonNull("port")) {
        relabel.add(rule(List.of(), null, "endpoint", null, ep.path("port").asText(), null));
      }
      ep.path("relabelings").forEach(r -> relabel.add(fromOperatorRelabel(r)));
      // Sharding with one shard: the config reloader substitutes $(SHARD) with 0.
      relabel.add(rule(List.of("__address__"), null, "__tmp_hash", null, null, "hashmod").put("modulus", 1));
      relabel.add(rule(List.of("__tmp_hash"), null, null, "0", null, "keep"));
      if (ep.path("metricRelabelings").size() > 0) {
        ArrayNode metric = job.putArray("metric_relabel_configs");
        ep.path("metricRelabelings").forEach(r -> metric.add(fromOperatorRelabel(r)));
      }
      jobs.add(job);
    }
    return jobs;
  }

  /** generateRelabelConfig: the CRD's camelCase RelabelConfig as Prometheus' relabel_config, action lower-cased. */
  static ObjectNode fromOperatorRelabel(JsonNode r) {
    Map<String, String> names = new LinkedHashMap<>();
    names.put("sourceLabels", "source_labels");
    names.put("separator", "separator");
    names.put("targetLabel", "target_label");
    names.put("regex", "regex");
    names.put("modulus", "modulus");
    names.put("replacement", "replacement");
    names.put("action", "action");
    ObjectNode out = Rules.YAML.createObjectNode();
    for (Iterator<String> it = r.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!names.containsKey(f)) {
        throw new IllegalArgumentException("not a RelabelConfig field: " + f + " in " + r);
      }
    }
    names.forEach((crd, prom) -> {
      if (r.has(crd)) {
        JsonNode v = r.get(crd);
        out.set(prom, crd.equals("action") ? out.textNode(v.asText().toLowerCase(java.util.Locale.ROOT)) : v);
      }
    });
    return out;
  }

  private static ObjectNode rule(
      List<String> sources, String separator, String targetLabel, String regex, String replacement, String action) {
    ObjectNode r = Rules.YAML.createObjectNode();
    if (!sources.isEmpty()) {
      ArrayNode s = r.putArray("source_labels");
      sources.forEach(s::add);
    }
    if (separator != null) {
      r.put("separator", separator);
    }
    if (targetLabel != null) {
      r.put("target_label", targetLabel);
    }
    if (regex != null) {
      r.put("regex", regex);
    }
    if (replacement != null) {
      r.put("replacement", replacement);
    }
    if (action != null) {
      r.put("action", action);
    }
    return r;
  }

  private static void putText(ObjectNode job, String key, JsonNode value) {
    if (!value.asText().isEmpty()) {
      job.put(key, value.asText());
    }
  }

  /** The operator's sanitizeLabelName: every character outside [a-zA-Z0-9_] becomes _. */
  static String sanitize(String name) {
    return name.replaceAll("[^a-zA-Z0-9_]", "_");
  }
}
