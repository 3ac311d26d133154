package io.winstats.exporter.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.GZIPOutputStream;
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
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, body.length / 4));
      try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
        gz.write(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      g = out.toByteArray();
      gzipped = g;
    }
    return g;
  }
}
