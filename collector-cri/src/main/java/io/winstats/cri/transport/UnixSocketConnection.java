package io.winstats.cri.transport;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * A {@link Connection} over a Unix socket, the JDK's own ({@link SocketChannel} with {@link
 * StandardProtocolFamily#UNIX}, JDK 16+): no native library of ours. The channel is blocking; its reads and writes
 * hold separate locks, so one reader and one writer proceed at once, and closing it wakes both.
 */
public final class UnixSocketConnection implements Connection {
  private final SocketChannel channel;

  private UnixSocketConnection(SocketChannel channel) {
    this.channel = channel;
  }

  /**
   * Connects to {@code socket}.
   *
   * @throws IOException as the JDK reports it: a {@link java.net.SocketException} "No such file or directory" when
   *     nothing is there, a {@link java.net.ConnectException} when nobody listens, "Permission denied" when the
   *     daemon may not open it
   */
  public static UnixSocketConnection open(Path socket) throws IOException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      ch.connect(UnixDomainSocketAddress.of(socket));
      return new UnixSocketConnection(ch);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    return channel.read(dst);
  }

  @Override
  public void write(ByteBuffer src) throws IOException {
    while (src.hasRemaining()) {
      channel.write(src);
    }
  }

  @Override
  public void shutdownOutput() throws IOException {
    channel.shutdownOutput();
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException ignored) {
      // Closing is best effort; the descriptor is released either way.
    }
  }

  @Override
  public String toString() {
    try {
      return "unix " + channel.getRemoteAddress();
    } catch (IOException e) {
      return "unix (closed)";
    }
  }
}
