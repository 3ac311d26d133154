package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every manifest under {@code deploy/kubernetes} against the Kubernetes 1.32 API schema: the models of
 * kubernetes-client/java 24.0.0, generated from that release's OpenAPI spec, whose {@code validateJsonElement} rejects
 * a field the schema does not define, a missing required field and a wrong JSON type, at every depth (including the
 * HostProcess {@code securityContext.windowsOptions}). The prometheus-operator kinds are custom resources, outside
 * the Kubernetes schema; kustomization.yaml is kustomize's own file.
 */
class ManifestSchemaTest {
  /** The schema of each built-in kind the manifests use. */
  private interface Validator {
    void validate(JsonElement json) throws IOException;
  }

  private static final Map<String, Validator> BUILT_IN =
      Map.of(
          "apps/v1 DaemonSet", V1DaemonSet::validateJsonElement,
          "v1 Service", V1Service::validateJsonElement,
          "v1 ServiceAccount", V1ServiceAccount::validateJsonElement,
          "v1 Namespace", V1Namespace::validateJsonElement);

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Set<String> CUSTOM =
      Set.of("monitoring.coreos.com/v1 PodMonitor", "monitoring.coreos.com/v1 ServiceMonitor");

  private static List<JsonNode> manifests() throws IOException {
    List<JsonNode> docs = new ArrayList<>();
    try (Stream<Path> s = Files.walk(KubernetesManifestsTest.DIR)) {
      for (Path f :
          s.filter(p -> p.toString().endsWith(".yaml") && !p.endsWith("kustomization.yaml")).sorted().toList()) {
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

  private static String kindOf(JsonNode doc) {
    return doc.path("apiVersion").asText() + " " + doc.path("kind").asText();
  }

  private static void validate(JsonNode doc) throws IOException {
    Validator v = BUILT_IN.get(kindOf(doc));
    assertThat(v).as("a schema for %s", kindOf(doc)).isNotNull();
    v.validate(JsonParser.parseString(JSON.writeValueAsString(doc)));
  }

  @Test
  void everyBuiltInManifestMatchesTheKubernetesSchema() throws IOException {
    List<String> checked = new ArrayList<>();
    for (JsonNode doc : manifests()) {
      if (CUSTOM.contains(kindOf(doc))) {
        continue;
      }
      validate(doc);
      checked.add(kindOf(doc) + " " + doc.at("/metadata/name").asText());
    }
    assertThat(checked)
        .contains(
            "apps/v1 DaemonSet winstats-exporter-windows",
            "apps/v1 DaemonSet winstats-exporter-linux",
            "v1 Service winstats-exporter",
            "v1 ServiceAccount winstats-exporter",
            "v1 Namespace monitoring");
  }

  @Test
  void theSchemaRejectsAMisspelledHostProcessField() throws IOException {
    JsonNode windows =
        manifests().stream()
            .filter(d -> d.at("/metadata/name").asText().equals("winstats-exporter-windows"))
            .findFirst()
            .orElseThrow();
    ObjectNode wrong = windows.deepCopy();
    ObjectNode options = (ObjectNode) wrong.at("/spec/template/spec/securityContext/windowsOptions");
    options.set("hostProces", options.remove("hostProcess"));
    assertThatThrownBy(() -> validate(wrong))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hostProces")
        .hasMessageContaining("V1WindowsSecurityContextOptions");
  }

  @Test
  void theSchemaRejectsAContainerWithoutAName() throws IOException {
    JsonNode linux =
        manifests().stream()
            .filter(d -> d.at("/metadata/name").asText().equals("winstats-exporter-linux"))
            .findFirst()
            .orElseThrow();
    ObjectNode wrong = linux.deepCopy();
    ((ObjectNode) wrong.at("/spec/template/spec/containers/0")).remove("name");
    assertThatThrownBy(() -> validate(wrong)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
  }
}
