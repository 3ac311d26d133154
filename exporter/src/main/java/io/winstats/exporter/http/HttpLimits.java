package io.winstats.exporter.http;

import java.time.Duration;
import java.util.Objects;

/**
 * What the server accepts from a client before it gives up on it.
 *
 * @param maxHeaderBytes the request line and headers together; a larger request is refused ({@code 431}, or the
 *     connection closed) and never reaches a handler
 * @param maxBodyBytes a request body (only {@code POST /stats/summary} takes one); a larger one gets {@code 413}
 * @param requestTimeout time to receive a request's line and headers once its first byte arrived (slow clients)
 * @param idleTimeout time a connection may sit with no request: a new connection before its first request, a
 *     kept-alive one between requests, a TLS handshake that never completes
 * @param maxConnections open connections at once; past it the server stops accepting and new connections wait in the
 *     kernel's listen backlog until one closes
 */
public record HttpLimits(
    int maxHeaderBytes, long maxBodyBytes, Duration requestTimeout, Duration idleTimeout, int maxConnections) {

  /** 16 KiB of headers, 64 KiB of body, 10 s to send them, 60 s idle, 256 connections. */
  public static final HttpLimits DEFAULTS =
      new HttpLimits(16 * 1024, 64 * 1024, Duration.ofSeconds(10), Duration.ofSeconds(60), 256);

  public HttpLimits {
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    if (maxHeaderBytes < 1024 || maxBodyBytes < 0 || maxConnections < 1) {
      throw new IllegalArgumentException(
          "limits out of range: " + maxHeaderBytes + ", " + maxBodyBytes + ", " + maxConnections);
    }
  }
}
