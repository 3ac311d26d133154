package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every manifest under {@code deploy/kubernetes} (the chart's rendered output, KustomizeBaseTest) parses, has the
 * fields its kind requires, and fits the others:
 * the DaemonSets' flags are flags the real jar accepts, the Service and the monitors select the DaemonSets' pods and
 * name ports that exist. kubectl is not used: its client-side dry run still needs an API server for discovery, and
 * none runs here.
 */
class KubernetesManifestsTest {
  static final Path DIR = Path.of("..", "deploy", "kubernetes");
  private static final List<JsonNode> DOCS = new ArrayList<>();

  @BeforeAll
  static void parseAll() throws IOException {
    DOCS.addAll(ManifestSchemaTest.manifests());
    assertThat(DOCS).isNotEmpty();
  }

  @Test
  void everyDocumentHasApiVersionKindAndNameAndNoNamespace() {
    assertThat(kinds())
        .containsExactlyInAnyOrder("ServiceAccount", "DaemonSet", "DaemonSet", "Service", "Service",
            "PodMonitor", "PodMonitor", "ServiceMonitor", "ServiceMonitor");
    for (JsonNode d : DOCS) {
      assertThat(d.path("apiVersion").asText()).as("apiVersion of %s", d.path("kind")).isNotBlank();
      assertThat(d.at("/metadata/name").asText()).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
      // The overlay's namespace (or kubectl -n) places everything; nothing is pinned to a shared namespace.
      assertThat(d.at("/metadata/namespace").isMissingNode()).as("namespace of %s", d.at("/metadata/name")).isTrue();
      assertThat(d.at("/metadata/labels/app.kubernetes.io~1name").asText()).isEqualTo("winstats-exporter");
    }
    assertThat(one("ServiceAccount").path("automountServiceAccountToken").asBoolean(true)).isFalse();
    for (JsonNode ds : all("DaemonSet")) {
      // As the chart's defaults: no cluster-scoped class, so a namespace-scoped installer can apply the base.
      assertThat(ds.at("/spec/template/spec/priorityClassName").isMissingNode()).isTrue();
    }
  }

  @Test
  void windowsDaemonSetIsAHostProcessPodOnWindowsNodes() throws IOException {
    JsonNode spec = daemonSet("windows").at("/spec/template/spec");
    assertThat(spec.at("/nodeSelector/kubernetes.io~1os").asText()).isEqualTo("windows");
    assertThat(spec.at("/securityContext/windowsOptions/hostProcess").asBoolean()).isTrue();
    assertThat(spec.at("/securityContext/windowsOptions/runAsUserName").asText()).isEqualTo("NT AUTHORITY\\SYSTEM");
    assertThat(spec.path("hostNetwork").asBoolean()).isTrue();
    JsonNode c = spec.at("/containers/0");
    assertThat(c.path("args")).extracting(JsonNode::asText)
        .contains("--cri.endpoint=npipe:////./pipe/containerd-containerd", "--web.listen-address=:9844");
    // The JVM does not read Windows job-object limits: the heap cap must come from the options file the command loads.
    assertThat(c.path("command")).extracting(JsonNode::asText).contains("@%CONTAINER_SANDBOX_MOUNT_POINT%\\jvm.options");
    assertThat(Files.readAllLines(Path.of("..", "deploy", "jvm.options"))).anyMatch(l -> l.strip().matches("-Xmx\\d+m"));
    assertNodeNameFromSpec(c);
    assertSized(c);
  }

  @Test
  void linuxDaemonSetReadsHostProcAndTheContainerdSocket() {
    JsonNode spec = daemonSet("linux").at("/spec/template/spec");
    assertThat(spec.at("/nodeSelector/kubernetes.io~1os").asText()).isEqualTo("linux");
    assertThat(spec.path("hostPID").asBoolean(false)).isFalse();
    assertThat(spec.path("hostNetwork").asBoolean()).isTrue();
    JsonNode c = spec.at("/containers/0");
    assertThat(c.path("args")).extracting(JsonNode::asText)
        .contains("--node.source=procfs:/host/proc,rootfs=/host/root", "--cri.endpoint=unix:///run/containerd/containerd.sock",
            "--web.listen-address=:9844");
    Map<String, JsonNode> mounts = new HashMap<>();
    c.path("volumeMounts").forEach(m -> mounts.put(m.path("mountPath").asText(), m));
    Map<String, String> hostPaths = new HashMap<>();
    spec.path("volumes").forEach(v -> hostPaths.put(v.path("name").asText(), v.at("/hostPath/path").asText()));
    assertThat(mounts.get("/host/proc").path("readOnly").asBoolean()).isTrue();
    assertThat(hostPaths.get(mounts.get("/host/proc").path("name").asText())).isEqualTo("/proc");
    // rootfs=/host/root: the node's filesystems; CRI's host paths at their own paths, read-only.
    for (String[] m : new String[][] {{"/host/root", "/"}, {"/var/lib/containerd", "/var/lib/containerd"}, {"/var/log/pods", "/var/log/pods"}}) {
      assertThat(mounts.get(m[0])).as(m[0]).isNotNull();
      assertThat(mounts.get(m[0]).path("readOnly").asBoolean()).as(m[0] + " read-only").isTrue();
      assertThat(hostPaths.get(mounts.get(m[0]).path("name").asText())).isEqualTo(m[1]);
    }
    assertThat(hostPaths.get(mounts.get("/run/containerd/containerd.sock").path("name").asText()))
        .isEqualTo("/run/containerd/containerd.sock");
    assertThat(c.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
    assertNodeNameFromSpec(c);
    assertSized(c);
  }

  @Test
  void everyFlagInTheManifestsIsAFlagTheDaemonAccepts() {
    List<String> flags = new ArrayList<>();
    for (JsonNode ds : all("DaemonSet")) {
      for (JsonNode c : ds.at("/spec/template/spec/containers")) {
        for (JsonNode a : c.path("args")) {
          assertThat(a.asText()).as("daemon args are --flag=value").startsWith("--").contains("=");
          flags.add(a.asText().substring(2, a.asText().indexOf('=')));
        }
        for (JsonNode a : c.path("command")) {
          assertThat(a.asText()).as("no daemon flags in command, only JVM ones").doesNotStartWith("--");
        }
      }
    }
    assertThat(flags).hasSizeGreaterThanOrEqualTo(6);
    assertThat(DaemonFlags.accepted()).containsAll(flags);
  }

  @Test
  void serviceAndMonitorsSelectTheDaemonPodsAndNameTheirPort() {
    for (JsonNode ds : all("DaemonSet")) {
      JsonNode podLabels = ds.at("/spec/template/metadata/labels");
      String os = podLabels.path("app.kubernetes.io/component").asText();
      assertThat(matches(ds.at("/spec/selector/matchLabels"), podLabels)).isTrue();
      JsonNode service = ofComponent("Service", os);
      assertThat(matches(service.at("/spec/selector"), podLabels)).as("Service selects %s", ds.at("/metadata/name")).isTrue();
      assertThat(matches(ofComponent("PodMonitor", os).at("/spec/selector/matchLabels"), podLabels)).isTrue();
      assertThat(matches(ofComponent("ServiceMonitor", os).at("/spec/selector/matchLabels"), service.at("/metadata/labels"))).isTrue();
      assertThat(ds.at("/spec/template/spec/containers/0/ports/0/name").asText()).isEqualTo("metrics");
      assertThat(ds.at("/spec/template/spec/containers/0/ports/0/containerPort").asInt()).isEqualTo(9844);
      assertThat(service.at("/spec/ports/0/name").asText()).isEqualTo("metrics");
      assertThat(service.at("/spec/ports/0/port").asInt()).isEqualTo(9844);
      assertThat(podLabels.path("app.kubernetes.io/name").asText()).isEqualTo("winstats-exporter");
    }
    for (JsonNode monitor : concat(all("PodMonitor"), all("ServiceMonitor"))) {
      assertThat(monitor.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
      assertThat(monitor.at("/spec/jobLabel").asText()).isEqualTo("app.kubernetes.io/name");
      assertThat(monitor.at("/spec/namespaceSelector").isMissingNode()).as("follows its own namespace").isTrue();
      JsonNode endpoint = monitor.at("/spec/podMetricsEndpoints/0").isMissingNode()
          ? monitor.at("/spec/endpoints/0")
          : monitor.at("/spec/podMetricsEndpoints/0");
      assertThat(endpoint.path("port").asText()).isEqualTo("metrics");
      JsonNode relabelings = endpoint.path("relabelings");
      assertThat(relabelings.toString()).contains("__meta_kubernetes_pod_node_name", "\"targetLabel\":\"instance\"");
      assertThat(relabelings.toString()).contains("labeldrop").contains("namespace|").contains("pod|");
    }
  }

  /** The base is the chart's default (Windows only); linux/, applied beside it, adds the Linux DaemonSet. */
  @Test
  void theBaseIsWindowsOnlyAndTheLinuxOverlayAddsLinux() throws IOException {
    assertThat(Files.readString(DIR.resolve("daemonset-windows.yaml"))).contains("kind: DaemonSet");
    assertThat(DIR.resolve("daemonset-linux.yaml")).as("the base installs nothing on Linux nodes, as the chart").doesNotExist();
    assertThat(Files.readString(DIR.resolve("linux").resolve("daemonset-linux.yaml"))).contains("kind: DaemonSet");
    JsonNode base = Rules.YAML.readTree(DIR.resolve("kustomization.yaml").toFile());
    assertThat(base.path("resources").toString()).doesNotContain("linux");
  }

  @Test
  void imagesAreFullyQualifiedAndKustomizeSetsEachOfThem() throws IOException {
    List<String> overridden = new ArrayList<>();
    for (Path dir : List.of(DIR, DIR.resolve("linux"))) {
      JsonNode kustomization = Rules.YAML.readTree(dir.resolve("kustomization.yaml").toFile());
      kustomization.path("images").forEach(i -> overridden.add(i.path("name").asText()));
      List<String> resources = new ArrayList<>();
      kustomization.path("resources").forEach(r -> resources.add(r.asText()));
      try (Stream<Path> s = Files.list(dir)) {
        assertThat(resources)
            .as("%s/kustomization.yaml lists every manifest beside it", dir)
            .containsExactlyInAnyOrderElementsOf(
                s.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml"))
                    .toList());
      }
    }
    for (JsonNode ds : all("DaemonSet")) {
      JsonNode spec = ds.at("/spec/template/spec");
      for (JsonNode c : concat(spec.path("initContainers"), spec.path("containers"))) {
        String image = c.path("image").asText();
        // registry host (with a dot), repository, tag: nothing left to a node's default registry.
        assertThat(image).as("image of %s", c.path("name")).matches("[a-z0-9-]+(\\.[a-z0-9-]+)+(:\\d+)?/[a-z0-9/._-]+:[\\w.-]+");
        assertThat(overridden).as("kustomize sets %s", image).contains(image.substring(0, image.lastIndexOf(':')));
      }
    }
  }

  @Test
  void windowsFirewallRuleIsAddedOnceForTheListenPortAndDocumentedWithItsRemoval() throws IOException {
    JsonNode spec = daemonSet("windows").at("/spec/template/spec");
    assertThat(spec.path("initContainers")).hasSize(1);
    JsonNode init = spec.at("/initContainers/0");
    // HostProcess at pod level: the init container runs the host's PowerShell as SYSTEM too.
    assertThat(init.at("/securityContext/windowsOptions/hostProcess").isMissingNode()).isTrue();
    assertThat(init.at("/command/0").asText()).isEqualTo("powershell.exe");
    String script = init.at("/command/" + (init.path("command").size() - 1)).asText();
    String rule = "-Name 'winstats-exporter-9844'";
    assertThat(script.indexOf("Get-NetFirewallRule " + rule)).as("looks the rule up first").isNotNegative()
        .isLessThan(script.indexOf("New-NetFirewallRule " + rule));
    assertThat(script).contains("-Direction Inbound", "-Action Allow", "-Protocol TCP", "-LocalPort 9844");
    JsonNode daemon = spec.at("/containers/0");
    assertThat(daemon.path("args")).extracting(JsonNode::asText).contains("--web.listen-address=:9844");
    assertThat(daemon.at("/ports/0/containerPort").asInt()).isEqualTo(9844);
    String deployment = Files.readString(Path.of("..", "docs", "DEPLOYMENT.md"));
    assertThat(deployment)
        .as("DEPLOYMENT.md: the same rule for the WinSW service, and how to remove it")
        .contains("New-NetFirewallRule -Name 'winstats-exporter-9844'", "Remove-NetFirewallRule -Name winstats-exporter-9844")
        .contains("--web.listen-address=:9844");
  }

  private static JsonNode ofComponent(String kind, String os) {
    return all(kind).stream()
        .filter(d -> d.at("/metadata/labels/app.kubernetes.io~1component").asText().equals(os))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " for " + os));
  }

  private static List<JsonNode> concat(Iterable<JsonNode> a, Iterable<JsonNode> b) {
    List<JsonNode> all = new ArrayList<>();
    a.forEach(all::add);
    b.forEach(all::add);
    return all;
  }

  private static void assertNodeNameFromSpec(JsonNode container) {
    boolean found = false;
    for (JsonNode e : container.path("env")) {
      if (e.path("name").asText().equals("NODE_NAME")) {
        assertThat(e.at("/valueFrom/fieldRef/fieldPath").asText()).isEqualTo("spec.nodeName");
        found = true;
      }
    }
    assertThat(found).as("env NODE_NAME").isTrue();
  }

  private static void assertSized(JsonNode container) {
    assertThat(container.at("/resources/requests/cpu").asText()).matches("\\d+m");
    assertThat(container.at("/resources/requests/memory").asText()).matches("\\d+Mi");
    assertThat(container.at("/resources/limits/memory").asText()).matches("\\d+Mi");
    assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/healthz");
  }

  private static boolean matches(JsonNode selector, JsonNode labels) {
    assertThat(selector.isObject() && !selector.isEmpty()).as("selector %s", selector).isTrue();
    var it = selector.fields();
    while (it.hasNext()) {
      var e = it.next();
      if (!labels.path(e.getKey()).asText().equals(e.getValue().asText())) {
        return false;
      }
    }
    return true;
  }

  private static List<String> kinds() {
    return DOCS.stream().map(d -> d.path("kind").asText()).toList();
  }

  private static List<JsonNode> all(String kind) {
    return DOCS.stream().filter(d -> d.path("kind").asText().equals(kind)).toList();
  }

  private static JsonNode one(String kind) {
    List<JsonNode> found = all(kind);
    assertThat(found).as(kind).hasSize(1);
    return found.get(0);
  }

  private static JsonNode daemonSet(String os) {
    return all("DaemonSet").stream()
        .filter(d -> d.at("/metadata/name").asText().equals("winstats-exporter-" + os))
        .findFirst()
        .orElseThrow();
  }
}
