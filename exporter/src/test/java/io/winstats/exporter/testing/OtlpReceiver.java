package io.winstats.exporter.testing;

import com.sun.net.httpserver.HttpServer;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.metrics.v1.MetricsServiceGrpc;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP metrics receiver built from the OTLP protobuf definitions (opentelemetry-proto): OTLP/HTTP protobuf on
 * {@code POST /v1/metrics} (gzip or not) or OTLP/gRPC {@code MetricsService/Export}, on 127.0.0.1. It keeps every
 * request it accepted, and can be told to refuse (HTTP 503, gRPC UNAVAILABLE) or to answer late.
 */
public final class OtlpReceiver implements AutoCloseable {
  /** How the receiver answers. */
  public enum Mode {
    ACCEPT,
    REFUSE,
    SLOW
  }

  private final List<ExportMetricsServiceRequest> received = new CopyOnWriteArrayList<>();
  private final List<String> contentEncodings = new CopyOnWriteArrayList<>();
  private volatile Mode mode = Mode.ACCEPT;
  private volatile Duration delay = Duration.ofSeconds(30);
  private final String endpoint;
  private final AutoCloseable server;

  private OtlpReceiver(boolean grpc) throws IOException {
    if (grpc) {
      Server s =
          NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
              .addService(new MetricsServiceGrpc.MetricsServiceImplBase() {
                @Override
                public void export(
                    ExportMetricsServiceRequest request, StreamObserver<ExportMetricsServiceResponse> response) {
                  if (!answer()) {
                    response.onError(Status.UNAVAILABLE.withDescription("refused by the test").asRuntimeException());
                    return;
                  }
                  received.add(request);
                  response.onNext(ExportMetricsServiceResponse.getDefaultInstance());
                  response.onCompleted();
                }
              })
              .build()
              .start();
      endpoint = "http://127.0.0.1:" + s.getPort();
      server = () -> s.shutdownNow().awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
    } else {
      HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
      s.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
      s.createContext(
          "/v1/metrics",
          exchange -> {
            try (exchange) {
              String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
              contentEncodings.add(encoding == null ? "" : encoding);
              InputStream body = exchange.getRequestBody();
              if ("gzip".equals(encoding)) {
                body = new GZIPInputStream(body);
              }
              ExportMetricsServiceRequest request = ExportMetricsServiceRequest.parseFrom(body.readAllBytes());
              if (!answer()) {
                exchange.sendResponseHeaders(503, -1);
                return;
              }
              received.add(request);
              byte[] ok = ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
              exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
              exchange.sendResponseHeaders(200, ok.length == 0 ? -1 : ok.length);
              if (ok.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                  out.write(ok);
                }
              }
            }
          });
      s.start();
      endpoint = "http://127.0.0.1:" + s.getAddress().getPort();
      server = () -> s.stop(0);
    }
  }

  /** An OTLP/HTTP receiver; the daemon's {@code OTEL_EXPORTER_OTLP_ENDPOINT} is {@link #endpoint()}. */
  public static OtlpReceiver http() throws IOException {
    return new OtlpReceiver(false);
  }

  /** An OTLP/gRPC receiver. */
  public static OtlpReceiver grpc() throws IOException {
    return new OtlpReceiver(true);
  }

  /** Whether to accept this request: false to refuse it; a slow receiver first waits. */
  private boolean answer() {
    if (mode == Mode.SLOW) {
      try {
        Thread.sleep(delay.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return true;
    }
    return mode == Mode.ACCEPT;
  }

  public void mode(Mode mode) {
    this.mode = mode;
  }

  public void delay(Duration delay) {
    this.delay = delay;
  }

  /** The base URL, {@code http://127.0.0.1:PORT}. */
  public String endpoint() {
    return endpoint;
  }

  /** Every accepted request, oldest first. */
  public List<ExportMetricsServiceRequest> received() {
    return List.copyOf(received);
  }

  /** The Content-Encoding of every HTTP request, accepted or not. */
  public List<String> contentEncodings() {
    return List.copyOf(contentEncodings);
  }

  @Override
  public void close() throws Exception {
    server.close();
  }

  /**
   * For bench/otlp-cost: {@code OtlpReceiver grpc|http FILE} serves until killed, writes its endpoint to FILE and the
   * count of accepted requests to FILE.count every second.
   */
  public static void main(String[] args) throws Exception {
    try (OtlpReceiver receiver = args[0].equals("grpc") ? grpc() : http()) {
      java.nio.file.Path file = java.nio.file.Path.of(args[1]);
      java.nio.file.Files.writeString(file, receiver.endpoint());
      java.nio.file.Path count = java.nio.file.Path.of(args[1] + ".count");
      while (true) {
        java.nio.file.Files.writeString(count, receiver.received().size() + "\n");
        Thread.sleep(1000);
      }
    }
  }
}
