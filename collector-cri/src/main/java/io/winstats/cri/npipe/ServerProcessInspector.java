package io.winstats.cri.npipe;

import java.io.IOException;

/** Reads what {@link PipeServerTrust} judges a pipe's server by: {@link WindowsServerProcessInspector}, or a fake. */
@FunctionalInterface
public interface ServerProcessInspector {
  /**
   * Describes a running process.
   *
   * @throws IOException if the process cannot be opened at all (gone, or access denied)
   */
  PipeServerProcess inspect(long pid) throws IOException;
}
