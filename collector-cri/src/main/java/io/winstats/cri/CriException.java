package io.winstats.cri;

import org.jspecify.annotations.Nullable;

/** The one unchecked failure that leaves {@code collector-cri}; gRPC's status never does. */
public final class CriException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a CRI round failed, in the words of the {@code reason} label. */
  public enum Reason {
    /** The runtime is not reachable (socket missing, connection refused, runtime restarting). */
    UNAVAILABLE,
    /** A call did not answer within its deadline. */
    DEADLINE_EXCEEDED,
    /** The answer was larger than the inbound message limit. */
    MESSAGE_TOO_LARGE,
    /** The answer could not be decoded. */
    MALFORMED,
    /** The runtime answered with an error of its own. */
    RUNTIME_ERROR,
    /** The named pipe is served by a process that is not the runtime (see {@code npipe.PipeServerTrust}). */
    UNTRUSTED_PIPE;

    /** The label value: lower case with underscores. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * Why a connection failed, when the socket, the pipe or the peer said: the {@code reason} label names it instead of
   * the broader {@link Reason}, so that an operator reads the fix from the metric.
   */
  public enum ConnectionFailure {
    /** No socket file or pipe of that name: the runtime is not running, or the path is wrong or not mounted. */
    ENDPOINT_MISSING,
    /** The socket file exists and nobody listens on it: the runtime stopped and left it behind. */
    CONNECTION_REFUSED,
    /** The socket or pipe refuses this process: on Linux its user, on Windows anything but SYSTEM or Administrators. */
    PERMISSION_DENIED,
    /** The peer answered, but not in gRPC's HTTP/2 framing (an HTTP/1 server, a proxy, TLS on the other end). */
    PROTOCOL_MISMATCH;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final Reason reason;
  private final @Nullable ConnectionFailure connectionFailure;

  public CriException(Reason reason, String message, Throwable cause) {
    this(reason, null, message, cause);
  }

  public CriException(
      Reason reason, @Nullable ConnectionFailure connectionFailure, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
    this.connectionFailure = connectionFailure;
  }

  public CriException(Reason reason, String message) {
    super(message);
    this.reason = reason;
    this.connectionFailure = null;
  }

  public Reason reason() {
    return reason;
  }

  /** What failed the connection, when it is known. */
  public @Nullable ConnectionFailure connectionFailure() {
    return connectionFailure;
  }

  /** The {@code reason} label: the connection failure where known, else the reason. */
  public String label() {
    return connectionFailure != null ? connectionFailure.label() : reason.label();
  }
}
