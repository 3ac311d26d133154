package io.winstats.cri.hns;

/** HNS could not be asked, or answered with an error ({@code "Success": false}) or a reply that does not parse. */
public final class HnsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public HnsException(String message) {
    super(message);
  }

  public HnsException(String message, Throwable cause) {
    super(message, cause);
  }
}
