package io.winstats.cri;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;

/**
 * Where the container runtime's CRI gRPC service listens, parsed from the kubelet's
 * {@code --container-runtime-endpoint} syntax.
 *
 * <p>Accepted forms:
 *
 * <ul>
 *   <li>{@code unix:///absolute/path.sock} (Linux default {@code unix:///run/containerd/containerd.sock});
 *   <li>{@code tcp://HOST:PORT} (containerd's optional {@code [grpc] tcp_address});
 *   <li>{@code npipe:////./pipe/NAME} (Windows default {@code npipe:////./pipe/containerd-containerd}). It parses
 *       everywhere; {@code CriStatsReaders.open} connects to it on Windows only.
 * </ul>
 *
 * @param scheme the transport
 * @param address for {@link Scheme#UNIX} the absolute socket path; for {@link Scheme#TCP} the host; for {@link
 *     Scheme#NPIPE} the Win32 pipe path ({@code \\.\pipe\NAME})
 * @param port the TCP port; 0 for the other schemes
 */
public record CriEndpoint(Scheme scheme, String address, int port) {

  /** The transport an endpoint names. */
  public enum Scheme {
    /** A Unix domain socket. */
    UNIX,
    /** Plain-text gRPC over TCP. */
    TCP,
    /** A Windows named pipe. */
    NPIPE
  }

  private static final String ACCEPTED =
      "accepted forms: unix:///absolute/path.sock, tcp://HOST:PORT, npipe:////./pipe/NAME";

  public CriEndpoint {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(address, "address");
    if (address.isEmpty()) {
      throw new IllegalArgumentException("address must not be empty");
    }
    if (scheme == Scheme.TCP ? port < 1 || port > 65_535 : port != 0) {
      throw new IllegalArgumentException("port out of range for " + scheme + ": " + port);
    }
  }

  /**
   * Parses an endpoint URI.
   *
   * @throws IllegalArgumentException if {@code uri} is not one of the accepted forms; the message names them
   */
  public static CriEndpoint parse(String uri) {
    Objects.requireNonNull(uri, "uri");
    String trimmed = uri.strip();
    int colon = trimmed.indexOf("://");
    if (colon <= 0) {
      throw invalid(uri, "no scheme");
    }
    String scheme = trimmed.substring(0, colon).toLowerCase(Locale.ROOT);
    String rest = trimmed.substring(colon + 3);
    return switch (scheme) {
      case "unix" -> {
        if (!rest.startsWith("/") || rest.length() < 2) {
          throw invalid(uri, "the socket path must be absolute (three slashes after unix:)");
        }
        if (rest.indexOf('\0') >= 0) {
          throw invalid(uri, "the socket path contains a NUL character");
        }
        yield new CriEndpoint(Scheme.UNIX, rest, 0);
      }
      case "tcp" -> parseTcp(uri, trimmed);
      case "npipe" -> parseNamedPipe(uri, rest);
      default -> throw invalid(uri, "unsupported scheme '" + scheme + "'");
    };
  }

  private static CriEndpoint parseTcp(String original, String trimmed) {
    URI parsed;
    try {
      parsed = new URI(trimmed);
    } catch (URISyntaxException e) {
      throw invalid(original, e.getReason());
    }
    String host = parsed.getHost();
    int port = parsed.getPort();
    boolean bare =
        (parsed.getRawPath() == null || parsed.getRawPath().isEmpty())
            && parsed.getRawQuery() == null
            && parsed.getRawFragment() == null
            && parsed.getRawUserInfo() == null;
    if (host == null || host.isEmpty() || port < 1 || port > 65_535 || !bare) {
      throw invalid(original, "expected tcp://HOST:PORT with a port in 1..65535 and nothing after it");
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return new CriEndpoint(Scheme.TCP, host, port);
  }

  /** {@code npipe:////./pipe/NAME} (the kubelet form) or {@code npipe://./pipe/NAME}; yields {@code \\.\pipe\NAME}. */
  private static CriEndpoint parseNamedPipe(String original, String rest) {
    String path = rest.replace('\\', '/');
    while (path.startsWith("/")) {
      path = path.substring(1);
    }
    String[] parts = path.split("/", -1);
    if (parts.length != 3 || parts[0].isEmpty() || !parts[1].equalsIgnoreCase("pipe") || parts[2].isEmpty()) {
      throw invalid(original, "expected npipe:////./pipe/NAME");
    }
    return new CriEndpoint(Scheme.NPIPE, "\\\\" + parts[0] + "\\pipe\\" + parts[2], 0);
  }

  private static IllegalArgumentException invalid(String uri, String why) {
    return new IllegalArgumentException("invalid CRI endpoint '" + uri + "': " + why + "; " + ACCEPTED);
  }

  /** The endpoint in URI form, as {@link #parse} accepts it. */
  public String uri() {
    return switch (scheme) {
      case UNIX -> "unix://" + address;
      case TCP -> "tcp://" + (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
      case NPIPE -> "npipe://" + address.replace('\\', '/');
    };
  }

  @Override
  public String toString() {
    return uri();
  }
}
