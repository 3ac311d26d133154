package io.winstats.cri.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.cri.testing.Deadline;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ConnectionSocket} over {@link UnixSocketConnection}s to a plain JDK Unix-socket server, used the way gRPC's
 * OkHttp transport uses a socket: one thread reading its input stream while another writes its output stream, close
 * from a third. What is written arrives intact and in order both ways at once, end of stream travels both ways after
 * the last byte, close wakes a blocked read, and a failed connect reaches the caller as the connector's exception.
 * The named pipe takes the same path on Windows with another {@link Connection}. Not on Windows, whose AF_UNIX sockets
 * differ in details not under test here.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class ConnectionSocketTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir Path dir;

  private final List<AutoCloseable> cleanups = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (int i = cleanups.size() - 1; i >= 0; i--) {
      cleanups.get(i).close();
    }
  }

  private Path serve(String name, java.util.function.Consumer<SocketChannel> session) throws IOException {
    UnixSocketServer server = UnixSocketServer.serve(dir.resolve(name), session);
    cleanups.add(server);
    return server.socket();
  }

  private Socket connect(Path socket) throws IOException {
    Socket s = new ConnectorSocketFactory(() -> UnixSocketConnection.open(socket), "unix://" + socket)
        .createSocket(InetAddress.getLoopbackAddress(), 1);
    cleanups.add(s);
    return s;
  }

  private static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Reads {@code in} to its end of stream. */
  private static CompletableFuture<byte[]> drain(InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          ByteArrayOutputStream got = new ByteArrayOutputStream();
          byte[] buffer = new byte[8192]; // Okio reads into 8 KiB segments
          try {
            for (int n; (n = in.read(buffer, 0, buffer.length)) >= 0; ) {
              got.write(buffer, 0, n);
            }
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
          return got.toByteArray();
        });
  }

  /**
   * Writes 8 MiB while the echo comes back on another thread. Streams that share one lock between reading and
   * writing (the JDK's {@code Channels.newInputStream}/{@code newOutputStream} on a blocking channel) deadlock here
   * once both socket buffers are full.
   */
  @Test
  void eightMebibytesGoBothWaysAtOnceIntactAndInOrder() throws Exception {
    Socket s = connect(serve("echo.sock", UnixSocketServer::echo));
    CompletableFuture<byte[]> echoed = drain(s.getInputStream());
    byte[] sent = random(8 << 20, 1);
    OutputStream out = s.getOutputStream();
    Random sizes = new Random(2);
    for (int at = 0; at < sent.length; ) {
      int n = Math.min(sent.length - at, 1 + sizes.nextInt(300_000));
      out.write(sent, at, n);
      at += n;
    }
    s.shutdownOutput();
    assertThat(s.isOutputShutdown()).isTrue();
    assertThat(Arrays.equals(echoed.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS), sent)).isTrue();
  }

  @Test
  void theServersEndOfStreamArrivesAfterItsLastByte() throws Exception {
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
    Socket s = connect(socket);
    assertThat(drain(s.getInputStream()).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(farewell);
    assertThat(s.getInputStream().read()).isEqualTo(-1);
  }

  @Test
  void closingTheSocketReachesTheServerAsEndOfStreamAfterTheLastByte() throws Exception {
    List<byte[]> sessions = new CopyOnWriteArrayList<>();
    Path socket =
        serve(
            "sink.sock",
            s -> {
              ByteArrayOutputStream got = new ByteArrayOutputStream();
              try (s) {
                ByteBuffer buffer = ByteBuffer.allocate(8192);
                while (s.read(buffer) >= 0) {
                  got.write(buffer.array(), 0, buffer.position());
                  buffer.clear();
                }
                sessions.add(got.toByteArray());
              } catch (IOException ignored) {
                // Not recorded: a session without end of stream.
              }
            });
    Socket s = connect(socket);
    byte[] sent = random(3 << 20, 4);
    s.getOutputStream().write(sent);
    s.getOutputStream().close(); // as a socket's stream does, closes the socket
    assertThat(s.isClosed()).isTrue();
    Deadline.await("the server to see end of stream", TIMEOUT, () -> !sessions.isEmpty());
    assertThat(sessions.get(0)).isEqualTo(sent);
  }

  @Test
  void closeWakesAReadBlockedOnAnotherThread() throws Exception {
    Socket s = connect(serve("silent.sock", c -> {})); // connected, never answers
    CompletableFuture<Throwable> read =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                s.getInputStream().read(new byte[16], 0, 16);
                return null;
              } catch (IOException e) {
                return e;
              }
            });
    Thread.sleep(100); // let the read block
    s.close();
    assertThat(read.get(10, TimeUnit.SECONDS)).isInstanceOf(IOException.class);
    assertThatThrownBy(s::getInputStream).isInstanceOf(SocketException.class).hasMessage("Socket is closed");
    s.close(); // idempotent
  }

  @Test
  void answersWhatOkHttpAsksOfASocket() throws IOException {
    Path socket = serve("echo.sock", UnixSocketServer::echo);
    Socket s = connect(socket);
    s.setTcpNoDelay(true);
    assertThat(s.getTcpNoDelay()).isTrue();
    assertThat(s.isConnected()).isTrue();
    assertThat(s.isClosed()).isFalse();
    assertThat(s.getRemoteSocketAddress()).hasToString("unix://" + socket);
    assertThat(s.getLocalSocketAddress()).isNotNull();
    s.getOutputStream().write(7);
    assertThat(s.getInputStream().read()).isEqualTo(7);
  }

  @Test
  void aFailedConnectIsTheConnectorsExceptionAndTheNextConnectOpensAgain() throws Exception {
    Path socket = dir.resolve("late.sock");
    AtomicInteger opens = new AtomicInteger();
    ConnectorSocketFactory factory = new ConnectorSocketFactory(UnixSocketServer.counting(socket, opens), "late");
    assertThatThrownBy(() -> factory.createSocket("127.0.0.1", 1))
        .isInstanceOf(SocketException.class)
        .hasMessageContaining("No such file or directory");

    serve("late.sock", UnixSocketServer::echo);
    try (Socket s = factory.createSocket(InetAddress.getLoopbackAddress(), 1)) {
      s.getOutputStream().write(new byte[] {1, 2, 3});
      byte[] got = new byte[3];
      assertThat(s.getInputStream().readNBytes(got, 0, 3)).isEqualTo(3);
      assertThat(got).containsExactly(1, 2, 3);
    }
    assertThat(opens).hasValue(2);
  }
}
