package io.winstats.cri;

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

  private final Reason reason;

  public CriException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public CriException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
