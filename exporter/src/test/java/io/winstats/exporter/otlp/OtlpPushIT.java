package io.winstats.exporter.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.PodHandle;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.OtlpReceiver;
import io.winstats.exporter.testing.PrometheusText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real jar against a private containerd with a pod, pushing over OTLP/HTTP (gzip) and OTLP/gRPC to a receiver
 * built from the OTLP definitions: every point pushed is a point {@code /metrics} serves at the same sample (the
 * sampling interval is an hour, so one snapshot is served and pushed), under the mapped name with the resource and
 * point attributes docs/OTLP.md gives, and every snapshot-built point of {@code /metrics} is pushed.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
class OtlpPushIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String NODE = "otlp-it-node";

  @ParameterizedTest
  @ValueSource(strings = {"http/protobuf", "grpc"})
  void everyPushedPointIsAPointOfMetricsAtTheSameSample(String protocol, ContainerdHarness harness,
      CriTestClient client) throws Exception {
    String name = "pushed-" + (protocol.equals("grpc") ? "grpc" : "http");
    PodHandle pod = harness.defer(client.runPod(name, "otlp-it", List.of(ContainerSpec.burner("burn", 0.05))));
    String containerId = pod.containerId("burn");
    try (OtlpReceiver receiver = protocol.equals("grpc") ? OtlpReceiver.grpc() : OtlpReceiver.http();
        DaemonProcess daemon =
            DaemonProcess.startWith(
                Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(), "OTEL_EXPORTER_OTLP_PROTOCOL", protocol,
                    "OTEL_EXPORTER_OTLP_COMPRESSION", "gzip"),
                Path.of("target", "otlp-it-" + protocol.replace('/', '-'), "daemon.log"),
                List.of(),
                "--cri.endpoint=" + harness.endpoint(), "--sampling.interval=1h", "--node.name=" + NODE,
                "--otlp.enabled", "--otlp.interval=1s")) {
      // The one CRI round and its cgroups are in; the snapshot stays until the hour is up.
      Deadline.await("the container's cgroup series on /metrics\n" + daemon.log(), WAIT,
          () -> daemon.get("/metrics").body().contains("container_memory_cache{container=\"burn\""));
      int before = receiver.received().size();
      Deadline.await("two more pushes", WAIT, () -> receiver.received().size() >= before + 2);
      String body = daemon.get("/metrics").body();
      java.nio.file.Files.writeString(Path.of("target", "otlp-it-" + protocol.replace('/', '-'), "metrics.prom"), body);
      List<PrometheusText> scrape = PrometheusText.parse(body);
      Map<String, String> types = new HashMap<>();
      body.lines().filter(l -> l.startsWith("# TYPE ")).map(l -> l.split(" "))
          .forEach(t -> types.put(t[2], t[3]));
      List<ExportMetricsServiceRequest> pushes = receiver.received();
      List<OtlpPoints> pushed = OtlpPoints.of(pushes.get(pushes.size() - 1));

      List<PrometheusText> served = scrape.stream().filter(s -> !live(s.name())).toList();
      Map<String, OtlpPoints> byKey = new HashMap<>();
      for (OtlpPoints p : pushed) {
        OtlpPoints twice = byKey.put(key(p.metric(), p.resource(), p.attributes()), p);
        assertThat(twice).as("twice: %s\nand %s", p, twice).isNull();
        assertThat(p.resource())
            .containsEntry("k8s.node.name", NODE)
            .containsEntry("service.name", "winstats-exporter");
      }
      List<String> missing = new ArrayList<>();
      for (PrometheusText s : served) {
        Expected e = expected(s);
        OtlpPoints p = byKey.get(key(e.metric, e.resource, e.attributes));
        if (p == null) {
          missing.add(s.name() + s.labels() + " as " + e.metric + e.resource + e.attributes);
          continue;
        }
        assertThat(p.value()).as(s.name() + s.labels()).isEqualTo(s.value());
        if (s.timestampMillis() != null) {
          assertThat(p.timeNanos() / 1_000_000).as("time of " + s.name() + s.labels()).isEqualTo(s.timestampMillis());
        }
        OtlpNames.Row row = OtlpNames.row(s.name());
        if (row != null && row.name(e.level) != null) {
          assertThat(p.unit()).as(e.metric).isEqualTo(row.unit());
          assertThat(p.kind()).as(e.metric).isEqualTo(row.instrument().name().toLowerCase(java.util.Locale.ROOT));
        } else {
          assertThat(p.kind()).as(s.name()).isEqualTo(types.get(s.name()));
        }
      }
      assertThat(missing).as("served on /metrics, not pushed").isEmpty();
      assertThat(pushed).as("pushed points against /metrics' snapshot-built ones").hasSameSizeAs(served);

      // The pod and its container as resources, under the conventions' names.
      OtlpPoints cpu = pushed.stream().filter(p -> p.metric().equals("container.cpu.time")
          && containerId.equals(p.resource().get("container.id"))).findFirst().orElseThrow();
      assertThat(cpu.resource())
          .containsEntry("k8s.pod.name", pod.name())
          .containsEntry("k8s.namespace.name", "otlp-it")
          .containsEntry("k8s.pod.uid", pod.uid()).containsEntry("k8s.container.name", "burn");
      assertThat(cpu.attributes()).isEmpty();
      assertThat(pushed).anySatisfy(p -> {
        assertThat(p.metric()).isEqualTo("k8s.pod.cpu.time");
        assertThat(p.resource()).containsEntry("k8s.pod.uid", pod.uid()).doesNotContainKey("k8s.container.name");
      });
      assertThat(pushed).anySatisfy(p -> assertThat(p.metric()).isEqualTo("k8s.node.cpu.time"));
      assertThat(pushed).anySatisfy(p -> assertThat(p.metric()).startsWith("node_"));
      if (protocol.equals("http/protobuf")) {
        assertThat(receiver.contentEncodings()).contains("gzip");
      }
      assertThat(daemon.log()).contains("event=otlp_push_started").doesNotContain("otlp_export_failed");
    }
  }

  /** The daemon's own series (its health, client_java's process and Micrometer's JVM and system binders). */
  static boolean live(String name) {
    return name.startsWith("process_") || name.startsWith("jvm_") || name.startsWith("system_")
        || name.startsWith("winstats_exporter_") && !name.equals("winstats_exporter_build_info");
  }

  private record Expected(OtlpResources.Level level, String metric, Map<String, String> resource,
      Map<String, String> attributes) {}

  /** What docs/OTLP.md says a /metrics point becomes: level by its labels, name by the table, identity to resource. */
  private static Expected expected(PrometheusText s) {
    Map<String, String> l = s.labels();
    String pod = l.get("pod");
    OtlpResources.Level level = pod == null || pod.isEmpty() ? OtlpResources.Level.NODE
        : l.getOrDefault("container", "").isEmpty() ? OtlpResources.Level.POD : OtlpResources.Level.CONTAINER;
    Map<String, String> resource = new TreeMap<>();
    if (level != OtlpResources.Level.NODE) {
      resource.put("k8s.pod.name", pod);
      resource.put("k8s.namespace.name", l.get("namespace"));
    }
    if (level == OtlpResources.Level.CONTAINER) {
      resource.put("k8s.container.name", l.get("container"));
    }
    Map<String, String> attributes = new TreeMap<>(l);
    if (pod != null) {
      attributes.keySet().removeAll(List.of("container", "container_id", "id", "image", "name", "namespace", "pod",
          "uid"));
    }
    OtlpNames.Row row = OtlpNames.row(s.name());
    String metric = row == null || row.name(level) == null ? s.name() : row.name(level);
    if (row != null && row.name(level) != null) {
      if (row.direction() != null) {
        attributes.put("network.io.direction", row.direction());
        String nic = attributes.remove("interface");
        if (nic != null) {
          attributes.put("network.interface.name", nic);
        }
      }
      if ("total".equals(attributes.get("cpu")) && row.unit().equals("s")) {
        attributes.remove("cpu");
      }
    }
    return new Expected(level, metric, resource, attributes);
  }

  /** A point's identity: metric, pod and container names (the resource's), and its attributes. */
  private static String key(String metric, Map<String, String> resource, Map<String, String> attributes) {
    return metric + " " + resource.getOrDefault("k8s.namespace.name", "") + "/"
        + resource.getOrDefault("k8s.pod.name", "") + "/" + resource.getOrDefault("k8s.container.name", "") + " "
        + new TreeMap<>(attributes);
  }
}
