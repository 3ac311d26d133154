package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every built-in object of the kustomize base under {@code deploy/kubernetes} against the Kubernetes 1.32 API schema
 * ({@link KubernetesSchema}), including the HostProcess {@code securityContext.windowsOptions}; the chart's objects
 * are checked the same way by HelmChartTest. kustomization.yaml is kustomize's own file.
 */
class ManifestSchemaTest {
  /** Every document of every manifest file of deploy/kubernetes but kustomization.yaml, in file order. */
  static List<JsonNode> manifests() throws IOException {
    List<JsonNode> docs = new ArrayList<>();
    try (Stream<Path> s = Files.walk(KubernetesManifestsTest.DIR)) {
      for (Path f :
          s.filter(p -> p.toString().matches(".*\\.ya?ml") && !p.endsWith("kustomization.yaml")).sorted().toList()) {
        try (MappingIterator<JsonNode> it = Rules.YAML.readerFor(JsonNode.class).readValues(f.toFile())) {
          while (it.hasNext()) {
            JsonNode doc = it.next();
            if (doc != null && !doc.isEmpty()) {
              docs.add(doc);
            }
          }
        }
      }
    }
    return docs;
  }

  @Test
  void everyBuiltInManifestMatchesTheKubernetesSchema() throws IOException {
    List<String> checked = new ArrayList<>();
    for (JsonNode doc : manifests()) {
      if (KubernetesSchema.isCustom(doc)) {
        continue;
      }
      KubernetesSchema.validate(doc);
      checked.add(HelmChart.kindOf(doc) + " " + doc.at("/metadata/name").asText());
    }
    assertThat(checked)
        .containsExactlyInAnyOrder(
            "apps/v1 DaemonSet winstats-exporter-windows",
            "apps/v1 DaemonSet winstats-exporter-linux",
            "v1 Service winstats-exporter-windows",
            "v1 Service winstats-exporter-linux",
            "v1 ServiceAccount winstats-exporter");
  }

  @Test
  void theSchemaRejectsAMisspelledHostProcessField() throws IOException {
    JsonNode windows =
        manifests().stream()
            .filter(d -> d.at("/metadata/name").asText().equals("winstats-exporter-windows") && d.path("kind").asText().equals("DaemonSet"))
            .findFirst()
            .orElseThrow();
    ObjectNode wrong = windows.deepCopy();
    ObjectNode options = (ObjectNode) wrong.at("/spec/template/spec/securityContext/windowsOptions");
    options.set("hostProces", options.remove("hostProcess"));
    assertThatThrownBy(() -> KubernetesSchema.validate(wrong))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hostProces")
        .hasMessageContaining("V1WindowsSecurityContextOptions");
  }

  @Test
  void theSchemaRejectsAContainerWithoutAName() throws IOException {
    JsonNode linux =
        manifests().stream()
            .filter(d -> d.at("/metadata/name").asText().equals("winstats-exporter-linux") && d.path("kind").asText().equals("DaemonSet"))
            .findFirst()
            .orElseThrow();
    ObjectNode wrong = linux.deepCopy();
    ((ObjectNode) wrong.at("/spec/template/spec/containers/0")).remove("name");
    assertThatThrownBy(() -> KubernetesSchema.validate(wrong)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
  }
}
