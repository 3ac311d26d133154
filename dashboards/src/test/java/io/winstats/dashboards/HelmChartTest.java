package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Helm chart, linted and rendered by the real Helm engine ({@link HelmChart}) with its defaults, the
 * kube-prometheus-stack preset and the value sets in its {@code ci/} folder; every rendered built-in object checked
 * against the Kubernetes schema, and bad values refused by values.schema.json with the path of the bad value.
 */
class HelmChartTest {
  private static final Path WORK = Path.of("target", "helm-lint").toAbsolutePath();

  /** Every value set the chart is tested with: the defaults, the preset and each file of ci/. */
  static List<List<Path>> valueSets() throws IOException {
    List<List<Path>> sets = new ArrayList<>();
    sets.add(List.of());
    sets.add(List.of(HelmChart.PRESET));
    try (Stream<Path> s = Files.list(HelmChart.CI)) {
      s.filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(p -> sets.add(List.of(p)));
    }
    assertThat(sets).hasSizeGreaterThanOrEqualTo(5);
    return sets;
  }

  @ParameterizedTest
  @MethodSource("valueSets")
  void lintsWithoutWarnings(List<Path> values) {
    LintResult r = HelmChart.lint(values, WORK);
    assertThat(r.isFailed()).as("helm lint --strict %s: %s", values, r.getMessages()).isFalse();
    assertThat(r.getMessages()).as("lint messages (the icon is docs/images/icon.svg)").isEmpty();
  }

  @ParameterizedTest
  @MethodSource("valueSets")
  void everyRenderedObjectMatchesTheKubernetesSchemaAndStaysInTheReleaseNamespace(List<Path> values) throws IOException {
    List<JsonNode> docs = HelmChart.objects(values);
    assertThat(docs).isNotEmpty();
    String namespace = HelmChart.NAMESPACE;
    for (Path f : values) {
      namespace = Rules.YAML.readTree(f.toFile()).path("namespaceOverride").asText(namespace);
    }
    for (JsonNode doc : docs) {
      if (!KubernetesSchema.isCustom(doc)) {
        KubernetesSchema.validate(doc);
      }
      String kind = doc.path("kind").asText();
      assertThat(kind).as("the chart creates no namespace").isNotEqualTo("Namespace");
      if (HelmChart.CLUSTER_SCOPED.contains(kind)) {
        assertThat(doc.at("/metadata/namespace").isMissingNode()).as("%s is cluster-scoped", kind).isTrue();
      } else {
        assertThat(doc.at("/metadata/namespace").asText()).as("namespace of %s", doc.at("/metadata/name"))
            .isEqualTo(namespace);
      }
      assertThat(doc.at("/metadata/name").asText()).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?").hasSizeLessThanOrEqualTo(63);
    }
    for (JsonNode ds : HelmChart.ofKind(docs, "DaemonSet")) {
      List<String> flags = new ArrayList<>();
      for (JsonNode a : ds.at("/spec/template/spec/containers/0/args")) {
        assertThat(a.asText()).as("daemon args are --flag=value").startsWith("--").contains("=");
        flags.add(a.asText().substring(2, a.asText().indexOf('=')));
      }
      assertThat(DaemonFlags.accepted()).as("flags of %s", ds.at("/metadata/name")).containsAll(flags);
    }
  }

  /**
   * helm test: for every DaemonSet a Pod that is its own pod running {@code check} (the same image, command, flags,
   * mounts, account, security context and node selection), with nothing that serves (ports, probes, sidecars,
   * kube-rbac-proxy, the firewall init container), labels no selector of the chart picks up, and the pod kept after
   * the run for its log.
   */
  @ParameterizedTest
  @MethodSource("valueSets")
  void theHelmTestRunsCheckInEachDaemonSetsOwnPod(List<Path> values) {
    List<JsonNode> docs = HelmChart.objects(values);
    List<JsonNode> daemonSets = HelmChart.ofKind(docs, "DaemonSet");
    List<JsonNode> tests = HelmChart.testObjects(values, Path.of("target", "helm-tests").toAbsolutePath());
    assertThat(tests).extracting(HelmChart::kindOf).containsOnly("v1 Pod");
    tests.forEach(KubernetesSchema::validate);
    assertThat(tests).extracting(p -> p.at("/metadata/name").asText())
        .containsExactlyInAnyOrderElementsOf(daemonSets.stream().map(d -> d.at("/metadata/name").asText() + "-check").toList());
    for (JsonNode ds : daemonSets) {
      String name = ds.at("/metadata/name").asText();
      JsonNode pod =
          tests.stream().filter(p -> p.at("/metadata/name").asText().equals(name + "-check")).findFirst().orElseThrow();
      JsonNode selector = ds.at("/spec/selector/matchLabels");
      assertThat(selector.properties()).as("%s's selector must not pick the test pod", name)
          .anyMatch(e -> !e.getValue().equals(pod.at("/metadata/labels").path(e.getKey())));
      JsonNode want = ds.at("/spec/template/spec");
      JsonNode got = pod.path("spec");
      assertThat(got.path("restartPolicy").asText()).isEqualTo("Never");
      assertThat(got.path("initContainers").isMissingNode()).as("no init containers in %s", name).isTrue();
      for (String field : List.of("nodeSelector", "tolerations", "affinity", "securityContext", "hostNetwork",
          "serviceAccountName", "automountServiceAccountToken", "imagePullSecrets", "priorityClassName", "volumes")) {
        assertThat(got.path(field)).as("%s of %s", field, name).isEqualTo(want.path(field));
      }
      assertThat(got.path("containers")).as("one container in %s", name).hasSize(1);
      JsonNode check = got.at("/containers/0");
      JsonNode daemon = want.at("/containers/0");
      assertThat(daemon.path("name").asText()).isEqualTo("winstats-exporter");
      assertThat(check.path("name").asText()).isEqualTo("check");
      for (String field : List.of("image", "imagePullPolicy", "command", "env", "resources", "securityContext",
          "volumeMounts")) {
        assertThat(check.path(field)).as("%s of %s", field, name).isEqualTo(daemon.path(field));
      }
      List<String> args = new ArrayList<>(List.of("check"));
      daemon.path("args").forEach(a -> args.add(a.asText()));
      assertThat(check.path("args")).extracting(JsonNode::asText).as("args of %s", name).containsExactlyElementsOf(args);
      assertThat(check.has("ports") || check.has("readinessProbe") || check.has("livenessProbe")).isFalse();
    }
  }

  /** The pods are helm test hooks, kept after the run for their log; helm install does not create them. */
  @Test
  void theCheckPodsAreTestHooksKeptForTheirLog() throws IOException {
    String template = Files.readString(HelmChart.DIR.resolve("templates").resolve("tests").resolve("check.yaml"));
    assertThat(template).contains("    helm.sh/hook: test\n", "    helm.sh/hook-delete-policy: before-hook-creation\n");
    assertThat(HelmChart.objects(List.of())).extracting(HelmChart::kindOf).doesNotContain("v1 Pod");
  }

  /** NOTES.txt gives the kubectl exec that runs check in one node's pod with the daemon's own command and flags. */
  @Test
  void theNotesSayHowToRunCheckOnOneNode() {
    String out = HelmChart.installDryRun("winstats-exporter", HelmChart.DIR, "metrics", List.of(),
        java.util.Map.of("linux.enabled", "true"));
    assertThat(out)
        .contains("POD=$(kubectl -n metrics get pods -l app.kubernetes.io/instance=winstats-exporter,"
            + "app.kubernetes.io/component=windows --field-selector spec.nodeName=NODE -o name)")
        .contains("kubectl -n metrics exec $POD -c winstats-exporter -- '%CONTAINER_SANDBOX_MOUNT_POINT%\\jre\\bin\\java.exe'"
            + " '@%CONTAINER_SANDBOX_MOUNT_POINT%\\jvm.options' '-jar' '%CONTAINER_SANDBOX_MOUNT_POINT%\\winstats-exporter.jar'"
            + " check '--web.listen-address=:9844' '--cri.endpoint=npipe:////./pipe/containerd-containerd' '--node.source=pdh'")
        .contains("kubectl -n metrics exec $POD -c winstats-exporter -- '/opt/java/bin/java'"
            + " '@/opt/winstats-exporter/jvm.options' '-XX:SharedArchiveFile=/opt/winstats-exporter/winstats-exporter.jsa'"
            + " '-jar' '/opt/winstats-exporter/winstats-exporter.jar' check '--web.listen-address=:9844'")
        .contains("exits 0 (all ok), 3 (degraded) or 4 (failed)")
        .contains("helm test winstats-exporter -n metrics --logs");
  }

  @Test
  void defaultsRunTheWindowsDaemonSetOnlyAsAHostProcessPodSizedByTheMemoryBudget() {
    List<JsonNode> docs = HelmChart.objects(List.of());
    assertThat(docs.stream().map(HelmChart::kindOf).toList())
        .as("no PriorityClass unless asked: cluster-scoped, it fails a namespace-scoped installer")
        .containsExactlyInAnyOrder("v1 ServiceAccount", "v1 Service", "apps/v1 DaemonSet");
    JsonNode ds = HelmChart.ofKind(docs, "DaemonSet").get(0);
    assertThat(ds.at("/metadata/name").asText()).isEqualTo("winstats-exporter-windows");
    JsonNode spec = ds.at("/spec/template/spec");
    assertThat(spec.at("/nodeSelector/kubernetes.io~1os").asText()).isEqualTo("windows");
    assertThat(spec.at("/securityContext/windowsOptions/hostProcess").asBoolean()).isTrue();
    assertThat(spec.at("/securityContext/windowsOptions/runAsUserName").asText()).isEqualTo("NT AUTHORITY\\SYSTEM");
    assertThat(spec.path("hostNetwork").asBoolean()).isTrue();
    assertThat(spec.path("priorityClassName").isMissingNode()).as("no priority class unless asked").isTrue();
    assertThat(spec.at("/initContainers/0/name").asText()).isEqualTo("open-firewall");
    assertThat(spec.at("/containers/0/image").asText()).isEqualTo("ghcr.io/winstats/winstats-exporter-windows:0.1.0");
    assertThat(spec.at("/containers/0/resources/limits/memory").asText())
        .isEqualTo(ManifestMemoryBudgetTest.budgetMib() + "Mi");
    assertThat(spec.at("/containers/0/readinessProbe/httpGet/path").asText()).isEqualTo("/healthz");
  }

  @Test
  void pinnedValuesGiveDigestsTheGlobalRegistryPullSecretsAndAnExistingPriorityClass() {
    List<JsonNode> docs = HelmChart.objects(List.of(HelmChart.CI.resolve("pinned-values.yaml")));
    assertThat(HelmChart.ofKind(docs, "PriorityClass")).as("an existing class is used, none created").isEmpty();
    JsonNode spec = HelmChart.ofKind(docs, "DaemonSet").get(0).at("/spec/template/spec");
    assertThat(spec.at("/containers/0/image").asText())
        .isEqualTo("registry.internal.example:5000/winstats/winstats-exporter-windows:0.1.0@sha256:" + "2".repeat(64));
    assertThat(spec.path("initContainers").isMissingNode()).as("firewall rule turned off").isTrue();
    assertThat(spec.path("priorityClassName").asText()).isEqualTo("system-node-critical");
    assertThat(spec.path("imagePullSecrets").findValuesAsText("name")).containsExactly("internal-pull", "extra-pull");
    assertThat(spec.at("/containers/0/volumeMounts/0/mountPath").asText()).isEqualTo("/etc/winstats-exporter/trust");
  }

  @Test
  void webConfigIsASecretBesideItsTlsKeysAndProbesAndMonitorsUseHttps() {
    List<JsonNode> docs = HelmChart.objects(List.of(HelmChart.CI.resolve("web-config-values.yaml")));
    JsonNode secret = HelmChart.ofKind(docs, "Secret").get(0);
    assertThat(secret.at("/stringData/web-config.yml").asText()).contains("cert_file: tls.crt", "basic_auth_users");
    JsonNode spec = HelmChart.ofKind(docs, "DaemonSet").get(0).at("/spec/template/spec");
    JsonNode c = spec.at("/containers/0");
    assertThat(c.path("args")).extracting(JsonNode::asText)
        .contains("--web.config.file=%CONTAINER_SANDBOX_MOUNT_POINT%/etc/winstats-exporter/web/web-config.yml");
    assertThat(c.at("/readinessProbe/httpGet/scheme").asText()).isEqualTo("HTTPS");
    assertThat(c.at("/volumeMounts/0/mountPath").asText()).isEqualTo("/etc/winstats-exporter/web");
    assertThat(spec.at("/volumes/0/projected/sources").findValuesAsText("name"))
        .containsExactly("winstats-exporter-web-config", "winstats-exporter-tls");
    assertThat(spec.at("/template/metadata/annotations").isMissingNode()).isTrue();
    assertThat(HelmChart.ofKind(docs, "DaemonSet").get(0).at("/spec/template/metadata/annotations/checksum~1web-config")
        .asText()).hasSize(64);
    JsonNode endpoint = HelmChart.ofKind(docs, "ServiceMonitor").get(0).at("/spec/endpoints/0");
    assertThat(endpoint.path("scheme").asText()).isEqualTo("https");
    assertThat(endpoint.at("/basicAuth/username/name").asText()).isEqualTo("winstats-scrape");
  }

  @Test
  void theLinuxDaemonSetAndPodMonitorsWhenAsked() {
    List<JsonNode> docs = HelmChart.objects(List.of(HelmChart.CI.resolve("linux-podmonitor-values.yaml")));
    assertThat(HelmChart.ofKind(docs, "DaemonSet")).extracting(d -> d.at("/metadata/name").asText())
        .containsExactly("winstats-exporter-linux", "winstats-exporter-windows");
    assertThat(HelmChart.ofKind(docs, "PodMonitor")).hasSize(2);
    assertThat(HelmChart.ofKind(docs, "ServiceMonitor")).isEmpty();
    JsonNode linux = HelmChart.ofKind(docs, "DaemonSet").get(0).at("/spec/template/spec/containers/0");
    assertThat(linux.path("args")).extracting(JsonNode::asText)
        .contains("--config.file=/etc/winstats-exporter/config/config.yml", "--cri.stats-call=ListContainerStats",
            "--node.source=procfs:/host/proc,rootfs=/host/root");
    JsonNode config = HelmChart.ofKind(docs, "ConfigMap").get(0);
    assertThat(config.at("/data/config.yml").asText()).contains("interval: 15s");
  }

  /** ci/linux-only-values.yaml: the Windows DaemonSet off, and every scheduling, pod, probe and monitor value set. */
  @Test
  void everySchedulingPodProbeAndMonitorValueLandsWhereItBelongs() {
    List<JsonNode> docs = HelmChart.objects(List.of(HelmChart.CI.resolve("linux-only-values.yaml")));
    assertThat(docs).extracting(d -> d.at("/metadata/name").asText()).as("nothing of the Windows DaemonSet")
        .noneMatch(n -> n.endsWith("-windows"));
    JsonNode ds = HelmChart.ofKind(docs, "DaemonSet").get(0);
    assertThat(ds.at("/metadata/name").asText()).isEqualTo("winstats-exporter-linux");
    assertThat(ds.at("/metadata/annotations/example.com~1rollout").asText()).isEqualTo("manual");
    assertThat(ds.at("/spec/revisionHistoryLimit").asInt()).isEqualTo(3);
    assertThat(ds.at("/spec/updateStrategy/type").asText()).isEqualTo("OnDelete");
    assertThat(ds.at("/spec/template/metadata/labels/team").asText()).isEqualTo("platform");
    assertThat(ds.at("/spec/template/metadata/annotations/example.com~1owner").asText()).isEqualTo("platform");
    JsonNode spec = ds.at("/spec/template/spec");
    assertThat(spec.path("serviceAccountName").asText()).isEqualTo("metrics-daemon");
    assertThat(spec.path("hostNetwork").asBoolean(true)).isFalse();
    assertThat(spec.path("dnsPolicy").isMissingNode()).as("ClusterFirst, the default, off the host network").isTrue();
    assertThat(spec.at("/nodeSelector/node-role.example~1metrics").asText()).isEqualTo("true");
    assertThat(spec.at("/tolerations/0/key").asText()).isEqualTo("dedicated");
    assertThat(spec.at("/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0"
        + "/matchExpressions/0/key").asText()).isEqualTo("kubernetes.io/arch");
    JsonNode c = spec.at("/containers/0");
    assertThat(c.path("args")).extracting(JsonNode::asText)
        .containsSubsequence("--web.listen-address=:9900", "--log.format=json", "--cri.endpoint=unix:///run/containerd/containerd.sock",
            "--sampling.interval=15s");
    assertThat(c.path("env").findValuesAsText("name")).containsExactly("NODE_NAME", "JAVA_TOOL_OPTIONS", "LINUX_ONLY");
    assertThat(c.at("/ports/0/containerPort").asInt()).isEqualTo(9900);
    assertThat(c.at("/readinessProbe/httpGet/port").asInt()).isEqualTo(9900);
    assertThat(c.at("/readinessProbe/periodSeconds").asInt()).isEqualTo(5);
    assertThat(c.at("/readinessProbe/failureThreshold").asInt()).isEqualTo(6);
    assertThat(c.at("/livenessProbe/initialDelaySeconds").asInt()).isEqualTo(60);
    assertThat(c.at("/resources/limits/memory").asText()).isEqualTo("320Mi");
    assertThat(HelmChart.ofKind(docs, "PriorityClass").get(0).path("value").asInt()).isEqualTo(500000);
    JsonNode sa = HelmChart.ofKind(docs, "ServiceAccount").get(0);
    assertThat(sa.at("/metadata/name").asText()).isEqualTo("metrics-daemon");
    assertThat(sa.at("/metadata/annotations/example.com~1purpose").asText()).isEqualTo("node metrics");
    JsonNode service = HelmChart.ofKind(docs, "Service").get(0);
    assertThat(service.at("/spec/ports/0/port").asInt()).isEqualTo(9900);
    assertThat(service.at("/metadata/annotations/example.com~1owner").asText()).isEqualTo("platform");

    JsonNode monitor = HelmChart.ofKind(docs, "ServiceMonitor").get(0);
    assertThat(monitor.at("/metadata/labels/release").asText()).isEqualTo("monitoring");
    assertThat(monitor.at("/spec/jobLabel").asText()).isEqualTo("example.com/job");
    assertThat(service.at("/metadata/labels/example.com~1job").asText()).as("the job the operator takes")
        .isEqualTo("node-metrics");
    assertThat(monitor.at("/spec/sampleLimit").asInt()).isEqualTo(50000);
    JsonNode endpoint = monitor.at("/spec/endpoints/0");
    assertThat(monitor.at("/spec/endpoints")).as("no stock jobs for Linux").hasSize(1);
    assertThat(endpoint.path("interval").asText()).isEqualTo("15s");
    assertThat(endpoint.path("scrapeTimeout").asText()).isEqualTo("5s");
    assertThat(endpoint.path("relabelings").findValuesAsText("targetLabel"))
        .as("the user's relabelings after the chart's").containsExactly("instance", "os", "cluster");
    assertThat(endpoint.at("/metricRelabelings/0/regex").asText()).isEqualTo("go_.+");
    assertThat(HelmChart.ofKind(docs, "PrometheusRule").get(0).at("/metadata/labels/release").asText())
        .isEqualTo("monitoring");
    for (JsonNode cm : HelmChart.ofKind(docs, "ConfigMap")) {
      assertThat(cm.at("/metadata/labels/grafana_dashboard_winstats").asText()).isEqualTo("yes");
      assertThat(cm.at("/metadata/annotations/grafana_folder").asText()).isEqualTo("Nodes");
    }
  }

  @Test
  void thePresetLabelsEverythingForKubePrometheusStackAndBundlesTheRulesAndDashboards() throws IOException {
    List<JsonNode> docs = HelmChart.objects(List.of(HelmChart.PRESET));
    JsonNode monitor = HelmChart.ofKind(docs, "ServiceMonitor").get(0);
    assertThat(monitor.at("/metadata/labels/release").asText()).isEqualTo("kube-prometheus-stack");
    assertThat(monitor.at("/spec/namespaceSelector").isMissingNode()).as("follows the release namespace").isTrue();
    assertThat(monitor.at("/spec/endpoints").findValuesAsText("path"))
        .containsExactly("/metrics", "/metrics", "/metrics/cadvisor");
    JsonNode rule = HelmChart.ofKind(docs, "PrometheusRule").get(0);
    assertThat(rule.at("/metadata/labels/release").asText()).isEqualTo("kube-prometheus-stack");
    Set<String> groups = new TreeSet<>(rule.at("/spec/groups").findValuesAsText("name"));
    Set<String> bundled = new TreeSet<>();
    for (Path f : Rules.files()) {
      bundled.addAll(Rules.YAML.readTree(f.toFile()).path("groups").findValuesAsText("name"));
    }
    assertThat(groups).as("the PrometheusRule holds the rule files' groups").isEqualTo(bundled);
    assertThat(rule.at("/spec/groups").toString()).contains("\"expr\"");
    List<JsonNode> dashboards = HelmChart.ofKind(docs, "ConfigMap");
    assertThat(dashboards).hasSize(Dashboards.files().size());
    for (JsonNode cm : dashboards) {
      assertThat(cm.at("/metadata/labels/grafana_dashboard").asText()).isEqualTo("1");
      Map.Entry<String, JsonNode> file = cm.path("data").fields().next();
      assertThat(Dashboards.files()).contains(file.getKey());
      assertThat(Rules.YAML.readTree(file.getValue().asText()))
          .as("the dashboard as the module has it").isEqualTo(Dashboards.read(file.getKey()));
    }
  }

  static Stream<List<String>> badValues() {
    return Stream.of(
        List.of("windows:\n  nodeSelecter: {kubernetes.io/os: windows}\n", "/windows", "nodeSelecter"),
        List.of("service:\n  port: \"9844\"\n", "/service/port", "string"),
        List.of("windows:\n  resources:\n    limits: {memory: lots}\n", "/windows/resources/limits/memory", ""),
        List.of("prometheus:\n  monitor:\n    interval: 30\n", "/prometheus/monitor/interval", "number"),
        List.of("extraArgs: [\"cri.timeout=5s\"]\n", "/extraArgs/0", ""),
        List.of("image:\n  digest: latest\n", "/image/digest", ""),
        List.of("tolerations:\n  key: dedicated\n", "/tolerations", "array"),
        List.of("updateStrategy:\n  type: Rolling\n", "/updateStrategy/type", "RollingUpdate"),
        // Prometheus' own spelling, not the operator's
        List.of("prometheus:\n  monitor:\n    relabelings: [{target_label: cluster, replacement: lab}]\n",
            "/prometheus/monitor/relabelings/0", "target_label"));
  }

  /** The community charts' top-level pod values, which this chart takes per DaemonSet: refused with where they go. */
  static Stream<List<String>> perDaemonSetValuesAtTheTop() {
    return Stream.of(
        List.of("resources:\n  limits: {memory: 300Mi}\n", "resources: each DaemonSet has its own here: set windows.resources and/or linux.resources"),
        List.of("nodeSelector: {pool: metrics}\n", "set windows.nodeSelector and/or linux.nodeSelector"),
        List.of("hostNetwork: false\n", "for the Linux pods set linux.hostNetwork"));
  }

  @ParameterizedTest
  @MethodSource("perDaemonSetValuesAtTheTop")
  void theCommunityChartsTopLevelPodValuesAreRefusedWithWhereTheyGo(List<String> bad, @TempDir Path dir)
      throws IOException {
    Path values = Files.writeString(dir.resolve("top.yaml"), bad.get(0));
    assertThatThrownBy(() -> HelmChart.template(List.of(values))).hasMessageContaining(bad.get(1));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void badValuesFailOnTheSchemaWithThePathOfTheValue(List<String> bad, @TempDir Path dir) throws IOException {
    Path values = Files.writeString(dir.resolve("bad.yaml"), bad.get(0));
    assertThatThrownBy(() -> HelmChart.template(List.of(values)))
        .hasMessageContaining("values don't meet the specifications of the schema")
        .hasMessageContaining(bad.get(1))
        .hasMessageContaining(bad.get(2));
  }

  @Test
  void aServiceMonitorAndAPodMonitorTogetherAreRefused(@TempDir Path dir) throws IOException {
    Path values =
        Files.writeString(dir.resolve("both.yaml"), "prometheus:\n  monitor: {enabled: true}\n  podMonitor: {enabled: true}\n");
    assertThatThrownBy(() -> HelmChart.template(List.of(values))).hasMessageContaining("scraped twice");
  }
}
