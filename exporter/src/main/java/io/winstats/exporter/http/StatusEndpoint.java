package io.winstats.exporter.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.winstats.exporter.parts.PartsReport;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code /status}: the daemon's per-part state as {@code check --output=json} prints it, read on each request (a few
 * rows, no cache), behind the same guard as every other path.
 */
final class StatusEndpoint {
  static final String PATH = "/status";

  private volatile Supplier<PartsReport> parts = () -> new PartsReport(List.of());

  void use(Supplier<PartsReport> report) {
    this.parts = report;
  }

  void serve(HttpServerExchange exchange) {
    byte[] body = parts.get().json().getBytes(StandardCharsets.UTF_8);
    exchange.setStatusCode(200);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
    exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, body.length);
    if (exchange.getRequestMethod().equals(Methods.HEAD)) {
      exchange.endExchange();
      return;
    }
    exchange.getResponseSender().send(ByteBuffer.wrap(body));
  }
}
