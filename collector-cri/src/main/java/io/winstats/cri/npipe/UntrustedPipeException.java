package io.winstats.cri.npipe;

import java.io.IOException;

/**
 * The pipe opened, but its server is not one {@link PipeServerTrust} accepts (a process that created the pipe name
 * while the runtime was down, for example); nothing was sent to it. The CRI reader reports it with the reason {@code
 * untrusted_pipe}.
 */
public final class UntrustedPipeException extends IOException {
  private static final long serialVersionUID = 1L;

  public UntrustedPipeException(String message) {
    super(message);
  }

  public UntrustedPipeException(String message, Throwable cause) {
    super(message, cause);
  }
}
