package io.winstats.cri.rounds;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.CriException;
import io.winstats.cri.RuntimeSample;
import static io.winstats.cri.rounds.FakeRuntime.linuxContainerStats;
import static io.winstats.cri.rounds.FakeRuntime.podAttributes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.StreamObserver;
import io.winstats.cri.api.LinuxPodSandboxStats;
import io.winstats.cri.api.ListPodSandboxStatsRequest;
import io.winstats.cri.api.ListPodSandboxStatsResponse;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxAttributes;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.RuntimeServiceGrpc;
import io.winstats.cri.api.VersionRequest;
import io.winstats.cri.api.VersionResponse;
import io.winstats.cri.transport.UnixSocketServer;
import io.winstats.cri.testing.Deadline;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector path ({@link CriTransport#over}: gRPC's OkHttp transport over a {@code transport.ConnectionSocket}
 * from a connector), which named pipes take on Windows and Unix sockets on Linux, against a real gRPC server on a Unix
 * socket with a counting connector: large answers, concurrent calls over one connection, a server restart, the 16 MiB
 * limit and clean shutdown.
 */
@EnabledOnOs(OS.LINUX)
class CriStatsReaderConnectorTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long T0 = 1_700_000_000L * SECOND;

  @TempDir Path dir;

  private final AtomicInteger opens = new AtomicInteger();
  private EventLoopGroup group;
  private Server server;

  @AfterEach
  void stop() throws Exception {
    stopServer();
    if (group != null) {
      group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  private Path socket() {
    return dir.resolve("cri.sock");
  }

  private void serve(BindableService service) throws IOException {
    if (group == null) {
      group = new EpollEventLoopGroup(2);
    }
    server =
        NettyServerBuilder.forAddress(new DomainSocketAddress(socket().toString()))
            .channelType(EpollServerDomainSocketChannel.class)
            .bossEventLoopGroup(group)
            .workerEventLoopGroup(group)
            .maxInboundMessageSize(32 << 20)
            .addService(service)
            .build()
            .start();
  }

  private void stopServer() throws InterruptedException {
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server = null;
    }
  }

  private RuntimeStatsReader reader() {
    return RuntimeStatsReader.openOver(
        "connector-test", UnixSocketServer.counting(socket(), opens), Duration.ofSeconds(10), Clock.systemUTC());
  }

  /** {@code count} pods, each with one container and an annotation of {@code annotationBytes}. */
  private static FakeRuntime runtimeWithPods(int count, int annotationBytes) {
    FakeRuntime runtime = new FakeRuntime();
    for (int i = 0; i < count; i++) {
      String podId = "p" + i;
      PodSandbox p = runtime.addPod(podId, "pod-" + i, "bridge", T0);
      runtime.addContainer("c" + i, podId, "app", "registry.example/app:1", T0);
      String padding = "x".repeat(annotationBytes);
      long cpu = (i + 1) * SECOND;
      runtime.podStats.put(
          podId,
          () ->
              PodSandboxStats.newBuilder()
                  .setAttributes(podAttributes(p).toBuilder().putAnnotations("padding", padding))
                  .setLinux(
                      LinuxPodSandboxStats.newBuilder()
                          .addContainers(linuxContainerStats("c" + podId.substring(1), "app", T0, cpu, 4096)))
                  .build());
    }
    return runtime;
  }

  @Test
  void readsPodsWhoseAnswerIsManyMebibytes() throws IOException {
    FakeRuntime runtime = runtimeWithPods(3, 2 << 20);
    serve(runtime);
    try (RuntimeStatsReader reader = reader()) {
      RuntimeSample sample = reader.sample();
      assertThat(sample.runtimeName()).isEqualTo("fakerd 9.9.9");
      assertThat(sample.pods()).extracting(p -> p.ref().name()).containsExactly("pod-0", "pod-1", "pod-2");
      assertThat(sample.pods())
          .allSatisfy(p -> assertThat(p.containers()).extracting(ContainerSample::name).containsExactly("app"));
      assertThat(sample.pods().get(2).containers().get(0).cpu().usageCoreNanos()).isEqualTo(3 * SECOND);
      assertThat(opens).hasValue(1);
    }
  }

  @Test
  void aSixMebibyteAnswerArrivesByteForByte() throws IOException {
    FakeRuntime runtime = runtimeWithPods(3, 2 << 20);
    serve(runtime);
    ListPodSandboxStatsResponse.Builder expected = ListPodSandboxStatsResponse.newBuilder();
    runtime.podStats.values().forEach(s -> expected.addStats(s.get()));
    try (CriTransport.Channel channel =
        CriTransport.over("connector-test", UnixSocketServer.counting(socket(), opens))) {
      ListPodSandboxStatsResponse got =
          RuntimeServiceGrpc.newBlockingStub(channel.channel())
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .listPodSandboxStats(ListPodSandboxStatsRequest.getDefaultInstance());
      assertThat(got.getSerializedSize()).isGreaterThan(6 << 20);
      assertThat(got).isEqualTo(expected.build());
    }
  }

  /** Answers Version with a runtime name of the size the request's version field asks for. */
  private static final class SizedEcho extends RuntimeServiceGrpc.RuntimeServiceImplBase {
    @Override
    public void version(VersionRequest request, StreamObserver<VersionResponse> observer) {
      String[] parts = request.getVersion().split(":");
      int size = Integer.parseInt(parts[1]);
      observer.onNext(
          VersionResponse.newBuilder()
              .setVersion(request.getVersion())
              .setRuntimeName("n".repeat(size))
              .setRuntimeVersion(parts[0])
              .build());
      observer.onCompleted();
    }
  }

  @Test
  void concurrentCallsEachGetTheirOwnAnswerOverOneConnection() throws Exception {
    serve(new SizedEcho());
    ExecutorService callers = Executors.newFixedThreadPool(8);
    try (CriTransport.Channel channel =
        CriTransport.over("connector-test", UnixSocketServer.counting(socket(), opens))) {
      RuntimeServiceGrpc.RuntimeServiceBlockingStub stub = RuntimeServiceGrpc.newBlockingStub(channel.channel());
      List<Future<Integer>> calls = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        calls.add(
            callers.submit(
                () -> {
                  Random random = new Random(thread);
                  int bytes = 0;
                  for (int i = 0; i < 25; i++) {
                    int size = random.nextInt(3) == 0 ? random.nextInt(1 << 20) : random.nextInt(100);
                    String id = "t" + thread + "-" + i;
                    VersionResponse r =
                        stub.withDeadlineAfter(20, TimeUnit.SECONDS)
                            .version(VersionRequest.newBuilder().setVersion(id + ":" + size).build());
                    assertThat(r.getRuntimeVersion()).isEqualTo(id);
                    assertThat(r.getRuntimeName()).hasSize(size).matches("n*");
                    bytes += size;
                  }
                  return bytes;
                }));
      }
      long total = 0;
      for (Future<Integer> f : calls) {
        total += f.get(60, TimeUnit.SECONDS);
      }
      assertThat(total).as("answer bytes over 200 calls").isGreaterThan(1 << 20);
      assertThat(opens).as("gRPC multiplexes every call over one connection").hasValue(1);
    } finally {
      callers.shutdownNow();
    }
  }

  @Test
  void reconnectsThroughANewConnectionAfterTheServerRestarts() throws Exception {
    FakeRuntime runtime = runtimeWithPods(1, 10);
    serve(runtime);
    try (RuntimeStatsReader reader = reader()) {
      assertThat(reader.sample().pods()).hasSize(1);

      stopServer();
      assertThatThrownBy(reader::sample)
          .isInstanceOfSatisfying(
              CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.UNAVAILABLE));

      serve(runtime);
      RuntimeSample back =
          Deadline.poll(
              "a sample after the restart",
              Duration.ofSeconds(10),
              () -> {
                try {
                  return reader.sample();
                } catch (CriException e) {
                  return null;
                }
              });
      assertThat(back.pods()).extracting(p -> p.ref().name()).containsExactly("pod-0");
      assertThat(opens.get()).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void anAnswerOver16MiBIsStillMessageTooLarge() throws IOException {
    FakeRuntime runtime = new FakeRuntime();
    runtime.listPodSandboxStats =
        () -> ListPodSandboxStatsResponse.newBuilder()
            .addStats(
                PodSandboxStats.newBuilder()
                    .setAttributes(
                        PodSandboxAttributes.newBuilder().setId("p1").putAnnotations("big", "x".repeat(17 << 20))))
            .build();
    serve(runtime);
    try (RuntimeStatsReader reader = reader()) {
      assertThatThrownBy(reader::sample)
          .isInstanceOfSatisfying(
              CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.MESSAGE_TOO_LARGE));
      // The connection survives a refused message: the next round works.
      runtime.listPodSandboxStats = null;
      assertThat(reader.sample().pods()).isEmpty();
    }
  }

  @Test
  void closeReleasesTheConnectionAndItsThreads() throws IOException {
    serve(runtimeWithPods(1, 10));
    RuntimeStatsReader reader = reader();
    assertThat(reader.sample().pods()).hasSize(1);
    assertThat(transportThreads()).isPositive();
    reader.close();
    Deadline.await("the transport threads to end", Duration.ofSeconds(10), () -> transportThreads() == 0);
    assertThatThrownBy(reader::sample).isInstanceOf(CriException.class);
  }

  private static long transportThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith(CriTransport.THREAD_PREFIX))
        .count();
  }
}
