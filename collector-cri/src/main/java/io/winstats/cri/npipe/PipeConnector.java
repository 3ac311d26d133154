package io.winstats.cri.npipe;

import java.io.IOException;

/** Opens a new {@link PipeConnection} to the server, once per gRPC (re)connect. Must be thread-safe. */
@FunctionalInterface
public interface PipeConnector {
  /**
   * Connects, blocking at most for the implementation's own timeout.
   *
   * @throws IOException if the server is absent, busy beyond the timeout, or refuses the connection
   */
  PipeConnection open() throws IOException;
}
