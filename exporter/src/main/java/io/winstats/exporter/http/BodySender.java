package io.winstats.exporter.http;

import io.undertow.io.IoCallback;
import io.undertow.io.Sender;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Sends rendered bodies, holding each until its send has ended: a superseded body's direct memory is freed by the
 * last send of it ({@link RenderedBody}, {@link io.winstats.exporter.metrics.SharedBody}).
 */
final class BodySender {
  private BodySender() {}

  /** Sends a body that is never released (a file of the jar). */
  static void send(HttpServerExchange exchange, RenderedBody body) {
    if (!trySend(exchange, body)) {
      throw new IllegalStateException("a released body");
    }
  }

  /**
   * Sends {@code body}, holding it until the send ends; {@code false}, with nothing sent, when there is none or the
   * cache released it since (a newer version replaced it).
   */
  static boolean trySend(HttpServerExchange exchange, @Nullable RenderedBody body) {
    boolean gzip = acceptsGzip(exchange);
    RenderedBody.Held held = body == null ? null : body.retain(gzip);
    if (body == null || held == null) {
      return false;
    }
    ByteBuffer bytes = held.bytes();
    sendParts(exchange, new ByteBuffer[] {bytes}, bytes.remaining(), body.contentType(), gzip, held::sent);
    return true;
  }

  /**
   * Sends {@code parts} and runs {@code sent} once when they are written or the send failed: the parts are not read
   * after it (a superseded body's memory is freed then).
   */
  static void sendParts(
      HttpServerExchange exchange,
      ByteBuffer[] parts,
      long length,
      String contentType,
      boolean gzip,
      Runnable sent) {
    exchange.setStatusCode(200);
    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, contentType);
    exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, length);
    exchange.getResponseHeaders().put(Headers.VARY, "Accept-Encoding");
    if (gzip) {
      exchange.getResponseHeaders().put(Headers.CONTENT_ENCODING, "gzip");
    }
    if (exchange.getRequestMethod().equals(Methods.HEAD)) {
      sent.run();
      exchange.endExchange();
      return;
    }
    SendEnded ended = new SendEnded(sent);
    try {
      exchange.getResponseSender().send(parts, ended);
    } catch (RuntimeException e) {
      // Thrown before anything was written (a response already begun): nothing reads the parts.
      ended.release();
      throw e;
    }
  }

  /**
   * Ends the exchange as {@link IoCallback#END_EXCHANGE} does, after giving back the parts' hold, once: Undertow's
   * AsyncSenderImpl can report a failure and carry on to completion for one send.
   */
  private static final class SendEnded implements IoCallback {
    private final AtomicBoolean done = new AtomicBoolean();
    private final Runnable sent;

    SendEnded(Runnable sent) {
      this.sent = sent;
    }

    void release() {
      if (done.compareAndSet(false, true)) {
        sent.run();
      }
    }

    @Override
    public void onComplete(HttpServerExchange exchange, Sender sender) {
      release();
      IoCallback.END_EXCHANGE.onComplete(exchange, sender);
    }

    @Override
    public void onException(HttpServerExchange exchange, Sender sender, IOException exception) {
      release();
      IoCallback.END_EXCHANGE.onException(exchange, sender, exception);
    }
  }

  static boolean acceptsGzip(HttpServerExchange exchange) {
    var fields = exchange.getRequestHeaders().get(Headers.ACCEPT_ENCODING);
    return fields != null && AcceptEncoding.allowsGzip(fields);
  }
}
