package io.winstats.perfcounters;

/** The one unchecked failure of a {@link NodeCounterSource}, with a reason the exporter turns into a self-metric. */
public final class NodeSourceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a sample failed, in the words of the {@code reason} label. */
  public enum Reason {
    /** The OS interface (procfs file, PDH query) could not be opened or read. */
    READ_FAILED,
    /** What was read could not be parsed. */
    MALFORMED,
    /** The counter, object or instance does not exist on this host. */
    NOT_FOUND,
    /** A replayed log has no more rows. */
    END_OF_LOG,
    /** The call did not finish within its deadline. */
    TIMEOUT;

    /** The label value: lower case with underscores. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final Reason reason;

  public NodeSourceException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public NodeSourceException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
