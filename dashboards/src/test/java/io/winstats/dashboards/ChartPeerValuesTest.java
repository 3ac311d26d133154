package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The values the prometheus-community exporter charts (prometheus-windows-exporter, prometheus-node-exporter) take,
 * rendered by the real Helm engine: each lands where this chart takes it (ci/peer-values.yaml), the ones it takes
 * elsewhere are refused with where they go, a flag the chart sets cannot be repeated in extraArgs, and no
 * PriorityClass is created unless asked.
 */
class ChartPeerValuesTest {
  private static final Path PEER = HelmChart.CI.resolve("peer-values.yaml");

  private static JsonNode daemonSet(List<JsonNode> docs, String os) {
    return HelmChart.ofKind(docs, "DaemonSet").stream()
        .filter(d -> d.at("/metadata/name").asText().endsWith("-" + os))
        .findFirst()
        .orElseThrow();
  }

  private static List<String> names(JsonNode containers) {
    List<String> out = new ArrayList<>();
    containers.forEach(c -> out.add(c.path("name").asText()));
    return out;
  }

  @Test
  void namespaceReleaseLabelAndDnsLandOnEveryObjectAndPod() {
    List<JsonNode> docs = HelmChart.objects(List.of(PEER));
    for (JsonNode doc : docs) {
      String kind = doc.path("kind").asText();
      if (!HelmChart.CLUSTER_SCOPED.contains(kind)) {
        assertThat(doc.at("/metadata/namespace").asText()).as("namespace of %s", kind).isEqualTo("metrics");
      }
      assertThat(doc.at("/metadata/labels/release").asText()).as("release label of %s", kind)
          .isEqualTo(HelmChart.RELEASE);
    }
    for (String os : List.of("windows", "linux")) {
      JsonNode spec = daemonSet(docs, os).at("/spec/template/spec");
      assertThat(spec.at("/dnsConfig/options/0/name").asText()).as(os).isEqualTo("ndots");
      assertThat(spec.path("priorityClassName").asText()).as("the chart's own class, named after its namespace")
          .isEqualTo("metrics-winstats-exporter");
    }
    assertThat(HelmChart.ofKind(docs, "PriorityClass")).singleElement()
        .satisfies(p -> assertThat(p.at("/metadata/name").asText()).isEqualTo("metrics-winstats-exporter"));
  }

  @Test
  void securityContextsSidecarsAndInitContainersArePerDaemonSet() {
    List<JsonNode> docs = HelmChart.objects(List.of(PEER));
    JsonNode windows = daemonSet(docs, "windows").at("/spec/template/spec");
    assertThat(windows.at("/securityContext/windowsOptions/hostProcess").asBoolean()).isTrue();
    assertThat(windows.at("/containers/0/securityContext/windowsOptions/hostProcess").asBoolean()).isTrue();
    assertThat(names(windows.path("initContainers"))).containsExactly("open-firewall", "wait-for-containerd");
    assertThat(names(windows.path("containers"))).containsExactly("winstats-exporter", "textfile-writer");

    JsonNode linux = daemonSet(docs, "linux").at("/spec/template/spec");
    assertThat(linux.at("/securityContext/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
    assertThat(linux.at("/securityContext/supplementalGroups/0").asInt()).isEqualTo(1000);
    assertThat(linux.at("/containers/0/securityContext/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
    assertThat(names(linux.path("initContainers"))).containsExactly("wait-for-containerd");
    assertThat(names(linux.path("containers"))).containsExactly("winstats-exporter", "kube-rbac-proxy", "log-shipper");
  }

  /** The defaults keep the Linux pod's old container context and add RuntimeDefault seccomp at the pod. */
  @Test
  void theLinuxDefaultsAreRuntimeDefaultSeccompAndTheOldContainerContext(@TempDir Path dir) throws IOException {
    Path linux = Files.writeString(dir.resolve("linux.yaml"), "linux:\n  enabled: true\n");
    JsonNode spec = daemonSet(HelmChart.objects(List.of(linux)), "linux").at("/spec/template/spec");
    assertThat(spec.at("/securityContext/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
    JsonNode c = spec.at("/containers/0/securityContext");
    assertThat(c.path("runAsUser").asInt(-1)).isZero();
    assertThat(c.path("readOnlyRootFilesystem").asBoolean()).isTrue();
    assertThat(c.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
    assertThat(c.at("/capabilities/drop/0").asText()).isEqualTo("ALL");
    assertThat(spec.path("automountServiceAccountToken").asBoolean(true)).as("no token without the proxy").isFalse();
  }

  /** The notes print the uninstall's firewall clean-up with the release, namespace and port of this install. */
  @Test
  void theNotesPrintTheFirewallRulesRemovalBeforeTheUninstall() {
    String out = HelmChart.installDryRun("metrics", HelmChart.DIR, "mon", List.of(),
        java.util.Map.of("service.port", "9900"));
    assertThat(out)
        .contains("-l app.kubernetes.io/instance=metrics,app.kubernetes.io/component=windows -o name")
        .contains("kubectl -n mon exec {} -c winstats-exporter -- powershell.exe")
        .contains("Remove-NetFirewallRule -Name winstats-exporter-9900")
        .contains("helm uninstall metrics -n mon");
    String without = HelmChart.installDryRun("metrics", HelmChart.DIR, "mon", List.of(),
        java.util.Map.of("windows.firewallRule.enabled", "false"));
    assertThat(without).doesNotContain("Remove-NetFirewallRule");
  }

  /** docs/DEPLOYMENT.md's canary: OnDelete with the default rollingUpdate removed renders a strategy the API accepts. */
  @Test
  void onDeleteWithoutRollingUpdateRendersForTheCanary() {
    List<JsonNode> docs = HelmChart.parse(HelmChart.template(HelmChart.NAMESPACE, List.of(),
        java.util.Map.of("updateStrategy.type", "OnDelete", "updateStrategy.rollingUpdate", "null")));
    JsonNode strategy = daemonSet(docs, "windows").at("/spec/updateStrategy");
    assertThat(strategy.path("type").asText()).isEqualTo("OnDelete");
    assertThat(strategy.has("rollingUpdate")).as("the API refuses rollingUpdate with OnDelete: %s", strategy).isFalse();
  }

  /** The proxy on a Windows-only install would render nothing: the notes say so instead of nothing. */
  @Test
  void kubeRbacProxyWithoutTheLinuxDaemonSetIsNamedInTheNotes() {
    String out = HelmChart.installDryRun("winstats-exporter", HelmChart.DIR, "winstats-exporter", List.of(),
        java.util.Map.of("kubeRBACProxy.enabled", "true"));
    assertThat(out).contains("kubeRBACProxy.enabled=true has no effect");
    String withLinux = HelmChart.installDryRun("winstats-exporter", HelmChart.DIR, "winstats-exporter", List.of(),
        java.util.Map.of("kubeRBACProxy.enabled", "true", "linux.enabled", "true"));
    assertThat(withLinux).doesNotContain("has no effect");
  }

  /**
   * kube-rbac-proxy (the image prometheus-node-exporter's chart pins) serves the port over HTTPS; the daemon listens
   * on loopback behind it, /healthz passes unchecked for the probes, and the proxy may review tokens.
   */
  @Test
  void kubeRbacProxyFrontsTheLinuxDaemonOnly() {
    List<JsonNode> docs = HelmChart.objects(List.of(PEER));
    JsonNode linux = daemonSet(docs, "linux").at("/spec/template/spec");
    JsonNode daemon = linux.at("/containers/0");
    JsonNode proxy = linux.at("/containers/1");
    assertThat(daemon.path("args")).extracting(JsonNode::asText).contains("--web.listen-address=127.0.0.1:9845");
    assertThat(daemon.path("ports").isMissingNode()).as("only the proxy's port is exposed").isTrue();
    assertThat(proxy.path("image").asText()).isEqualTo("quay.io/brancz/kube-rbac-proxy:v0.22.1");
    assertThat(proxy.path("args")).extracting(JsonNode::asText)
        .containsExactly("--secure-listen-address=:9844", "--upstream=http://127.0.0.1:9845/", "--ignore-paths=/healthz");
    assertThat(proxy.at("/ports/0/name").asText()).isEqualTo("metrics");
    assertThat(daemon.at("/readinessProbe/httpGet/scheme").asText()).isEqualTo("HTTPS");
    assertThat(daemon.at("/readinessProbe/httpGet/port").asInt()).isEqualTo(9844);
    assertThat(linux.path("automountServiceAccountToken").asBoolean()).isTrue();
    JsonNode binding = HelmChart.ofKind(docs, "ClusterRoleBinding").get(0);
    assertThat(binding.at("/subjects/0/namespace").asText()).isEqualTo("metrics");
    assertThat(binding.at("/roleRef/name").asText())
        .isEqualTo(HelmChart.ofKind(docs, "ClusterRole").get(0).at("/metadata/name").asText());
    assertThat(HelmChart.ofKind(docs, "ClusterRole").get(0).at("/rules").toString())
        .contains("tokenreviews", "subjectaccessreviews");

    JsonNode windows = daemonSet(docs, "windows").at("/spec/template/spec");
    assertThat(windows.at("/containers/0/args")).extracting(JsonNode::asText).contains("--web.listen-address=:9844");
    assertThat(windows.at("/containers/0/readinessProbe/httpGet/scheme").asText()).isEqualTo("HTTP");
    for (JsonNode monitor : HelmChart.ofKind(docs, "ServiceMonitor")) {
      String os = monitor.at("/metadata/labels/app.kubernetes.io~1component").asText();
      assertThat(monitor.at("/spec/endpoints/0/scheme").asText()).as(os).isEqualTo(os.equals("linux") ? "https" : "http");
    }
  }

  @Test
  void aPriorityClassOnlyWhenAskedAndNeverTheSameForTwoNamespaces(@TempDir Path dir) throws IOException {
    Path existing = Files.writeString(dir.resolve("existing.yaml"), "priorityClassName: system-node-critical\n");
    List<JsonNode> docs = HelmChart.objects(List.of(existing));
    assertThat(HelmChart.ofKind(docs, "PriorityClass")).isEmpty();
    assertThat(daemonSet(docs, "windows").at("/spec/template/spec/priorityClassName").asText())
        .isEqualTo("system-node-critical");
    Path create = Files.writeString(dir.resolve("create.yaml"), "priorityClass:\n  create: true\n");
    Set<String> names = new LinkedHashSet<>();
    for (String ns : List.of("team-a", "team-b")) {
      for (JsonNode p : HelmChart.ofKind(HelmChart.parse(HelmChart.template(ns, List.of(create), Map.of())), "PriorityClass")) {
        names.add(p.at("/metadata/name").asText());
      }
    }
    assertThat(names).as("one release name in two namespaces").containsExactly(
        "team-a-winstats-exporter", "team-b-winstats-exporter");
  }

  /**
   * Every flag the chart passes to the daemon, repeated in any of the three extraArgs, is refused at render with the
   * value to set instead (the daemon would exit 2, "given twice", on every node). The flags are read from rendered
   * DaemonSets with every optional one on, so that a flag the chart starts to set is covered here by itself.
   */
  @Test
  void everyFlagTheChartSetsIsRefusedInExtraArgsWithTheValueToSet(@TempDir Path dir) throws IOException {
    Path all = Files.writeString(dir.resolve("all.yaml"),
        "linux:\n  enabled: true\nconfig:\n  sampling: {interval: 15s}\nwebConfig:\n  existingSecret: web\n");
    Set<String> chartFlags = new LinkedHashSet<>();
    for (JsonNode ds : HelmChart.ofKind(HelmChart.objects(List.of(all)), "DaemonSet")) {
      for (JsonNode a : ds.at("/spec/template/spec/containers/0/args")) {
        chartFlags.add(a.asText().substring(0, a.asText().indexOf('=')));
      }
    }
    assertThat(chartFlags).contains("--web.listen-address", "--cri.endpoint", "--node.source", "--config.file",
        "--web.config.file");
    for (String flag : chartFlags) {
      for (String where : List.of("extraArgs", "windows.extraArgs", "linux.extraArgs")) {
        String yaml = where.contains(".")
            ? where.substring(0, where.indexOf('.')) + ":\n  enabled: true\n  extraArgs: [\"" + flag + "=x\"]\n"
            : "extraArgs: [\"" + flag + "=x\"]\n";
        Path bad = Files.writeString(dir.resolve("bad.yaml"), yaml);
        assertThatThrownBy(() -> HelmChart.template(List.of(bad)))
            .as("%s in %s", flag, where)
            .hasMessageContaining(where + ": " + flag + " is set by the chart; set ");
      }
    }
    Path listen = Files.writeString(dir.resolve("listen.yaml"), "extraArgs: [\"--web.listen-address=:9100\"]\n");
    assertThatThrownBy(() -> HelmChart.template(List.of(listen))).hasMessageContaining("set service.port");
    Path other = Files.writeString(dir.resolve("other.yaml"), "extraArgs: [\"--log.format=json\"]\n");
    assertThat(HelmChart.template(List.of(other))).as("a flag the chart does not set passes").contains("--log.format=json");
  }

  static Stream<List<String>> peerKeys() {
    return Stream.of(
        List.of("securityContext:\n  runAsNonRoot: true\n", "windows.securityContext and/or linux.securityContext"),
        List.of("containerSecurityContext:\n  readOnlyRootFilesystem: true\n", "linux.containerSecurityContext"),
        List.of("sidecars:\n  - {name: a, image: b}\n", "set windows.sidecars and/or linux.sidecars"),
        List.of("extraInitContainers:\n  - {name: a, image: b}\n", "linux.extraInitContainers"),
        List.of("hostPID: true\n", "system-wide files of /proc"),
        List.of("extraHostVolumeMounts: []\n", "extraVolumes"),
        List.of("configureFirewall:\n  resources: {}\n", "windows.firewallRule.enabled"),
        List.of("rbac:\n  create: true\n", "kubeRBACProxy.enabled"),
        List.of("tlsSecret:\n  enabled: true\n", "webConfig.tlsSecret"),
        List.of("hostRootFsMount:\n  enabled: false\n", "/host/root"));
  }

  @ParameterizedTest
  @MethodSource("peerKeys")
  void aPeerChartsKeyIsRefusedWithWhereItGoes(List<String> bad, @TempDir Path dir) throws IOException {
    Path values = Files.writeString(dir.resolve("peer.yaml"), bad.get(0));
    String key = bad.get(0).substring(0, bad.get(0).indexOf(':'));
    assertThatThrownBy(() -> HelmChart.template(List.of(values)))
        .hasMessageContaining(key + ": ")
        .hasMessageContaining(bad.get(1))
        .hasMessageNotContaining("values don't meet the specifications of the schema");
  }

  @Test
  void theWindowsPodStaysAHostProcessPod(@TempDir Path dir) throws IOException {
    Path values = Files.writeString(dir.resolve("w.yaml"),
        "windows:\n  securityContext:\n    windowsOptions: {hostProcess: false}\n");
    assertThatThrownBy(() -> HelmChart.template(List.of(values))).hasMessageContaining("hostProcess");
  }
}
