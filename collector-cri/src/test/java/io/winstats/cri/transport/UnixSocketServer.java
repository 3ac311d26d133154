package io.winstats.cri.transport;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** A plain JDK Unix-socket server for transport tests: runs a session on a thread of its own per connection. */
public final class UnixSocketServer implements AutoCloseable {
  private final Path socket;
  private final ServerSocketChannel server;

  private UnixSocketServer(Path socket, ServerSocketChannel server) {
    this.socket = socket;
    this.server = server;
  }

  /** Listens on {@code socket} and hands every accepted connection to {@code session}. */
  public static UnixSocketServer serve(Path socket, Consumer<SocketChannel> session) throws IOException {
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    Thread acceptor =
        new Thread(
            () -> {
              while (server.isOpen()) {
                try {
                  SocketChannel s = server.accept();
                  Thread t = new Thread(() -> session.accept(s), "test-session");
                  t.setDaemon(true);
                  t.start();
                } catch (IOException e) {
                  return;
                }
              }
            },
            "test-acceptor");
    acceptor.setDaemon(true);
    acceptor.start();
    return new UnixSocketServer(socket, server);
  }

  /** Sends back every byte until the client's end of stream, then ends its own. */
  public static void echo(SocketChannel s) {
    try (s) {
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      while (s.read(buffer) >= 0) {
        buffer.flip();
        while (buffer.hasRemaining()) {
          s.write(buffer);
        }
        buffer.clear();
      }
      s.shutdownOutput();
    } catch (IOException ignored) {
      // The client went away.
    }
  }

  /** A connector to {@code socket} that counts its attempts in {@code opens}, failed ones included. */
  public static Connector counting(Path socket, AtomicInteger opens) {
    return () -> {
      opens.incrementAndGet();
      return UnixSocketConnection.open(socket);
    };
  }

  public Path socket() {
    return socket;
  }

  @Override
  public void close() throws IOException {
    server.close();
    Files.deleteIfExists(socket);
  }
}
