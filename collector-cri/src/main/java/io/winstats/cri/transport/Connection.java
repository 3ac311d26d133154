package io.winstats.cri.transport;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A connected full-duplex byte stream to the runtime: a Unix socket ({@link UnixSocketConnection}) or one Windows
 * named-pipe client handle ({@code npipe.WindowsPipeConnection}). {@link ConnectionSocket} hands it to gRPC.
 *
 * <p><b>Threads.</b> One thread may read while another writes; neither blocks the other (HTTP/2 reads and writes at
 * once). Concurrent reads (or concurrent writes) are not allowed. {@link #close()} may be called from any thread at
 * any time and makes a blocked {@link #read} or {@link #write} fail promptly.
 */
public interface Connection extends AutoCloseable {
  /**
   * Reads at least one byte into {@code dst}, blocking until some arrive.
   *
   * @return the number of bytes read (at least 1 if {@code dst} has room), or -1 when the peer closed the stream
   * @throws IOException if the stream failed, or {@link java.nio.channels.AsynchronousCloseException} if {@link
   *     #close()} was called
   */
  int read(ByteBuffer dst) throws IOException;

  /**
   * Writes every remaining byte of {@code src}, blocking until the OS has taken them all.
   *
   * @throws IOException if the stream failed or was closed
   */
  void write(ByteBuffer src) throws IOException;

  /**
   * Signals end of stream to the peer after the bytes already written, if the transport can (a Unix socket can; a
   * named pipe cannot, so there this does nothing and the peer sees the end at {@link #close()}).
   *
   * @throws IOException if the stream failed
   */
  void shutdownOutput() throws IOException;

  /** Releases the connection; idempotent, never throws. */
  @Override
  void close();
}
