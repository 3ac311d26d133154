package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;

/**
 * The Kubernetes 1.32 API schema of the built-in kinds the manifests and the chart use: the models of
 * kubernetes-client/java 24.0.0, generated from that release's OpenAPI spec, whose {@code validateJsonElement} rejects
 * a field the schema does not define, a missing required field and a wrong JSON type, at every depth. The
 * monitoring.coreos.com kinds are custom resources outside it; their scrape configs are checked by promtool and a real
 * Prometheus instead (ChartMonitorsTest, DashboardsOnPrometheusIT).
 */
final class KubernetesSchema {
  private interface Validator {
    void validate(JsonElement json) throws IOException;
  }

  private static final Map<String, Validator> BUILT_IN =
      Map.of(
          "apps/v1 DaemonSet", V1DaemonSet::validateJsonElement,
          "v1 Service", V1Service::validateJsonElement,
          "v1 Pod", V1Pod::validateJsonElement,
          "v1 ServiceAccount", V1ServiceAccount::validateJsonElement,
          "v1 ConfigMap", V1ConfigMap::validateJsonElement,
          "v1 Secret", V1Secret::validateJsonElement,
          "scheduling.k8s.io/v1 PriorityClass", V1PriorityClass::validateJsonElement,
          "rbac.authorization.k8s.io/v1 ClusterRole", V1ClusterRole::validateJsonElement,
          "rbac.authorization.k8s.io/v1 ClusterRoleBinding", V1ClusterRoleBinding::validateJsonElement);

  static final Set<String> CUSTOM =
      Set.of(
          "monitoring.coreos.com/v1 PodMonitor", "monitoring.coreos.com/v1 ServiceMonitor",
          "monitoring.coreos.com/v1 PrometheusRule");

  private static final ObjectMapper JSON = new ObjectMapper();

  private KubernetesSchema() {}

  /** Validates a built-in object; fails the test for a kind without a schema here. */
  static void validate(JsonNode doc) {
    String kind = HelmChart.kindOf(doc);
    Validator v = BUILT_IN.get(kind);
    assertThat(v).as("a schema for %s", kind).isNotNull();
    try {
      v.validate(JsonParser.parseString(JSON.writeValueAsString(doc)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static boolean isCustom(JsonNode doc) {
    return CUSTOM.contains(HelmChart.kindOf(doc));
  }
}
