package io.winstats.cri.npipe;

import io.winstats.cri.rounds.CriStatsReaders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.WString;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.win32.StdCallLibrary;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.api.ListPodSandboxStatsRequest;
import io.winstats.cri.api.ListPodSandboxStatsResponse;
import io.winstats.cri.api.RuntimeServiceGrpc;
import io.winstats.cri.api.VersionRequest;
import io.winstats.cri.api.VersionResponse;
import io.winstats.cri.testing.Deadline;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * {@link WindowsPipeConnection} against real named pipes that the test serves itself with {@code CreateNamedPipeW}
 * and overlapped {@code ConnectNamedPipe}: a full gRPC round trip through {@link CriStatsReaders#open} on an {@code
 * npipe://} endpoint (OkHttp over a {@code transport.ConnectionSocket} on the pipe), duplex I/O, close during a read,
 * a missing and a busy pipe. Runs on the Windows CI only.
 */
@EnabledOnOs(OS.WINDOWS)
class WindowsNamedPipeTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private static final int PIPE_ACCESS_DUPLEX = 0x3;
  private static final int PIPE_TYPE_BYTE = 0;
  private static final int PIPE_REJECT_REMOTE_CLIENTS = 0x8;
  private static final int PIPE_UNLIMITED_INSTANCES = 255;

  /** The server half of the pipe API, for the test's own pipe servers. */
  interface ServerKernel32 extends StdCallLibrary {
    Pointer CreateNamedPipeW(
        WString name,
        int openMode,
        int pipeMode,
        int maxInstances,
        int outBufferSize,
        int inBufferSize,
        int defaultTimeoutMillis,
        Pointer securityAttributes);

    boolean ConnectNamedPipe(Pointer pipe, Pointer overlapped);

    Pointer CreateEventW(Pointer securityAttributes, boolean manualReset, boolean initialState, WString name);

    boolean GetOverlappedResult(Pointer file, Pointer overlapped, IntByReference transferred, boolean wait);

    boolean CancelIoEx(Pointer file, Pointer overlapped);

    boolean CloseHandle(Pointer handle);
  }

  private static ServerKernel32 kernel;

  /** Bound on first use, never while JUnit merely inspects this class on another OS. */
  private static synchronized ServerKernel32 k() {
    if (kernel == null) {
      kernel = Native.load("kernel32", ServerKernel32.class);
    }
    return kernel;
  }

  private final List<AutoCloseable> cleanups = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (int i = cleanups.size() - 1; i >= 0; i--) {
      cleanups.get(i).close();
    }
  }

  /**
   * Opens a pipe this test serves: its server is this process, trusted by its own token user (a test runner need not
   * be LocalSystem or an elevated administrator).
   */
  private static WindowsPipeConnection openTrustingThisProcess(String path, Duration busyTimeout) throws IOException {
    String self = WindowsServerProcessInspector.INSTANCE.inspect(ProcessHandle.current().pid()).userSid();
    return WindowsPipeConnection.open(
        path, busyTimeout, new PipeServerTrust(WindowsServerProcessInspector.INSTANCE, Set.of(self)));
  }

  @Test
  void theServerOfAPipeIsIdentifiedByPidTokenAndImage() throws Exception {
    String path = uniquePipe();
    List<WindowsPipeConnection> held = new CopyOnWriteArrayList<>();
    servePipe(path, PIPE_UNLIMITED_INSTANCES, held::add);
    cleanups.add(() -> held.forEach(WindowsPipeConnection::close));
    Pointer client =
        WindowsPipeConnection.kernel().k().CreateFileW(
            new WString(path),
            WindowsPipeConnection.GENERIC_READ | WindowsPipeConnection.GENERIC_WRITE,
            0,
            null,
            WindowsPipeConnection.OPEN_EXISTING,
            WindowsPipeConnection.FILE_FLAG_OVERLAPPED,
            null);
    assertThat(Pointer.nativeValue(client)).isNotEqualTo(-1L);
    try {
      long pid = WindowsPipeConnection.serverProcessId(WindowsPipeConnection.kernel().k(), path, client);
      assertThat(pid).isEqualTo(ProcessHandle.current().pid());
      PipeServerProcess self = WindowsServerProcessInspector.INSTANCE.inspect(pid);
      assertThat(self.userSid()).startsWith("S-1-5-");
      assertThat(self.ownerSid()).startsWith("S-1-5-");
      assertThat(self.imagePath()).endsWithIgnoringCase("java.exe");
    } finally {
      k().CloseHandle(client);
    }
  }

  @Test
  void aServerWithoutATrustedSidIsRefusedBeforeAnythingIsSent() throws Exception {
    String path = uniquePipe();
    List<WindowsPipeConnection> held = new CopyOnWriteArrayList<>();
    servePipe(path, PIPE_UNLIMITED_INSTANCES, held::add);
    cleanups.add(() -> held.forEach(WindowsPipeConnection::close));
    // Nobody's SID: whatever account runs the test, its pipe is untrusted.
    PipeServerTrust nobody = new PipeServerTrust(WindowsServerProcessInspector.INSTANCE, Set.of("S-1-0-0"));
    assertThatThrownBy(() -> WindowsPipeConnection.open(path, Duration.ofSeconds(2), nobody))
        .isInstanceOf(UntrustedPipeException.class)
        .hasMessageContaining("pid=" + ProcessHandle.current().pid())
        .hasMessageContaining("java.exe");
    // The client handle was closed: the server's session sees the end of the stream.
    Deadline.await("the server to see the connection", TIMEOUT, () -> !held.isEmpty());
    assertThat(held.get(0).read(ByteBuffer.allocate(16))).isEqualTo(-1);
  }

  @Test
  void aProcessThatDoesNotExistCannotBeInspected() {
    // OpenProcess(0) fails with ERROR_INVALID_PARAMETER: pid 0 is the idle process.
    assertThatThrownBy(() -> WindowsServerProcessInspector.INSTANCE.inspect(0))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("OpenProcess pid=0: ERROR_INVALID_PARAMETER (87)");
  }

  private static String uniquePipe() {
    return "\\\\.\\pipe\\winstats-test-" + UUID.randomUUID();
  }

  private static Pointer createInstance(String path, int maxInstances) {
    Pointer h =
        k().CreateNamedPipeW(
            new WString(path),
            PIPE_ACCESS_DUPLEX | WindowsPipeConnection.FILE_FLAG_OVERLAPPED,
            PIPE_TYPE_BYTE | PIPE_REJECT_REMOTE_CLIENTS,
            maxInstances,
            65_536,
            65_536,
            0,
            null);
    if (h == null || Pointer.nativeValue(h) == -1L) {
      throw new IllegalStateException("CreateNamedPipeW: " + Win32Error.describe(Native.getLastError()));
    }
    return h;
  }

  /**
   * Serves {@code path}: one pipe instance at a time, each handed to {@code session} once a client connected. The
   * first instance exists when this returns.
   */
  private void servePipe(String path, int maxInstances, SessionHandler session) {
    Pointer first = createInstance(path, maxInstances);
    Memory overlapped = new Memory(new WindowsPipeConnection.Overlapped().size());
    Pointer event = k().CreateEventW(null, true, false, null);
    int eventOffset = new WindowsPipeConnection.Overlapped().offsetOf("hEvent");
    Pointer[] current = {first};
    boolean[] stopped = {false};
    Thread acceptor =
        new Thread(
            () -> {
              while (true) {
                Pointer h = current[0];
                overlapped.clear();
                overlapped.setPointer(eventOffset, event);
                boolean connected = k().ConnectNamedPipe(h, overlapped);
                if (!connected) {
                  int error = Native.getLastError();
                  if (Win32Error.ERROR_IO_PENDING.is(error)) {
                    connected = k().GetOverlappedResult(h, overlapped, new IntByReference(), true);
                  } else {
                    connected = Win32Error.ERROR_PIPE_CONNECTED.is(error);
                  }
                }
                synchronized (stopped) {
                  if (!connected || stopped[0]) {
                    k().CloseHandle(h);
                    return;
                  }
                  try {
                    session.handle(WindowsPipeConnection.adopt(path, h));
                  } catch (IOException e) {
                    throw new IllegalStateException(e);
                  }
                  if (maxInstances == 1) {
                    return;
                  }
                  current[0] = createInstance(path, maxInstances);
                }
              }
            },
            "test-pipe-acceptor");
    acceptor.setDaemon(true);
    acceptor.start();
    cleanups.add(
        () -> {
          synchronized (stopped) {
            stopped[0] = true;
            k().CancelIoEx(current[0], null);
          }
          acceptor.join(TimeUnit.SECONDS.toMillis(10));
          k().CloseHandle(event);
        });
  }

  interface SessionHandler {
    void handle(WindowsPipeConnection serverSide) throws IOException;
  }

  /** Echoes every byte on a thread of its own. */
  private static void echo(WindowsPipeConnection c) {
    Thread t =
        new Thread(
            () -> {
              ByteBuffer buffer = ByteBuffer.allocate(8192);
              try (c) {
                while (c.read(buffer) >= 0) {
                  buffer.flip();
                  c.write(buffer);
                  buffer.clear();
                }
              } catch (IOException ignored) {
                // The client went away.
              }
            },
            "test-echo");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Relays one pipe session to a TCP connection to {@code server} and back, a thread per direction, until either side
   * ends: the pipe server's side of the test, standing in for containerd's own gRPC server on its pipe. The reader
   * closing its pipe, or the gRPC server stopping, ends both directions.
   */
  private void relayToTcp(WindowsPipeConnection pipe, InetSocketAddress server) throws IOException {
    Socket tcp = new Socket(server.getAddress(), server.getPort());
    tcp.setTcpNoDelay(true);
    InputStream fromServer = tcp.getInputStream();
    OutputStream toServer = tcp.getOutputStream();
    Runnable closeBoth =
        () -> {
          pipe.close();
          try {
            tcp.close();
          } catch (IOException ignored) {
            // Closing is best effort.
          }
        };
    daemon(
        "test-relay-up",
        () -> {
          ByteBuffer buffer = ByteBuffer.allocate(65_536);
          try {
            for (int n; (n = pipe.read(buffer)) > 0; buffer.clear()) {
              toServer.write(buffer.array(), 0, n);
            }
          } catch (IOException ignored) {
            // Either side went away.
          } finally {
            closeBoth.run();
          }
        });
    daemon(
        "test-relay-down",
        () -> {
          byte[] buffer = new byte[65_536];
          try {
            for (int n; (n = fromServer.read(buffer)) >= 0; ) {
              pipe.write(ByteBuffer.wrap(buffer, 0, n));
            }
          } catch (IOException ignored) {
            // Either side went away.
          } finally {
            closeBoth.run();
          }
        });
  }

  private static void daemon(String name, Runnable task) {
    Thread t = new Thread(task, name);
    t.setDaemon(true);
    t.start();
  }

  @Test
  void aGrpcCallThroughARealNamedPipe() throws Exception {
    String path = uniquePipe();
    // A gRPC server on loopback TCP; the pipe server relays each pipe client to it.
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .addService(
                new RuntimeServiceGrpc.RuntimeServiceImplBase() {
                  @Override
                  public void version(VersionRequest request, StreamObserver<VersionResponse> observer) {
                    observer.onNext(
                        VersionResponse.newBuilder()
                            .setRuntimeName("pipe-runtime")
                            .setRuntimeVersion("x".repeat(3 << 20))
                            .build());
                    observer.onCompleted();
                  }

                  @Override
                  public void listPodSandboxStats(
                      ListPodSandboxStatsRequest request, StreamObserver<ListPodSandboxStatsResponse> observer) {
                    observer.onNext(ListPodSandboxStatsResponse.getDefaultInstance());
                    observer.onCompleted();
                  }
                })
            .build()
            .start();
    cleanups.add(() -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    InetSocketAddress grpcAddress = (InetSocketAddress) server.getListenSockets().get(0);
    servePipe(path, PIPE_UNLIMITED_INSTANCES, serverSide -> relayToTcp(serverSide, grpcAddress));

    CriEndpoint endpoint = CriEndpoint.parse("npipe:////./pipe/" + path.substring("\\\\.\\pipe\\".length()));
    CriReaderOptions options =
        CriReaderOptions.of(Duration.ofSeconds(10), Clock.systemUTC()).withWindowsHost(OS.WINDOWS.isCurrentOs());
    try (CriStatsReader reader = CriStatsReaders.open(endpoint, options)) {
      RuntimeSample sample = reader.sample();
      assertThat(sample.pods()).isEmpty();
      assertThat(sample.runtimeName()).startsWith("pipe-runtime xxx").hasSize("pipe-runtime ".length() + (3 << 20));
    }
    assertThat(WindowsPipeConnection.kernelBound()).isTrue();
  }

  @Test
  void readsAndWritesAtTheSameTime() throws Exception {
    String path = uniquePipe();
    servePipe(path, PIPE_UNLIMITED_INSTANCES, WindowsNamedPipeTest::echo);
    byte[] sent = new byte[4 << 20];
    new Random(7).nextBytes(sent);
    try (WindowsPipeConnection c = openTrustingThisProcess(path, Duration.ofSeconds(2))) {
      // The reader is blocked in ReadFile before the first write: a synchronous handle would deadlock here.
      Future<byte[]> echoed =
          CompletableFuture.supplyAsync(
              () -> {
                byte[] got = new byte[sent.length];
                ByteBuffer into = ByteBuffer.wrap(got);
                try {
                  while (into.hasRemaining() && c.read(into) > 0) {
                    // keep reading
                  }
                } catch (IOException e) {
                  throw new IllegalStateException(e);
                }
                return got;
              });
      c.write(ByteBuffer.wrap(sent));
      assertThat(Arrays.equals(echoed.get(30, TimeUnit.SECONDS), sent)).isTrue();
    }
  }

  @Test
  void closeWakesABlockedRead() throws Exception {
    String path = uniquePipe();
    List<WindowsPipeConnection> held = new CopyOnWriteArrayList<>();
    servePipe(path, PIPE_UNLIMITED_INSTANCES, held::add); // connected, silent
    cleanups.add(() -> held.forEach(WindowsPipeConnection::close));
    WindowsPipeConnection c = openTrustingThisProcess(path, Duration.ofSeconds(2));
    CompletableFuture<Throwable> read =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                c.read(ByteBuffer.allocate(16));
                return null;
              } catch (IOException e) {
                return e;
              }
            });
    Deadline.await("the server to hold the connection", TIMEOUT, () -> !held.isEmpty());
    c.close();
    assertThat(read.get(10, TimeUnit.SECONDS)).isInstanceOf(AsynchronousCloseException.class);
  }

  @Test
  void theServerClosingIsEndOfStream() throws Exception {
    String path = uniquePipe();
    servePipe(path, PIPE_UNLIMITED_INSTANCES, WindowsPipeConnection::close);
    try (WindowsPipeConnection c = openTrustingThisProcess(path, Duration.ofSeconds(2))) {
      assertThat(c.read(ByteBuffer.allocate(16))).isEqualTo(-1);
    }
  }

  @Test
  void aMissingPipeFailsAtOnceByName() {
    String path = uniquePipe();
    assertThatThrownBy(() -> openTrustingThisProcess(path, Duration.ofSeconds(5)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("ERROR_FILE_NOT_FOUND (2)");
    CriEndpoint endpoint = CriEndpoint.parse("npipe:////./pipe/" + path.substring("\\\\.\\pipe\\".length()));
    CriReaderOptions options =
        CriReaderOptions.of(Duration.ofSeconds(5), Clock.systemUTC()).withWindowsHost(OS.WINDOWS.isCurrentOs());
    try (CriStatsReader reader = CriStatsReaders.open(endpoint, options)) {
      // The connect failure is the status's cause, so the reader's message names the Win32 error.
      assertThatThrownBy(reader::sample)
          .isInstanceOfSatisfying(
              CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.UNAVAILABLE))
          .hasMessageContaining("ERROR_FILE_NOT_FOUND (2)");
    }
  }

  @Test
  void aBusyPipeIsWaitedForThenReportedByName() throws Exception {
    String path = uniquePipe();
    List<WindowsPipeConnection> held = new CopyOnWriteArrayList<>();
    servePipe(path, 1, held::add); // its only instance gets taken
    cleanups.add(() -> held.forEach(WindowsPipeConnection::close));
    try (WindowsPipeConnection first = openTrustingThisProcess(path, Duration.ofSeconds(2))) {
      Deadline.await("the server to hold the connection", TIMEOUT, () -> !held.isEmpty());
      assertThat(first.toString()).endsWith(path);
      assertThatThrownBy(() -> openTrustingThisProcess(path, Duration.ofMillis(300)))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("ERROR_PIPE_BUSY (231)");
    }
  }
}
