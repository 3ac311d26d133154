package io.winstats.exporter.http;

import io.winstats.exporter.metrics.MetricsRenderer;
import org.jspecify.annotations.Nullable;

/** A response body rendered once, with its gzip form made on first demand. Thread-safe. */
final class RenderedBody {
  private final byte[] body;
  private final String contentType;
  private volatile byte @Nullable [] gzipped;

  RenderedBody(byte[] body, String contentType) {
    this.body = body;
    this.contentType = contentType;
  }

  byte[] body() {
    return body;
  }

  String contentType() {
    return contentType;
  }

  byte[] gzipped() {
    byte[] g = gzipped;
    if (g == null) {
      g = MetricsRenderer.gzip(body);
      gzipped = g;
    }
    return g;
  }
}
