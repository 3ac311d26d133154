package io.winstats.cri.testing;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.stub.StreamObserver;
import io.winstats.cri.api.Container;
import io.winstats.cri.api.ContainerMetadata;
import io.winstats.cri.api.ContainerState;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.ContainerStatsRequest;
import io.winstats.cri.api.ContainerStatsResponse;
import io.winstats.cri.api.ContainerStatus;
import io.winstats.cri.api.ContainerStatusRequest;
import io.winstats.cri.api.ContainerStatusResponse;
import io.winstats.cri.api.ImageSpec;
import io.winstats.cri.api.ListContainerStatsRequest;
import io.winstats.cri.api.ListContainerStatsResponse;
import io.winstats.cri.api.ListContainersRequest;
import io.winstats.cri.api.ListContainersResponse;
import io.winstats.cri.api.ListPodSandboxRequest;
import io.winstats.cri.api.ListPodSandboxResponse;
import io.winstats.cri.api.ListPodSandboxStatsRequest;
import io.winstats.cri.api.ListPodSandboxStatsResponse;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxMetadata;
import io.winstats.cri.api.PodSandboxState;
import io.winstats.cri.api.PodSandboxStatsRequest;
import io.winstats.cri.api.PodSandboxStatsResponse;
import io.winstats.cri.api.PodSandboxStatusRequest;
import io.winstats.cri.api.PodSandboxStatusResponse;
import io.winstats.cri.api.RuntimeServiceGrpc;
import io.winstats.cri.api.VersionRequest;
import io.winstats.cri.api.VersionResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A CRI runtime service that serves Windows pods as containerd of one {@link ContainerdLine} would: identity from
 * {@code ListPodSandbox}/{@code ListContainers}/{@code ContainerStatus}, stats built by {@link ContainerdWindowsStats}.
 * Tests change the node with {@link #put} and {@link #remove}; each pod is a new immutable {@link WindowsPod}.
 *
 * <p>Serve it in-process ({@code InProcessServerBuilder.addService(fake)}) or on a Unix socket with {@link #start},
 * so a real daemon can read it through its {@code unix://} endpoint. The image service is not served: the reader's
 * {@code ImageFsInfo} gets {@code UNIMPLEMENTED}, as from a runtime without it.
 */
public final class WindowsRuntimeFake extends RuntimeServiceGrpc.RuntimeServiceImplBase {
  /** Where containerd on Windows keeps the writable layers ({@code imageFSPaths["windows"]}). */
  public static final String IMAGE_FS_PATH =
      "C:\\ProgramData\\containerd\\root\\io.containerd.snapshotter.v1.windows";

  private final ContainerdWindowsStats stats;
  private final Clock clock;
  private final Map<String, WindowsPod> pods = new ConcurrentHashMap<>();
  private final AtomicInteger sandboxStatusCalls = new AtomicInteger();

  /**
   * @param line the containerd line to imitate
   * @param clock containerd's {@code time.Now()}: stamps the network, process count and sandbox-less pod totals
   */
  public WindowsRuntimeFake(ContainerdLine line, Clock clock) {
    this(line, clock, IMAGE_FS_PATH);
  }

  /**
   * As {@link #WindowsRuntimeFake(ContainerdLine, Clock)}, reporting the writable layers on {@code imageFsPath}: a
   * directory of the test host, where a reader finds the filesystem's capacity as a daemon on a Windows node finds the
   * snapshotter root's.
   */
  public WindowsRuntimeFake(ContainerdLine line, Clock clock, String imageFsPath) {
    this.stats = new ContainerdWindowsStats(line, imageFsPath);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Adds or replaces a pod (by id). */
  public void put(WindowsPod pod) {
    pods.put(pod.id(), pod);
  }

  /** Removes a pod and its containers, as when the kubelet deletes the sandbox. */
  public void remove(String podId) {
    pods.remove(podId);
  }

  /** The pod with {@code id}, or {@code null}. */
  public @Nullable WindowsPod pod(String id) {
    return pods.get(id);
  }

  /** How many {@code PodSandboxStatus} calls this fake answered. */
  public int sandboxStatusCalls() {
    return sandboxStatusCalls.get();
  }

  /** The builder this fake answers with; shares containerd's previous-reading cache with the fake. */
  public ContainerdWindowsStats stats() {
    return stats;
  }

  /** A server for this fake on the Unix socket {@code socket}, started; close it to stop serving. */
  public Served start(Path socket) {
    EventLoopGroup group = new EpollEventLoopGroup(1);
    try {
      Server server =
          NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
              .channelType(EpollServerDomainSocketChannel.class)
              .bossEventLoopGroup(group)
              .workerEventLoopGroup(group)
              .addService(this)
              .build()
              .start();
      return new Served(server, group, socket);
    } catch (IOException e) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      throw new UncheckedIOException(e);
    }
  }

  /** A started server; {@link #close()} stops it and its event loop. */
  public static final class Served implements AutoCloseable {
    private final Server server;
    private final EventLoopGroup group;
    private final Path socket;

    private Served(Server server, EventLoopGroup group, Path socket) {
      this.server = server;
      this.group = group;
      this.socket = socket;
    }

    /** The endpoint a reader connects to: {@code unix://<socket>}. */
    public String endpoint() {
      return "unix://" + socket;
    }

    @Override
    public void close() throws InterruptedException {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }
  }

  private long nowNanos() {
    return TimeUnit.MILLISECONDS.toNanos(clock.millis());
  }

  private static <T> void answer(Supplier<T> supplier, StreamObserver<T> observer) {
    T value;
    try {
      value = supplier.get();
    } catch (StatusRuntimeException e) {
      observer.onError(e);
      return;
    }
    observer.onNext(value);
    observer.onCompleted();
  }

  @Override
  public void version(VersionRequest request, StreamObserver<VersionResponse> observer) {
    String version =
        switch (stats.line()) {
          case V1_6 -> "v1.6.38";
          case V1_7 -> "v1.7.28";
          case V2_0 -> "v2.1.4";
          case V2_2 -> "v2.2.1";
        };
    answer(
        () ->
            VersionResponse.newBuilder()
                .setVersion("0.1.0")
                .setRuntimeName("containerd")
                .setRuntimeVersion(version)
                .setRuntimeApiVersion("v1")
                .build(),
        observer);
  }

  private static PodSandbox sandbox(WindowsPod pod) {
    return PodSandbox.newBuilder()
        .setId(pod.id())
        .setMetadata(
            PodSandboxMetadata.newBuilder().setName(pod.name()).setNamespace(pod.namespace()).setUid(pod.uid()))
        .setState(PodSandboxState.SANDBOX_READY)
        .setCreatedAt(pod.createdNanos())
        .putAllLabels(ContainerdWindowsStats.attributes(pod).getLabelsMap())
        .build();
  }

  private static Container container(WindowsPod pod, WindowsContainer c) {
    return Container.newBuilder()
        .setId(c.id())
        .setPodSandboxId(pod.id())
        .setMetadata(ContainerMetadata.newBuilder().setName(c.name()).setAttempt(c.attempt()))
        .setImage(ImageSpec.newBuilder().setImage("mcr.microsoft.com/windows/nanoserver:ltsc2022"))
        .setImageRef("sha256:" + "c".repeat(64))
        .setState(c.running() ? ContainerState.CONTAINER_RUNNING : ContainerState.CONTAINER_EXITED)
        .setCreatedAt(c.createdNanos())
        .putLabels("io.kubernetes.container.name", c.name())
        .putLabels("io.kubernetes.pod.name", pod.name())
        .putLabels("io.kubernetes.pod.namespace", pod.namespace())
        .build();
  }

  private List<Container> containers() {
    List<Container> all = new ArrayList<>();
    pods.values().forEach(p -> p.containers().forEach(c -> all.add(container(p, c))));
    return all;
  }

  @Override
  public void listPodSandbox(ListPodSandboxRequest request, StreamObserver<ListPodSandboxResponse> observer) {
    answer(
        () ->
            ListPodSandboxResponse.newBuilder()
                .addAllItems(pods.values().stream().map(WindowsRuntimeFake::sandbox).toList())
                .build(),
        observer);
  }

  /** As containerd builds it for the line ({@link ContainerdSandboxStatus}); NotFound for a sandbox it lacks. */
  @Override
  public void podSandboxStatus(PodSandboxStatusRequest request, StreamObserver<PodSandboxStatusResponse> observer) {
    sandboxStatusCalls.incrementAndGet();
    answer(
        () -> {
          WindowsPod p = pods.get(request.getPodSandboxId());
          if (p == null) {
            throw ContainerdSandboxStatus.notFound();
          }
          return ContainerdSandboxStatus.answer(stats.line(), sandbox(p), p.hostProcess(), request.getVerbose());
        },
        observer);
  }

  @Override
  public void listContainers(ListContainersRequest request, StreamObserver<ListContainersResponse> observer) {
    answer(
        () ->
            ListContainersResponse.newBuilder()
                .addAllContainers(
                    containers().stream()
                        .filter(
                            c ->
                                !request.getFilter().hasState()
                                    || c.getState() == request.getFilter().getState().getState())
                        .toList())
                .build(),
        observer);
  }

  @Override
  public void containerStatus(ContainerStatusRequest request, StreamObserver<ContainerStatusResponse> observer) {
    answer(
        () -> {
          for (WindowsPod p : pods.values()) {
            for (WindowsContainer c : p.containers()) {
              if (c.id().equals(request.getContainerId())) {
                Container listed = container(p, c);
                return ContainerStatusResponse.newBuilder()
                    .setStatus(
                        ContainerStatus.newBuilder()
                            .setId(c.id())
                            .setMetadata(listed.getMetadata())
                            .setState(listed.getState())
                            .setCreatedAt(c.createdNanos())
                            .setImage(listed.getImage())
                            .setImageRef(listed.getImageRef())
                            .setLogPath(
                                "C:\\var\\log\\pods\\" + p.namespace() + "_" + p.name() + "_" + p.uid() + "\\"
                                    + c.name() + "\\" + c.attempt() + ".log"))
                    .build();
              }
            }
          }
          throw notFound("container", request.getContainerId());
        },
        observer);
  }

  private static StatusRuntimeException notFound(String what, String id) {
    return Status.NOT_FOUND.withDescription(what + " \"" + id + "\" in namespace \"k8s.io\": not found")
        .asRuntimeException();
  }

  private static StatusRuntimeException notImplemented() {
    // containerd 1.6: pkg/cri/server/sandbox_stats_windows.go, mapped to UNIMPLEMENTED by errdefs.ToGRPC.
    return Status.UNIMPLEMENTED
        .withDescription(
            "failed to obtain metrics for sandbox: metrics for sandbox not implemented on windows: not implemented")
        .asRuntimeException();
  }

  @Override
  public void listPodSandboxStats(
      ListPodSandboxStatsRequest request, StreamObserver<ListPodSandboxStatsResponse> observer) {
    answer(
        () -> {
          if (!stats.line().hasPodSandboxStats() && !pods.isEmpty()) {
            throw notImplemented();
          }
          long now = nowNanos();
          ListPodSandboxStatsResponse.Builder b = ListPodSandboxStatsResponse.newBuilder();
          pods.values().forEach(p -> b.addStats(stats.podSandboxStats(p, now)));
          return b.build();
        },
        observer);
  }

  @Override
  public void podSandboxStats(PodSandboxStatsRequest request, StreamObserver<PodSandboxStatsResponse> observer) {
    answer(
        () -> {
          WindowsPod p = pods.get(request.getPodSandboxId());
          if (p == null) {
            throw notFound("sandbox", request.getPodSandboxId());
          }
          if (!stats.line().hasPodSandboxStats()) {
            throw notImplemented();
          }
          return PodSandboxStatsResponse.newBuilder().setStats(stats.podSandboxStats(p, nowNanos())).build();
        },
        observer);
  }

  @Override
  public void listContainerStats(
      ListContainerStatsRequest request, StreamObserver<ListContainerStatsResponse> observer) {
    answer(
        () -> {
          // buildTaskMetricsRequest without a filter: every container in the store, exited ones too.
          ListContainerStatsResponse.Builder b = ListContainerStatsResponse.newBuilder();
          pods.values().forEach(p -> p.containers().forEach(c -> b.addStats(stats.containerStats(c))));
          return b.build();
        },
        observer);
  }

  @Override
  public void containerStats(ContainerStatsRequest request, StreamObserver<ContainerStatsResponse> observer) {
    answer(
        () -> {
          for (WindowsPod p : pods.values()) {
            for (WindowsContainer c : p.containers()) {
              if (c.id().equals(request.getContainerId())) {
                ContainerStats s = stats.containerStats(c);
                return ContainerStatsResponse.newBuilder().setStats(s).build();
              }
            }
          }
          throw notFound("container", request.getContainerId());
        },
        observer);
  }
}
