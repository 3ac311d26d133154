package io.winstats.exporter.http;

import java.util.Objects;

/**
 * A {@code HOST:PORT} to serve on, as Prometheus exporters spell it: {@code :9844} is every interface,
 * {@code 127.0.0.1:9844} loopback only, {@code [::1]:9844} IPv6 loopback.
 */
public record ListenAddress(String host, int port) {
  public ListenAddress {
    Objects.requireNonNull(host, "host");
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port out of range 0-65535: " + port);
    }
  }

  /** Parses {@code [HOST]:PORT}; an empty host means every interface. */
  public static ListenAddress parse(String text) {
    int colon = text.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("expected HOST:PORT or :PORT, got '" + text + "'");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException("an IPv6 host must be in brackets, as [::1]:PORT: '" + text + "'");
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("port is not a number in '" + text + "'", e);
    }
    return new ListenAddress(host.isEmpty() ? "0.0.0.0" : host, port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
