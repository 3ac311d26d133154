package io.winstats.cri.rounds;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriReaderOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A round that cannot connect names why, in the {@code reason} label ({@link CriException#label()}) and the message:
 * each case made for real on a Unix socket where this host can make it.
 */
@EnabledOnOs(OS.LINUX)
class CriConnectionFailureTest {
  @TempDir Path dir;

  private static CriException failedRound(RuntimeStatsReader reader) {
    try (reader) {
      return catchThrowableOfType(CriException.class, reader::sample);
    }
  }

  private static CriException failedRound(Path socket) {
    return failedRound(
        RuntimeStatsReader.open(
            CriEndpoint.parse("unix://" + socket), CriReaderOptions.of(Duration.ofSeconds(5), Clock.systemUTC())));
  }

  @Test
  void aMissingSocketIsEndpointMissing() {
    CriException e = failedRound(dir.resolve("containerd.sock"));
    assertThat(e.label()).isEqualTo("endpoint_missing");
    assertThat(e.reason()).isEqualTo(CriException.Reason.UNAVAILABLE);
    assertThat(e.getMessage()).contains("No such file or directory");
  }

  /** What a runtime that stopped leaves: the socket file, with nobody accepting on it. */
  @Test
  void aSocketNobodyListensOnIsConnectionRefused() throws IOException {
    Path socket = dir.resolve("containerd.sock");
    try (ServerSocketChannel gone = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      gone.bind(UnixDomainSocketAddress.of(socket));
    }
    CriException e = failedRound(socket);
    assertThat(e.label()).isEqualTo("connection_refused");
    assertThat(e.getMessage()).contains("Connection refused");
  }

  /** An endpoint that is not a gRPC server: an HTTP/1.1 answer read as an HTTP/2 frame header. */
  @Test
  void anHttp1ServerIsAProtocolMismatch() throws Exception {
    Path socket = dir.resolve("http.sock");
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      Thread http1 = new Thread(() -> {
        try {
          while (true) {
            try (SocketChannel c = server.accept()) {
              c.read(ByteBuffer.allocate(4096));
              c.write(ByteBuffer.wrap(
                  "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                      .getBytes(StandardCharsets.US_ASCII)));
            }
          }
        } catch (IOException closed) {
          // the test is over
        }
      });
      http1.setDaemon(true);
      http1.start();

      CriException e = failedRound(socket);

      assertThat(e.label()).isEqualTo("protocol_mismatch");
      assertThat(e.getMessage()).contains("FRAME_SIZE_ERROR");
    }
  }

  /**
   * Permission denied cannot be made here: the tests run as root, whom a socket's mode does not stop. The connector
   * fails as the JDK's SocketChannel.connect does on EACCES.
   */
  @Test
  void aSocketThatRefusesThisUserIsPermissionDenied() {
    CriException e = failedRound(RuntimeStatsReader.openOver("unix:///run/containerd/containerd.sock", () -> {
      throw new SocketException("Permission denied");
    }, Duration.ofSeconds(5), Clock.systemUTC()));
    assertThat(e.label()).isEqualTo("permission_denied");
  }

  /** The named-pipe client's failures, as WindowsPipeConnection words them ("CreateFileW PATH: ERROR_NAME (code)"). */
  @Test
  void namedPipeErrorsAreReadByTheirWin32Names() {
    assertThat(RuntimeCalls.connectionFailure(
            new IOException("CreateFileW \\\\.\\pipe\\containerd-containerd: ERROR_FILE_NOT_FOUND (2)")))
        .isEqualTo(CriException.ConnectionFailure.ENDPOINT_MISSING);
    assertThat(RuntimeCalls.connectionFailure(
            new IOException("CreateFileW \\\\.\\pipe\\containerd-containerd: ERROR_ACCESS_DENIED (5)")))
        .isEqualTo(CriException.ConnectionFailure.PERMISSION_DENIED);
    assertThat(RuntimeCalls.connectionFailure(new IOException("End of stream"))).isNull();
  }
}
