package io.winstats.perfcounters.pdh;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A PDH call failed. Carries the raw status (kept even when {@link PdhStatus} does not list it), the PDH function
 * name, and the counter path when the call concerned one.
 */
public final class PdhException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String call;
  private final @Nullable String path;

  /**
   * @param code the status the call returned
   * @param call the PDH function, such as {@code PdhAddEnglishCounterW}
   * @param path the counter path concerned, or {@code null}
   */
  public PdhException(int code, String call, @Nullable String path) {
    super(call + " failed: " + PdhStatus.describe(code) + " (" + PdhStatus.hex(code) + ")"
        + (path != null ? " path=" + path : ""));
    this.code = code;
    this.call = call;
    this.path = path;
  }

  /** Convenience for a listed status. */
  public PdhException(PdhStatus status, String call, @Nullable String path) {
    this(status.code(), call, path);
  }

  /** The raw status code. */
  public int code() {
    return code;
  }

  /** The listed status, or empty for an unknown code (see {@link #statusName()}). */
  public Optional<PdhStatus> status() {
    return PdhStatus.fromCode(code);
  }

  /** The status name, or its hex value when unknown. */
  public String statusName() {
    return PdhStatus.describe(code);
  }

  /** The PDH function that failed. */
  public String call() {
    return call;
  }

  /** The counter path concerned, or {@code null} for a query-level call. */
  public @Nullable String path() {
    return path;
  }

  /** Whether the status is {@code status}. */
  public boolean is(PdhStatus status) {
    return code == status.code();
  }
}
