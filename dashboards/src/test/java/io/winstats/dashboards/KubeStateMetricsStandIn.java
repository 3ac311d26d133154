package io.winstats.dashboards;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A stand-in for kube-state-metrics (there is no API server here to run it against): serves, in KSM v2's names and
 * labels, the pod info and resource requests and limits of the test's real pods, so that the joins of dashboards,
 * rules and stock queries between the daemon's series and kube-state-metrics are evaluated on real label values.
 */
final class KubeStateMetricsStandIn implements AutoCloseable {
  private final HttpServer server;

  private KubeStateMetricsStandIn(HttpServer server) {
    this.server = server;
  }

  static KubeStateMetricsStandIn serve(String exposition) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] body = exposition.getBytes(StandardCharsets.UTF_8);
    server.createContext("/metrics", exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
    return new KubeStateMetricsStandIn(server);
  }

  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
