package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SummaryAssembler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code :PORT} is every interface of both families, as the Go exporters listen with {@code net.Listen(":PORT")}. */
class ListenAddressTest {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private int status(String host, int port) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/metrics")).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** Before, {@code :PORT} bound 0.0.0.0 and {@code [::1]} was refused. This host (and CI's) has IPv6 loopback. */
  @Test
  void everyInterfaceAnswersOnIpv4AndIpv6() throws Exception {
    ListenAddress any = ListenAddress.parse(":0");
    assertThat(any.bindHost()).as("the JDK sees IPv6 on this host").isEqualTo("::");
    try (ExporterServer server = new ExporterServer(any, () -> null, new SummaryAssembler("node-a", NodePlatform.LINUX),
        new MetricsRenderer(new PrometheusRegistry(), new PrometheusRegistry(), () -> 1L, Duration.ZERO, () -> 0L))) {
      server.start();

      assertThat(status("127.0.0.1", server.port())).isEqualTo(200);
      assertThat(status("[::1]", server.port())).isEqualTo(200);
    }
  }

  @Test
  void aNamedHostIsBoundAsGivenAndPrintedAsParsed() {
    assertThat(ListenAddress.parse("127.0.0.1:9844").bindHost()).isEqualTo("127.0.0.1");
    assertThat(ListenAddress.parse("[::1]:9844").bindHost()).isEqualTo("::1");
    assertThat(ListenAddress.parse(":9844")).hasToString(":9844");
  }
}
