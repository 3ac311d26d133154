package io.winstats.cri.rounds;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.RuntimeSample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.ServerCalls;
import io.winstats.cri.api.ListPodSandboxStatsResponse;
import io.winstats.cri.api.PodSandboxAttributes;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.RuntimeServiceGrpc;
import io.winstats.cri.api.VersionResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RuntimeStatsReader#open} over its real transport (OkHttp over the JDK's Unix socket) against a gRPC server that
 * sends what a real runtime would not: more than 16 MiB, bytes that do not decode, or nothing at all.
 */
@EnabledOnOs(OS.LINUX)
class CriStatsReaderTransportTest {
  @TempDir Path dir;

  private EventLoopGroup group;
  private Server server;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (group != null) {
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  private CriEndpoint serve(Object service) throws IOException {
    Path socket = dir.resolve("cri.sock");
    group = new EpollEventLoopGroup(1);
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
            .channelType(EpollServerDomainSocketChannel.class)
            .bossEventLoopGroup(group)
            .workerEventLoopGroup(group)
            .directExecutor();
    if (service instanceof ServerServiceDefinition definition) {
      builder.addService(definition);
    } else {
      builder.addService((io.grpc.BindableService) service);
    }
    server = builder.build().start();
    return CriEndpoint.parse("unix://" + socket);
  }

  private static RuntimeStatsReader open(CriEndpoint endpoint) {
    return RuntimeStatsReader.open(
        endpoint,
        CriReaderOptions.of(Duration.ofSeconds(5), Clock.systemUTC()).withWindowsHost(OS.WINDOWS.isCurrentOs()));
  }

  @Test
  void opensWithoutARuntimeAndFailsFastAsUnavailable() {
    long started = System.nanoTime();
    try (RuntimeStatsReader reader = open(CriEndpoint.parse("unix://" + dir.resolve("absent.sock")))) {
      assertThatThrownBy(reader::sample)
          .isInstanceOfSatisfying(
              CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.UNAVAILABLE))
          .hasMessageContaining("rpc=Version");
      assertThatThrownBy(reader::sample).isInstanceOf(CriException.class);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
  }

  @Test
  void readsOverAUnixSocket() throws IOException {
    FakeRuntime runtime = new FakeRuntime();
    runtime.addPod("p1", "web", "ns", 1);
    try (RuntimeStatsReader reader = open(serve(runtime))) {
      RuntimeSample sample = reader.sample();
      assertThat(sample.runtimeName()).isEqualTo("fakerd 9.9.9");
      assertThat(sample.pods()).isEmpty();
    }
  }

  @Test
  void anAnswerOver16MiBIsMessageTooLarge() throws IOException {
    FakeRuntime runtime = new FakeRuntime();
    runtime.listPodSandboxStats =
        () -> ListPodSandboxStatsResponse.newBuilder()
            .addStats(
                PodSandboxStats.newBuilder()
                    .setAttributes(
                        PodSandboxAttributes.newBuilder().setId("p1").putAnnotations("big", "x".repeat(17 << 20))))
            .build();
    try (RuntimeStatsReader reader = open(serve(runtime))) {
      assertThatThrownBy(reader::sample)
          .isInstanceOfSatisfying(
              CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.MESSAGE_TOO_LARGE))
          .hasMessageContaining("16777216");
    }
  }

  /**
   * KEP-5825's point: the same 18 MiB that fail as one unary answer arrive as a stream of messages under 16 MiB each.
   * Three pods of 6 MiB (annotations, as a node with large pod annotations has), one per message.
   */
  @Test
  void aListOver16MiBArrivesWhenStreamedInSmallerMessages() throws IOException {
    FakeRuntime runtime = new FakeRuntime();
    for (int i = 0; i < 3; i++) {
      io.winstats.cri.api.PodSandbox p = runtime.addPod("p" + i, "pod-" + i, "ns", 1);
      PodSandboxStats stats =
          PodSandboxStats.newBuilder()
              .setAttributes(FakeRuntime.podAttributes(p).toBuilder().putAnnotations("big", "x".repeat(6 << 20)))
              .build();
      runtime.podStats.put(p.getId(), () -> stats);
    }
    CriEndpoint endpoint = serve(runtime);
    try (RuntimeStatsReader reader = open(endpoint)) {
      assertThatThrownBy(reader::sample)
          .as("without streams: one 18 MiB answer")
          .isInstanceOfSatisfying(
              CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.MESSAGE_TOO_LARGE));
    }
    runtime.streamBatch = 1;
    try (RuntimeStatsReader reader = open(endpoint)) {
      assertThat(reader.sample().pods()).extracting(p -> p.ref().name()).containsExactly("pod-0", "pod-1", "pod-2");
      assertThat(runtime.calls("StreamPodSandboxStats")).as("once before, once now").isEqualTo(2);
    }
  }

  @Test
  void bytesThatDoNotDecodeAreMalformed() throws IOException {
    byte[] version =
        VersionResponse.newBuilder().setRuntimeName("raw").setRuntimeVersion("1").build().toByteArray();
    // Field 1 (stats), length-delimited, claims 100 bytes but carries 1: a truncated message.
    byte[] truncated = {0x0a, 100, 0x01};
    ServerServiceDefinition raw =
        ServerServiceDefinition.builder(RuntimeServiceGrpc.SERVICE_NAME)
            .addMethod(
                rawMethod(RuntimeServiceGrpc.getVersionMethod()),
                ServerCalls.asyncUnaryCall(
                    (request, observer) -> {
                      observer.onNext(version);
                      observer.onCompleted();
                    }))
            .addMethod(
                rawMethod(RuntimeServiceGrpc.getListPodSandboxStatsMethod()),
                ServerCalls.asyncUnaryCall(
                    (request, observer) -> {
                      observer.onNext(truncated);
                      observer.onCompleted();
                    }))
            .build();
    try (RuntimeStatsReader reader = open(serve(raw))) {
      assertThatThrownBy(reader::sample)
          .isInstanceOfSatisfying(
              CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.MALFORMED));
    }
  }

  private static MethodDescriptor<byte[], byte[]> rawMethod(MethodDescriptor<?, ?> typed) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(typed.getFullMethodName())
        .setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES)
        .build();
  }

  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
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
}
