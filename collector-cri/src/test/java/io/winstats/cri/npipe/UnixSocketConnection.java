package io.winstats.cri.npipe;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link PipeConnection} over a Unix socket (JDK 16+ {@link SocketChannel}), so that the bridge can be tested on
 * Linux exactly as it runs over a named pipe on Windows: a blocking read on one thread, writes on another, close
 * from any thread.
 */
public final class UnixSocketConnection implements PipeConnection {
  private final SocketChannel channel;

  private UnixSocketConnection(SocketChannel channel) {
    this.channel = channel;
  }

  /** Connects to {@code socket}. */
  public static UnixSocketConnection open(Path socket) throws IOException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      ch.connect(UnixDomainSocketAddress.of(socket));
      return new UnixSocketConnection(ch);
    } catch (IOException e) {
      ch.close();
      throw e;
    }
  }

  /** A connector that opens a new connection each time and counts the attempts in {@code opens}. */
  public static PipeConnector connector(Path socket, AtomicInteger opens) {
    return () -> {
      opens.incrementAndGet();
      return open(socket);
    };
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
      // Closing is best effort.
    }
  }
}
