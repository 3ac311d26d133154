package io.winstats.exporter.otlp;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.okhttp.OkHttpChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.GrpcResponse;
import io.opentelemetry.sdk.common.export.GrpcSender;
import io.opentelemetry.sdk.common.export.GrpcSenderConfig;
import io.opentelemetry.sdk.common.export.GrpcSenderProvider;
import io.opentelemetry.sdk.common.export.GrpcStatusCode;
import io.opentelemetry.sdk.common.export.MessageWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * OTLP/gRPC over the grpc-java OkHttp transport the CRI collector already ships, instead of the SDK's default sender
 * (OkHttp 5 and the Kotlin runtime, a few MB more). One unary {@code Export} call per push, the message written by
 * the SDK's marshaler; the deadline is {@code OTEL_EXPORTER_OTLP_TIMEOUT}, the headers {@code _HEADERS}, gzip when
 * {@code _COMPRESSION} asks. A failed call is answered with its gRPC status, which the SDK's exporter reports as a
 * failed export; no retry within an interval (the next interval pushes again).
 */
public final class GrpcJavaSender implements GrpcSender {
  private static final MethodDescriptor.Marshaller<MessageWriter> REQUEST =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(MessageWriter writer) {
          ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(32, writer.getContentLength()));
          try {
            writer.writeMessage(out);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          return new ByteArrayInputStream(out.toByteArray());
        }

        @Override
        public MessageWriter parse(InputStream stream) {
          throw new UnsupportedOperationException("requests are only written");
        }
      };

  private static final MethodDescriptor.Marshaller<byte[]> RESPONSE =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  private final GrpcSenderConfig config;
  private final ManagedChannel channel;
  private final MethodDescriptor<MessageWriter, byte[]> method;

  GrpcJavaSender(GrpcSenderConfig config) {
    this.config = config;
    URI endpoint = config.getEndpoint();
    boolean tls = "https".equals(endpoint.getScheme());
    int port = endpoint.getPort() > 0 ? endpoint.getPort() : tls ? 443 : 80;
    OkHttpChannelBuilder builder = OkHttpChannelBuilder.forAddress(endpoint.getHost(), port);
    if (!tls) {
      builder.usePlaintext();
    } else if (config.getSslContext() != null) {
      builder.sslSocketFactory(config.getSslContext().getSocketFactory());
    }
    this.channel = builder.build();
    this.method =
        MethodDescriptor.<MessageWriter, byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(config.getFullMethodName())
            .setRequestMarshaller(REQUEST)
            .setResponseMarshaller(RESPONSE)
            .build();
  }

  @Override
  public void send(MessageWriter request, Consumer<GrpcResponse> onResponse, Consumer<Throwable> onError) {
    CallOptions options =
        CallOptions.DEFAULT.withDeadlineAfter(config.getTimeout().toNanos(), TimeUnit.NANOSECONDS);
    if (config.getCompressor() != null) {
      options = options.withCompression(config.getCompressor().getEncoding());
    }
    ClientCall<MessageWriter, byte[]> call = channel.newCall(method, options);
    Metadata headers = new Metadata();
    for (Map.Entry<String, List<String>> h : config.getHeadersSupplier().get().entrySet()) {
      Metadata.Key<String> key = Metadata.Key.of(h.getKey(), Metadata.ASCII_STRING_MARSHALLER);
      h.getValue().forEach(v -> headers.put(key, v));
    }
    ClientCalls.asyncUnaryCall(
        new HeadersCall<>(call, headers),
        request,
        new StreamObserver<>() {
          private byte @Nullable [] message;

          @Override
          public void onNext(byte[] value) {
            message = value;
          }

          @Override
          public void onError(Throwable t) {
            Status status = Status.fromThrowable(t);
            onResponse.accept(
                new Response(
                    GrpcStatusCode.fromValue(status.getCode().value()),
                    status.getDescription() == null ? status.getCode().name() : status.getDescription(),
                    new byte[0]));
          }

          @Override
          public void onCompleted() {
            byte[] m = message;
            onResponse.accept(new Response(GrpcStatusCode.OK, "", m == null ? new byte[0] : m));
          }
        });
  }

  @Override
  public CompletableResultCode shutdown() {
    channel.shutdownNow();
    return CompletableResultCode.ofSuccess();
  }

  /** A call that sends {@code headers} with its start. */
  private static final class HeadersCall<Q, R> extends io.grpc.ForwardingClientCall.SimpleForwardingClientCall<Q, R> {
    private final Metadata extra;

    HeadersCall(ClientCall<Q, R> call, Metadata extra) {
      super(call);
      this.extra = extra;
    }

    @Override
    public void start(ClientCall.Listener<R> listener, Metadata headers) {
      headers.merge(extra);
      super.start(listener, headers);
    }
  }

  // The SDK's exporter reads the message of OK answers only; it is never compared.
  @SuppressWarnings("ArrayRecordComponent")
  private record Response(GrpcStatusCode status, String description, byte[] message) implements GrpcResponse {
    @Override
    public GrpcStatusCode getStatusCode() {
      return status;
    }

    @Override
    public String getStatusDescription() {
      return description;
    }

    @Override
    public byte[] getResponseMessage() {
      return message;
    }
  }

  /** Registered as the SDK's gRPC sender (META-INF/services). */
  public static final class Provider implements GrpcSenderProvider {
    @Override
    public GrpcSender createSender(GrpcSenderConfig config) {
      return new GrpcJavaSender(config);
    }
  }
}
