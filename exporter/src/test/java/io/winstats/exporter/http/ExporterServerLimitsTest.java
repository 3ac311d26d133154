package io.winstats.exporter.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SampleFixtures;
import io.winstats.summary.SummaryAssembler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each configurable HTTP limit, enforced against raw sockets (no client library second-guessing the server). */
class ExporterServerLimitsTest {
  private static final Snapshot READY =
      new Snapshot(
          3,
          SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
          SampleFixtures.linuxNode(SampleFixtures.T0, 0, 20_000_000_000L),
          SampleFixtures.runtime(),
          null);

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private ExporterServer start(HttpLimits limits) {
    ExporterServer s =
        new ExporterServer(
            new ListenAddress("127.0.0.1", 0),
            new ServerSettings(limits, null, null),
            () -> READY,
            new SummaryAssembler("node-a", NodePlatform.LINUX),
            new MetricsRenderer(new PrometheusRegistry(), new PrometheusRegistry(), () -> 1L, Duration.ZERO, () -> 0L));
    s.start();
    open.add(s);
    return s;
  }

  private Socket connect(ExporterServer s) throws IOException {
    Socket socket = new Socket("127.0.0.1", s.port());
    socket.setSoTimeout(20_000);
    open.add(socket);
    return socket;
  }

  private static void write(Socket socket, String text) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  /** The status line and headers of one response, or {@code null} if the server closed the connection first. */
  private static String readHead(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b;
      try {
        b = in.read();
      } catch (SocketTimeoutException e) {
        throw e;
      } catch (IOException e) {
        return null; // reset
      }
      if (b < 0) {
        return head.size() == 0 ? null : head.toString(StandardCharsets.ISO_8859_1);
      }
      head.write(b);
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  /** Reads one response with a Content-Length body, leaving the connection open. */
  private static String exchange(Socket socket, String path) throws IOException {
    write(socket, "GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n");
    String head = readHead(socket);
    assertThat(head).isNotNull();
    int length = Integer.parseInt(head.replaceAll("(?s).*[Cc]ontent-[Ll]ength: (\\d+).*", "$1"));
    socket.getInputStream().readNBytes(length);
    return head;
  }

  private static HttpLimits limits(int headerBytes, long bodyBytes, Duration request, Duration idle, int connections) {
    return new HttpLimits(headerBytes, bodyBytes, request, idle, connections);
  }

  @Test
  void oversizedHeadersAreRefusedAndTheServerKeepsServing() throws Exception {
    ExporterServer s = start(limits(2048, 1024, Duration.ofSeconds(10), Duration.ofSeconds(60), 16));
    Socket big = connect(s);
    write(big, "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Padding: " + "a".repeat(4096) + "\r\n\r\n");
    String head = readHead(big);
    // Undertow answers 400 and closes the connection; the request never reaches a handler.
    assertThat(head).startsWith("HTTP/1.1 400").contains("Connection: close");
    assertThat(readHead(big)).isNull();
    Socket small = connect(s);
    write(small, "GET /healthz HTTP/1.1\r\nHost: t\r\nX-Padding: " + "a".repeat(1024) + "\r\n\r\n");
    assertThat(readHead(small)).startsWith("HTTP/1.1 200");
  }

  @Test
  void anOversizedBodyGets413() throws Exception {
    ExporterServer s = start(limits(16384, 1024, Duration.ofSeconds(10), Duration.ofSeconds(60), 16));
    Socket socket = connect(s);
    write(socket, "POST /stats/summary HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n");
    write(socket, "{" + " ".repeat(4998) + "}");
    assertThat(readHead(socket)).startsWith("HTTP/1.1 413");
    Socket ok = connect(s);
    write(ok, "POST /stats/summary HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    assertThat(readHead(ok)).startsWith("HTTP/1.1 200");
  }

  @Test
  void aChunkedBodyWithoutEndIsAnsweredAndTheConnectionClosed() throws Exception {
    ExporterServer s = start(limits(16384, 1024, Duration.ofSeconds(10), Duration.ofSeconds(60), 16));
    Socket socket = connect(s);
    String chunk = "400\r\n" + " ".repeat(1024) + "\r\n";
    write(socket, "POST /stats/summary HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk);
    String head = readHead(socket);
    assertThat(head).startsWith("HTTP/1.1 200").contains("Connection: close");
    socket.getInputStream().readNBytes(Integer.parseInt(head.replaceAll("(?s).*[Cc]ontent-[Ll]ength: (\\d+).*", "$1")));
    socket.setSoTimeout(100);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    boolean closed = false;
    while (!closed && System.nanoTime() < deadline) {
      try {
        write(socket, chunk);
        closed = socket.getInputStream().read() < 0;
      } catch (SocketTimeoutException e) {
        // still open
      } catch (IOException e) {
        closed = true; // reset while we were still sending
      }
    }
    assertThat(closed).as("the server closed the connection instead of reading the endless body").isTrue();
  }

  @Test
  void aClientDrippingItsHeadersIsCutOffAfterTheRequestTimeout() throws Exception {
    ExporterServer s = start(limits(16384, 1024, Duration.ofSeconds(1), Duration.ofSeconds(60), 16));
    Socket slow = connect(s);
    write(slow, "GET /healthz HTTP/1.1\r\nHost: t\r\n");
    String header = "X-Slow: " + "a".repeat(200) + "\r\n";
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    boolean cut = false;
    // One byte every 100 ms keeps any idle timer from firing; only the parse deadline can end it.
    for (int i = 0; System.nanoTime() < deadline && !cut; i = (i + 1) % header.length()) {
      try {
        write(slow, header.substring(i, i + 1));
        slow.setSoTimeout(100);
        cut = slow.getInputStream().read() < 0;
      } catch (SocketTimeoutException e) {
        // still open
      } catch (IOException e) {
        cut = true;
      }
    }
    assertThat(cut).as("the connection was closed before the 30 s deadline").isTrue();
  }

  @Test
  void anIdleConnectionIsClosed() throws Exception {
    ExporterServer s = start(limits(16384, 1024, Duration.ofSeconds(10), Duration.ofSeconds(1), 16));
    Socket idle = connect(s);
    assertThat(exchange(idle, "/healthz")).startsWith("HTTP/1.1 200");
    assertThat(readHead(idle)).as("closed by the server while kept alive").isNull();
    Socket silent = connect(s);
    assertThat(readHead(silent)).as("closed by the server before any request").isNull();
  }

  @Test
  void connectionsBeyondTheLimitWaitUntilOneCloses() throws Exception {
    ExporterServer s = start(limits(16384, 1024, Duration.ofSeconds(10), Duration.ofSeconds(60), 2));
    Socket first = connect(s);
    Socket second = connect(s);
    assertThat(exchange(first, "/healthz")).startsWith("HTTP/1.1 200");
    assertThat(exchange(second, "/healthz")).startsWith("HTTP/1.1 200");
    Socket third = connect(s); // the kernel completes the TCP handshake; the server does not accept it yet
    write(third, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n");
    third.setSoTimeout(1500);
    boolean served;
    try {
      served = readHead(third) != null;
    } catch (SocketTimeoutException e) {
      served = false;
    }
    assertThat(served).as("a third connection is not served while two are open").isFalse();
    first.close();
    third.setSoTimeout(20_000);
    assertThat(readHead(third)).startsWith("HTTP/1.1 200");
    assertThat(exchange(second, "/healthz")).startsWith("HTTP/1.1 200");
  }
}
