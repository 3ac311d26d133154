package io.winstats.exporter.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.resources.Resource;
import io.winstats.exporter.metrics.ServedFamilies;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The families as OTLP metrics, for the cases the Linux end-to-end test cannot show: windows_exporter's container
 * series (no uid, no image, {@code container_id="containerd://…"}) land on the same resource as the cAdvisor series of
 * the same container, and the network rows fold two families into one metric by direction.
 */
class OtlpMetricsTest {
  private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-27T05:00:00Z"), ZoneOffset.UTC);
  private static final Resource NODE = Resource.create(io.opentelemetry.api.common.Attributes.of(
      AttributeKey.stringKey("k8s.node.name"), "win-1"));

  @Test
  void windowsContainerSeriesJoinTheirPodAndContainerResources() {
    ServedFamilies series = new ServedFamilies(7, List.of(
        family("container_cpu_usage_seconds_total", ServedFamilies.Type.COUNTER,
            point(12.5, 1_000, "container", "app", "cpu", "total", "id", "/kubepods/poduid-1/abc", "image", "img:1",
                "name", "abc", "namespace", "ns", "pod", "web"),
            point(20.0, 1_000, "container", "", "cpu", "total", "id", "/kubepods/poduid-1", "image", "", "name", "",
                "namespace", "ns", "pod", "web"),
            point(300.0, 0, "container", "", "cpu", "total", "id", "/", "image", "", "name", "", "namespace", "",
                "pod", "")),
        family("windows_container_memory_usage_commit_bytes", ServedFamilies.Type.GAUGE,
            point(4096, 0, "container", "app", "container_id", "containerd://abc", "namespace", "ns", "pod", "web")),
        family("container_network_receive_bytes_total", ServedFamilies.Type.COUNTER,
            point(10, 1_000, "container", "", "id", "/kubepods/poduid-1", "image", "", "interface", "eth0", "name", "",
                "namespace", "ns", "pod", "web")),
        family("container_network_transmit_bytes_total", ServedFamilies.Type.COUNTER,
            point(20, 1_000, "container", "", "id", "/kubepods/poduid-1", "image", "", "interface", "eth0", "name", "",
                "namespace", "ns", "pod", "web"))));

    List<MetricData> metrics = new OtlpMetrics(() -> series, NODE, "1.0", CLOCK).toMetricData(series, Resource.empty());

    MetricData containerCpu = metric(metrics, "container.cpu.time");
    MetricData commit = metric(metrics, "windows_container_memory_usage_commit_bytes");
    assertThat(commit.getResource()).isEqualTo(containerCpu.getResource());
    assertThat(commit.getResource().getAttributes().asMap())
        .containsEntry(AttributeKey.stringKey("k8s.pod.uid"), "uid-1")
        .containsEntry(AttributeKey.stringKey("container.id"), "abc")
        .containsEntry(AttributeKey.stringKey("container.image.name"), "img:1")
        .containsEntry(AttributeKey.stringKey("k8s.node.name"), "win-1");
    assertThat(commit.getType()).isEqualTo(MetricDataType.DOUBLE_GAUGE);
    assertThat(commit.getDoubleGaugeData().getPoints()).singleElement()
        .satisfies(p -> assertThat(p.getAttributes().isEmpty()).isTrue())
        .satisfies(p -> assertThat(p.getEpochNanos()).isEqualTo(CLOCK.millis() * 1_000_000));

    assertThat(containerCpu.getUnit()).isEqualTo("s");
    assertThat(containerCpu.getDoubleSumData().isMonotonic()).isTrue();
    DoublePointData cpu = containerCpu.getDoubleSumData().getPoints().iterator().next();
    assertThat(cpu.getValue()).isEqualTo(12.5);
    assertThat(cpu.getAttributes().isEmpty()).as("cpu=total dropped").isTrue();
    assertThat(cpu.getEpochNanos()).as("the sample's own time").isEqualTo(1_000_000_000L);
    assertThat(metric(metrics, "k8s.pod.cpu.time").getResource().getAttributes().asMap())
        .containsEntry(AttributeKey.stringKey("k8s.pod.uid"), "uid-1")
        .doesNotContainKey(AttributeKey.stringKey("k8s.container.name"));
    assertThat(metric(metrics, "k8s.node.cpu.time").getResource()).isEqualTo(NODE);

    MetricData network = metric(metrics, "k8s.pod.network.io");
    assertThat(network.getDoubleSumData().getPoints())
        .extracting(p -> p.getAttributes().get(AttributeKey.stringKey("network.io.direction")) + "="
            + p.getAttributes().get(AttributeKey.stringKey("network.interface.name")) + ":" + p.getValue())
        .containsExactlyInAnyOrder("receive=eth0:10.0", "transmit=eth0:20.0");
  }

  private static MetricData metric(List<MetricData> metrics, String name) {
    List<MetricData> named = metrics.stream().filter(m -> m.getName().equals(name)).toList();
    assertThat(named).as(name).hasSize(1);
    return named.get(0);
  }

  private static ServedFamilies.Family family(String name, ServedFamilies.Type type, ServedFamilies.Point... points) {
    return new ServedFamilies.Family(name, "help", type, List.of(points));
  }

  private static ServedFamilies.Point point(double value, long timestampMillis, String... labels) {
    Map<String, String> l = new LinkedHashMap<>();
    for (int i = 0; i < labels.length; i += 2) {
      l.put(labels[i], labels[i + 1]);
    }
    return new ServedFamilies.Point(l, value, timestampMillis);
  }
}
