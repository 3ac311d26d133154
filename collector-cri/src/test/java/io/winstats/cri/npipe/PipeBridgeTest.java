package io.winstats.cri.npipe;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.netty.shaded.io.netty.bootstrap.Bootstrap;
import io.grpc.netty.shaded.io.netty.buffer.ByteBuf;
import io.grpc.netty.shaded.io.netty.buffer.Unpooled;
import io.grpc.netty.shaded.io.netty.channel.Channel;
import io.grpc.netty.shaded.io.netty.channel.ChannelHandlerContext;
import io.grpc.netty.shaded.io.netty.channel.ChannelInboundHandlerAdapter;
import io.grpc.netty.shaded.io.netty.channel.local.LocalChannel;
import io.winstats.cri.testing.Deadline;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PipeBridge} at the byte level, over {@link UnixSocketConnection}s to a plain JDK Unix-socket server: what a
 * Netty client writes arrives intact and in order, both ways, under load; end of stream travels both ways after the
 * last byte; failed opens and {@link PipeBridge#close()} leave nothing behind. Not on Windows, whose AF_UNIX sockets
 * differ in details that are not under test here; the Windows CI drives the bridge over real pipes instead.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class PipeBridgeTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir Path dir;

  private final List<AutoCloseable> cleanups = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (int i = cleanups.size() - 1; i >= 0; i--) {
      cleanups.get(i).close();
    }
  }

  /** A Unix-socket server running {@code session} on a thread of its own for every accepted connection. */
  private Path serve(String name, Consumer<SocketChannel> session) throws IOException {
    Path socket = dir.resolve(name);
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
    cleanups.add(
        () -> {
          server.close();
          Files.deleteIfExists(socket);
        });
    return socket;
  }

  /** Reads a session to its end of stream and records what arrived; a session without end of stream is not recorded. */
  private static void sink(SocketChannel s, List<byte[]> sessions) {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
    try (s) {
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      while (s.read(buffer) >= 0) {
        got.write(buffer.array(), 0, buffer.position());
        buffer.clear();
      }
      sessions.add(got.toByteArray());
    } catch (IOException ignored) {
      // Counted as a session without end of stream: never added.
    }
  }

  private static void echo(SocketChannel s) {
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

  private PipeBridge bridge(PipeConnector connector) {
    PipeBridge bridge = PipeBridge.start("test", connector);
    cleanups.add(bridge);
    return bridge;
  }

  /** A Netty client of the bridge that records what it receives. */
  private static final class Client extends ChannelInboundHandlerAdapter {
    final ByteArrayOutputStream received = new ByteArrayOutputStream();
    Channel channel;

    static Client connect(PipeBridge bridge) {
      Client client = new Client();
      client.channel =
          new Bootstrap()
              .group(bridge.eventLoopGroup())
              .channel(LocalChannel.class)
              .handler(client)
              .connect(bridge.address())
              .syncUninterruptibly()
              .channel();
      return client;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ByteBuf buf = (ByteBuf) msg;
      try {
        synchronized (received) {
          buf.readBytes(received, buf.readableBytes());
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      } finally {
        buf.release();
      }
    }

    int size() {
      synchronized (received) {
        return received.size();
      }
    }

    byte[] bytes() {
      synchronized (received) {
        return received.toByteArray();
      }
    }

    boolean closed() {
      return channel.closeFuture().isDone();
    }
  }

  private static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void relaysEightMebibytesBothWaysIntactAndInOrder() throws IOException {
    AtomicInteger opens = new AtomicInteger();
    PipeBridge bridge = bridge(UnixSocketConnection.connector(serve("echo.sock", PipeBridgeTest::echo), opens));
    Client client = Client.connect(bridge);
    byte[] sent = random(8 << 20, 1);
    Random sizes = new Random(2);
    for (int at = 0; at < sent.length; ) {
      int n = Math.min(sent.length - at, 1 + sizes.nextInt(300_000));
      client.channel.writeAndFlush(Unpooled.wrappedBuffer(sent, at, n));
      at += n;
    }
    Deadline.await("the echo of 8 MiB", TIMEOUT, () -> client.size() >= sent.length);
    assertThat(client.bytes()).isEqualTo(sent);
    assertThat(opens).hasValue(1);
    assertThat(bridge.liveConnections()).isEqualTo(1);
  }

  @Test
  void serverEndOfStreamClosesTheClientAfterTheLastByte() throws IOException {
    byte[] farewell = random(300_000, 3);
    Path socket =
        serve(
            "bye.sock",
            s -> {
              try (s) {
                s.write(ByteBuffer.wrap(farewell));
                s.shutdownOutput();
                ByteBuffer sink = ByteBuffer.allocate(1024);
                while (s.read(sink) >= 0) {
                  sink.clear();
                }
              } catch (IOException ignored) {
                // The client went away.
              }
            });
    PipeBridge bridge = bridge(UnixSocketConnection.connector(socket, new AtomicInteger()));
    Client client = Client.connect(bridge);
    Deadline.await("the client to be closed", TIMEOUT, client::closed);
    assertThat(client.bytes()).isEqualTo(farewell);
    Deadline.await("the relay to end", TIMEOUT, () -> bridge.liveConnections() == 0);
  }

  @Test
  void clientCloseReachesTheServerAsEndOfStreamAfterTheLastByte() throws Exception {
    List<byte[]> sessions = new CopyOnWriteArrayList<>();
    Path socket =
        serve("sink.sock", s -> sink(s, sessions));
    PipeBridge bridge = bridge(UnixSocketConnection.connector(socket, new AtomicInteger()));
    Client client = Client.connect(bridge);
    byte[] sent = random(3 << 20, 4);
    client.channel.writeAndFlush(Unpooled.wrappedBuffer(sent));
    client.channel.close().syncUninterruptibly();
    Deadline.await("the server to see end of stream", TIMEOUT, () -> !sessions.isEmpty());
    assertThat(sessions.get(0)).isEqualTo(sent);
    Deadline.await("the relay to end", TIMEOUT, () -> bridge.liveConnections() == 0);
  }

  /**
   * A client that writes and closes before the pipe has opened (a slow or busy pipe) must still have every byte and
   * the end of stream delivered: the relay once lost them, because it read nothing until the pipe opened.
   */
  @Test
  void whatAClientSentBeforeThePipeOpenedStillReachesIt() throws Exception {
    List<byte[]> sessions = new CopyOnWriteArrayList<>();
    Path socket =
        serve("slow.sock", s -> sink(s, sessions));
    PipeConnector fast = UnixSocketConnection.connector(socket, new AtomicInteger());
    PipeConnector slow =
        () -> {
          try {
            Thread.sleep(300); // a pipe that is busy for a while before it opens
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return fast.open();
        };
    PipeBridge bridge = bridge(slow);
    Client client = Client.connect(bridge);
    byte[] sent = random(64 << 10, 5);
    client.channel.writeAndFlush(Unpooled.wrappedBuffer(sent));
    client.channel.close().syncUninterruptibly();
    Deadline.await("the server to see end of stream", TIMEOUT, () -> !sessions.isEmpty());
    assertThat(sessions.get(0)).isEqualTo(sent);
    Deadline.await("the relay to end", TIMEOUT, () -> bridge.liveConnections() == 0);
  }

  @Test
  void aFailedOpenClosesTheClientAndTheNextConnectOpensAgain() throws IOException {
    Path socket = dir.resolve("late.sock");
    AtomicInteger opens = new AtomicInteger();
    PipeBridge bridge = bridge(UnixSocketConnection.connector(socket, opens));

    Client refused = Client.connect(bridge);
    Deadline.await("the client to be closed", TIMEOUT, refused::closed);
    assertThat(refused.size()).isZero();
    assertThat(opens).hasValue(1);
    Deadline.await("the failed relay to be forgotten", TIMEOUT, () -> bridge.liveConnections() == 0);

    serve("late.sock", PipeBridgeTest::echo);
    Client client = Client.connect(bridge);
    client.channel.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
    Deadline.await("the echo", TIMEOUT, () -> client.size() == 3);
    assertThat(client.bytes()).containsExactly(1, 2, 3);
    assertThat(opens).hasValue(2);
  }

  @Test
  void closeEndsEveryConnectionAndThread() throws IOException {
    List<Boolean> ended = new CopyOnWriteArrayList<>();
    Path socket =
        serve(
            "held.sock",
            s -> {
              try (s) {
                ByteBuffer buffer = ByteBuffer.allocate(64);
                while (s.read(buffer) >= 0) {
                  buffer.clear();
                }
                ended.add(true);
              } catch (IOException ignored) {
                ended.add(true);
              }
            });
    PipeBridge bridge = PipeBridge.start("test", UnixSocketConnection.connector(socket, new AtomicInteger()));
    Client a = Client.connect(bridge);
    Client b = Client.connect(bridge);
    Deadline.await("two relayed connections", TIMEOUT, () -> bridge.liveConnections() == 2);
    Deadline.await("the bridge threads", TIMEOUT, () -> bridgeThreads() >= 5);

    bridge.close();
    assertThat(a.closed()).isTrue();
    assertThat(b.closed()).isTrue();
    Deadline.await("the server to see both connections end", TIMEOUT, () -> ended.size() == 2);
    Deadline.await("the bridge threads to end", TIMEOUT, () -> bridgeThreads() == 0);
    assertThat(bridge.liveConnections()).isZero();
  }

  private static long bridgeThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith(PipeBridge.THREAD_PREFIX))
        .count();
  }
}
