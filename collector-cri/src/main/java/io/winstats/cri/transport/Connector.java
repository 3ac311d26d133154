package io.winstats.cri.transport;

import java.io.IOException;

/** Opens a new {@link Connection} to the runtime, once per gRPC (re)connect. Must be thread-safe. */
@FunctionalInterface
public interface Connector {
  /**
   * Connects, blocking at most for the implementation's own timeout.
   *
   * @throws IOException if the server is absent, busy beyond the timeout, or refuses the connection
   */
  Connection open() throws IOException;
}
