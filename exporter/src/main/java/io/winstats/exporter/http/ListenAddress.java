package io.winstats.exporter.http;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.channels.ServerSocketChannel;
import java.util.Objects;

/**
 * A {@code HOST:PORT} to serve on, as Prometheus exporters spell it: {@code :9844} is every interface, IPv4 and IPv6,
 * {@code 127.0.0.1:9844} loopback only, {@code [::1]:9844} IPv6 loopback.
 *
 * @param host the host to bind, or empty for every interface
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
    return new ListenAddress(host, port);
  }

  /**
   * The address to bind. Every interface is the IPv6 wildcard where the host has IPv6: the JDK opens it dual-stack
   * (IPV6_V6ONLY off, on Linux and Windows alike), so it also accepts IPv4, as Go's {@code net.Listen("tcp", ":PORT")}
   * does for the Go exporters; without IPv6 (disabled in the kernel, or {@code -Djava.net.preferIPv4Stack=true}) it is
   * the IPv4 wildcard, as Go falls back.
   */
  public String bindHost() {
    if (!host.isEmpty()) {
      return host;
    }
    return ipv6Available() ? "::" : "0.0.0.0";
  }

  private static boolean ipv6Available() {
    try (ServerSocketChannel probe = ServerSocketChannel.open(StandardProtocolFamily.INET6)) {
      return probe.isOpen();
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
