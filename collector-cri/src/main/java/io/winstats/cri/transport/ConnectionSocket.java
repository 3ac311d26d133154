package io.winstats.cri.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketImpl;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Socket} whose bytes go through a {@link Connection}: how gRPC's OkHttp transport, which speaks to sockets
 * only, reaches a Unix socket or a Windows named pipe (grpc-java has no named-pipe transport, grpc/grpc-java#12027;
 * the JDK's Unix-domain {@code SocketChannel} has no {@code socket()} adapter).
 *
 * <p>OkHttp reads on one thread and writes on another through {@link #getInputStream()} and {@link
 * #getOutputStream()}, sets {@code TCP_NODELAY} (a no-op here) and asks for the two addresses; those calls are what
 * this class answers. It has no socket implementation of its own ({@code SocketImpl} is null), so options that only
 * mean something for TCP (timeouts, buffer sizes) are not available: nothing on this path asks for them (OkHttp sets a
 * read timeout only on a socket to an HTTP proxy, which the channel never uses).
 */
public final class ConnectionSocket extends Socket {
  private final Connection connection;
  private final SocketAddress remote;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final InputStream in = new In();
  private final OutputStream out = new Out();
  private volatile boolean outputShutdown;

  private ConnectionSocket(Connection connection, String name) throws SocketException {
    super((SocketImpl) null);
    this.connection = connection;
    this.remote = new Address(name);
  }

  /**
   * Wraps an open connection; the socket owns it from here on.
   *
   * @param name what the connection leads to, for log lines and gRPC's address attributes
   */
  public static ConnectionSocket over(Connection connection, String name) throws SocketException {
    Objects.requireNonNull(connection, "connection");
    try {
      return new ConnectionSocket(connection, Objects.requireNonNull(name, "name"));
    } catch (SocketException | RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  @Override
  public InputStream getInputStream() throws IOException {
    ensureOpen();
    return in;
  }

  @Override
  public OutputStream getOutputStream() throws IOException {
    ensureOpen();
    return out;
  }

  /** No Nagle on a socket file or a pipe: nothing to set. */
  @Override
  public void setTcpNoDelay(boolean on) throws SocketException {
    ensureOpen();
  }

  @Override
  public boolean getTcpNoDelay() throws SocketException {
    ensureOpen();
    return true;
  }

  @Override
  public void shutdownOutput() throws IOException {
    ensureOpen();
    outputShutdown = true;
    connection.shutdownOutput();
  }

  @Override
  public boolean isOutputShutdown() {
    return outputShutdown;
  }

  @Override
  public SocketAddress getRemoteSocketAddress() {
    return remote;
  }

  /** The client end has no name of its own; the same address as the remote one says which connection it is. */
  @Override
  public SocketAddress getLocalSocketAddress() {
    return remote;
  }

  @Override
  public boolean isConnected() {
    return true;
  }

  @Override
  public boolean isBound() {
    return true;
  }

  @Override
  public boolean isClosed() {
    return closed.get();
  }

  /** Closes the connection, which wakes a read or write blocked on another thread; idempotent. */
  @Override
  public synchronized void close() {
    if (closed.compareAndSet(false, true)) {
      connection.close();
    }
  }

  @Override
  public String toString() {
    return "ConnectionSocket[" + remote + (closed.get() ? ", closed]" : "]");
  }

  private void ensureOpen() throws SocketException {
    if (closed.get()) {
      throw new SocketException("Socket is closed");
    }
  }

  private final class In extends InputStream {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      return connection.read(ByteBuffer.wrap(b, off, len));
    }

    @Override
    public synchronized void close() {
      ConnectionSocket.this.close();
    }
  }

  private final class Out extends OutputStream {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len > 0) {
        connection.write(ByteBuffer.wrap(b, off, len));
      }
    }

    @Override
    public synchronized void close() {
      ConnectionSocket.this.close();
    }
  }

  /** The name of what a connection leads to, as a {@link SocketAddress}. */
  static final class Address extends SocketAddress {
    private static final long serialVersionUID = 1L;

    private final String name;

    Address(String name) {
      this.name = name;
    }

    @Override
    public boolean equals(@Nullable Object o) {
      return o instanceof Address a && a.name.equals(name);
    }

    @Override
    public int hashCode() {
      return name.hashCode();
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
