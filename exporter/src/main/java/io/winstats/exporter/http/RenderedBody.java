package io.winstats.exporter.http;

import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.metrics.SharedBody;
import java.nio.ByteBuffer;
import org.jspecify.annotations.Nullable;

/**
 * A response body rendered once, with its gzip form made on first demand. Thread-safe.
 *
 * <p>Both forms live in direct buffers: the socket writes them as they are, where a heap array would be copied into a
 * temporary direct buffer on every response (about 200 KB per {@code /stats/summary} at 110 pods). Each form is a
 * {@link SharedBody}: once the cache {@link #release() releases} a superseded body, its memory is freed as the last
 * response sending it completes, not at the next garbage collection.
 */
final class RenderedBody {
  private final SharedBody body;
  private final String contentType;
  private @Nullable SharedBody gzipped; // guarded by this
  private boolean released; // guarded by this

  RenderedBody(byte[] body, String contentType) {
    this.body = SharedBody.of(body);
    this.contentType = contentType;
  }

  String contentType() {
    return contentType;
  }

  /**
   * The form to send, held for one response, or {@code null} once the cache released it (a newer version replaced it:
   * the caller serves that one).
   */
  @Nullable Held retain(boolean gzip) {
    SharedBody form = gzip ? gzipped() : text();
    ByteBuffer view = form == null ? null : form.retain();
    return form == null || view == null ? null : new Held(view, form);
  }

  /** The text form; {@code null} once released, as the gzip form is, though a send may still hold it. */
  private synchronized @Nullable SharedBody text() {
    return released ? null : body;
  }

  /** The gzip form, compressed on first demand; {@code null} once released. */
  private synchronized @Nullable SharedBody gzipped() {
    if (released) {
      return null;
    }
    SharedBody g = gzipped;
    if (g == null) {
      ByteBuffer text = body.retain();
      if (text == null) {
        return null;
      }
      try {
        byte[] bytes = new byte[text.remaining()];
        text.get(bytes);
        g = SharedBody.of(MetricsRenderer.gzip(bytes));
      } finally {
        body.release();
      }
      gzipped = g;
    }
    return g;
  }

  /** Gives back the cache's hold on both forms: each is freed when its last response ends. */
  void release() {
    SharedBody g;
    synchronized (this) {
      if (released) {
        return;
      }
      released = true;
      g = gzipped;
    }
    body.release();
    if (g != null) {
      g.release();
    }
  }

  /** Whether both forms were released by the cache and by every response (their memory freed). */
  synchronized boolean freed() {
    SharedBody g = gzipped;
    return body.released() && (g == null || g.released());
  }

  /** One response's view of a form and its hold on it, given back by {@link #sent()}. */
  record Held(ByteBuffer bytes, SharedBody form) {
    void sent() {
      form.release();
    }
  }
}
