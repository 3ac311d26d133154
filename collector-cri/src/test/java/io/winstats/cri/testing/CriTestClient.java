package io.winstats.cri.testing;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.ChannelOption;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.winstats.cri.api.ContainerConfig;
import io.winstats.cri.api.ContainerMetadata;
import io.winstats.cri.api.ContainerState;
import io.winstats.cri.api.ContainerStatus;
import io.winstats.cri.api.ContainerStatusRequest;
import io.winstats.cri.api.CreateContainerRequest;
import io.winstats.cri.api.Image;
import io.winstats.cri.api.ImageServiceGrpc;
import io.winstats.cri.api.ImageSpec;
import io.winstats.cri.api.LinuxContainerConfig;
import io.winstats.cri.api.LinuxContainerResources;
import io.winstats.cri.api.LinuxPodSandboxConfig;
import io.winstats.cri.api.LinuxSandboxSecurityContext;
import io.winstats.cri.api.ListImagesRequest;
import io.winstats.cri.api.ListPodSandboxRequest;
import io.winstats.cri.api.NamespaceMode;
import io.winstats.cri.api.NamespaceOption;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxConfig;
import io.winstats.cri.api.PodSandboxMetadata;
import io.winstats.cri.api.RemovePodSandboxRequest;
import io.winstats.cri.api.RunPodSandboxRequest;
import io.winstats.cri.api.RuntimeServiceGrpc;
import io.winstats.cri.api.StartContainerRequest;
import io.winstats.cri.api.StopPodSandboxRequest;
import io.winstats.cri.api.VersionRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A CRI client for tests: runs and removes real pods in a {@link ContainerdHarness}'s containerd, the way the kubelet
 * would (labels, log directory, one cgroup parent per pod, pod network through CNI). Every call has a deadline.
 * Thread-safe. Obtain it from {@link ContainerdHarness#client()}; the harness closes it.
 */
public final class CriTestClient implements AutoCloseable {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);
  private static final long CPU_PERIOD_MICROS = 100_000;

  private final String cgroupRoot;
  private final String defaultImage;
  private final Path logRoot;
  private final EventLoopGroup group;
  private final ManagedChannel channel;
  private final RuntimeServiceGrpc.RuntimeServiceBlockingStub runtime;
  private final ImageServiceGrpc.ImageServiceBlockingStub images;
  private final Map<String, PodHandle> pods = new ConcurrentHashMap<>();
  /** Each running pod's sandbox config and labels, which CreateContainer needs again for a restart. */
  private final Map<String, Sandbox> sandboxes = new ConcurrentHashMap<>();

  private record Sandbox(PodSandboxConfig config, Map<String, String> labels) {}

  CriTestClient(Path socket, String cgroupRoot, String defaultImage, Path logRoot) {
    this.cgroupRoot = cgroupRoot;
    this.defaultImage = defaultImage;
    this.logRoot = logRoot;
    this.group = new EpollEventLoopGroup(1, new DefaultThreadFactory("cri-test-client", true));
    this.channel =
        NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
            .eventLoopGroup(group)
            .channelType(EpollDomainSocketChannel.class)
            .withOption(ChannelOption.SO_KEEPALIVE, null)
            .overrideAuthority("localhost")
            .usePlaintext()
            .directExecutor()
            .maxInboundMessageSize(16 * 1024 * 1024)
            .build();
    this.runtime = RuntimeServiceGrpc.newBlockingStub(channel);
    this.images = ImageServiceGrpc.newBlockingStub(channel);
  }

  /** The runtime service, with a 60 s deadline from now. */
  public RuntimeServiceGrpc.RuntimeServiceBlockingStub runtime() {
    return runtime.withDeadlineAfter(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The image service, with a 60 s deadline from now. */
  public ImageServiceGrpc.ImageServiceBlockingStub images() {
    return images.withDeadlineAfter(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * The runtime's name and version ({@code containerd 1.6.20~ds1}).
   *
   * @throws StatusRuntimeException if the runtime does not answer within {@code timeout}
   */
  public String version(Duration timeout) {
    var v =
        runtime
            .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .version(VersionRequest.newBuilder().setVersion("v1").build());
    return v.getRuntimeName() + " " + v.getRuntimeVersion();
  }

  /** Skips the channel's reconnect backoff, e.g. right after the runtime restarted. */
  public void resetConnectBackoff() {
    channel.resetConnectBackoff();
  }

  /**
   * The runtime's image id ({@code sha256:...}) of an image name, as the kubelet passes it to {@code CreateContainer}.
   *
   * @throws IllegalArgumentException if the runtime has no such image
   */
  public String imageId(String imageName) {
    for (Image image : images().listImages(ListImagesRequest.getDefaultInstance()).getImagesList()) {
      if (image.getRepoTagsList().contains(imageName)) {
        return image.getId();
      }
    }
    throw new IllegalArgumentException("no image " + imageName);
  }

  /**
   * Runs a pod: a sandbox with its own network namespace (CNI bridge), hostname {@code name}, a fresh uid and a cgroup
   * parent of its own, then creates and starts each container in order. On failure whatever was created is removed.
   *
   * @return the running pod; close it (or let the harness close) to remove it
   */
  public PodHandle runPod(String name, String namespace, List<ContainerSpec> containers) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    String uid = UUID.randomUUID().toString();
    String cgroupParent = cgroupRoot + "/pod" + uid;
    Path logDir = logRoot.resolve(namespace + "_" + name + "_" + uid);
    try {
      Files.createDirectories(logDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> podLabels = new LinkedHashMap<>();
    podLabels.put("io.kubernetes.pod.name", name);
    podLabels.put("io.kubernetes.pod.namespace", namespace);
    podLabels.put("io.kubernetes.pod.uid", uid);
    PodSandboxConfig sandbox =
        PodSandboxConfig.newBuilder()
            .setMetadata(
                PodSandboxMetadata.newBuilder().setName(name).setNamespace(namespace).setUid(uid).setAttempt(0))
            .setHostname(name)
            .setLogDirectory(logDir.toString())
            .putAllLabels(podLabels)
            .setLinux(
                LinuxPodSandboxConfig.newBuilder()
                    .setCgroupParent(cgroupParent)
                    .setSecurityContext(
                        LinuxSandboxSecurityContext.newBuilder()
                            .setNamespaceOptions(
                                NamespaceOption.newBuilder()
                                    .setNetwork(NamespaceMode.POD)
                                    .setPid(NamespaceMode.CONTAINER)
                                    .setIpc(NamespaceMode.POD))))
            .build();
    String sandboxId =
        runtime().runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(sandbox).build()).getPodSandboxId();
    PodHandle pod = new PodHandle(this, name, namespace, uid, sandboxId, cgroupParent, Map.of());
    pods.put(sandboxId, pod);
    sandboxes.put(sandboxId, new Sandbox(sandbox, Map.copyOf(podLabels)));
    try {
      Map<String, String> ids = new LinkedHashMap<>();
      for (ContainerSpec spec : containers) {
        ids.put(spec.name(), createAndStart(sandboxId, sandbox, podLabels, spec, 0));
      }
      PodHandle running = new PodHandle(this, name, namespace, uid, sandboxId, cgroupParent, ids);
      pods.put(sandboxId, running);
      return running;
    } catch (RuntimeException e) {
      try {
        removePod(pod);
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * Creates and starts a container in a running pod, as the kubelet restarts one: same name, the next {@code attempt}
   * (the kubelet's restart count), its own log file. The earlier attempt is left as it is (exited, not removed).
   *
   * @return the new container's id (find its cgroup with {@link PodHandle#cgroupOf})
   * @throws IllegalArgumentException if this client did not start the pod, or it was removed
   */
  public String startContainer(PodHandle pod, ContainerSpec spec, int attempt) {
    Sandbox sandbox = sandboxes.get(pod.sandboxId());
    if (sandbox == null) {
      throw new IllegalArgumentException("no running pod " + pod);
    }
    return createAndStart(pod.sandboxId(), sandbox.config(), sandbox.labels(), spec, attempt);
  }

  /**
   * Waits until a container has exited.
   *
   * @return its status (state {@code CONTAINER_EXITED}, with the exit code)
   * @throws AssertionError if it still runs after {@code timeout}
   */
  public ContainerStatus awaitExited(String containerId, Duration timeout) {
    return Deadline.poll(
        "container " + containerId + " to exit",
        timeout,
        () -> {
          ContainerStatus s =
              runtime()
                  .containerStatus(ContainerStatusRequest.newBuilder().setContainerId(containerId).build())
                  .getStatus();
          return s.getState() == ContainerState.CONTAINER_EXITED ? s : null;
        });
  }

  private String createAndStart(
      String sandboxId,
      PodSandboxConfig sandbox,
      Map<String, String> podLabels,
      ContainerSpec spec,
      int attempt) {
    LinuxContainerResources.Builder resources = LinuxContainerResources.newBuilder().setCpuShares(2);
    if (spec.cpuLimitCores() != null) {
      resources
          .setCpuPeriod(CPU_PERIOD_MICROS)
          .setCpuQuota(Math.round(spec.cpuLimitCores() * CPU_PERIOD_MICROS))
          .setCpuShares(Math.max(2, Math.round(spec.cpuLimitCores() * 1024)));
    }
    if (spec.memoryLimitBytes() != null) {
      resources.setMemoryLimitInBytes(spec.memoryLimitBytes());
    }
    List<String> command = spec.command();
    ContainerConfig config =
        ContainerConfig.newBuilder()
            .setMetadata(ContainerMetadata.newBuilder().setName(spec.name()).setAttempt(attempt))
            .setImage(ImageSpec.newBuilder().setImage(spec.image() == null ? defaultImage : spec.image()))
            .addCommand(command.get(0))
            .addAllArgs(command.subList(1, command.size()))
            .putAllLabels(podLabels)
            .putLabels("io.kubernetes.container.name", spec.name())
            .setLogPath(spec.name() + "/" + attempt + ".log")
            .setLinux(LinuxContainerConfig.newBuilder().setResources(resources))
            .build();
    String id =
        runtime()
            .createContainer(
                CreateContainerRequest.newBuilder()
                    .setPodSandboxId(sandboxId)
                    .setConfig(config)
                    .setSandboxConfig(sandbox)
                    .build())
            .getContainerId();
    runtime().startContainer(StartContainerRequest.newBuilder().setContainerId(id).build());
    return id;
  }

  /**
   * Removes a pod: stops and removes the sandbox (which kills and removes its containers), then deletes the pod's
   * cgroup directories, which containerd leaves behind. Idempotent.
   */
  public void removePod(PodHandle pod) {
    removeSandbox(pod.sandboxId());
    pods.remove(pod.sandboxId());
    sandboxes.remove(pod.sandboxId());
    removeCgroupTree(pod.cgroupParent());
  }

  /** Pods this client started and has not removed. */
  public List<PodHandle> pods() {
    return List.copyOf(pods.values());
  }

  /** Removes every pod the runtime knows, whoever started it, then the cgroup tree under the harness root. */
  public void removeAllPods() {
    List<PodSandbox> all = runtime().listPodSandbox(ListPodSandboxRequest.getDefaultInstance()).getItemsList();
    for (PodSandbox p : all) {
      removeSandbox(p.getId());
    }
    pods.clear();
    sandboxes.clear();
  }

  private void removeSandbox(String sandboxId) {
    try {
      runtime().stopPodSandbox(StopPodSandboxRequest.newBuilder().setPodSandboxId(sandboxId).build());
      runtime().removePodSandbox(RemovePodSandboxRequest.newBuilder().setPodSandboxId(sandboxId).build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.NOT_FOUND) {
        throw e;
      }
    }
  }

  /**
   * Deletes {@code /sys/fs/cgroup/<every hierarchy>/<cgroupPath>} bottom-up. runc removes the container directories
   * itself, but they may linger for a moment while the last process exits, hence the retries.
   */
  static void removeCgroupTree(String cgroupPath) {
    String relative = cgroupPath.startsWith("/") ? cgroupPath.substring(1) : cgroupPath;
    if (relative.isEmpty() || relative.contains("..")) {
      throw new IllegalArgumentException("refusing to remove cgroup " + cgroupPath);
    }
    List<Path> hierarchies;
    try (Stream<Path> s = Files.list(Cgroups.ROOT)) {
      hierarchies = s.filter(Files::isDirectory).toList();
    } catch (IOException e) {
      return;
    }
    List<Path> left = new ArrayList<>();
    for (Path h : hierarchies) {
      Path dir = h.resolve(relative);
      if (Files.isDirectory(dir)) {
        left.add(dir);
      }
    }
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!left.isEmpty()) {
      left.removeIf(CriTestClient::rmdirTree);
      if (left.isEmpty()) {
        return;
      }
      if (System.nanoTime() - end > 0) {
        throw new IllegalStateException("could not remove cgroup directories " + left);
      }
      Deadline.pause(Duration.ofMillis(50));
    }
  }

  /** rmdir every directory under {@code dir}, deepest first; true when {@code dir} is gone. */
  private static boolean rmdirTree(Path dir) {
    if (!Files.exists(dir)) {
      return true;
    }
    List<Path> dirs;
    try (Stream<Path> s = Files.walk(dir)) {
      dirs = s.filter(Files::isDirectory).sorted(Comparator.reverseOrder()).toList();
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
    for (Path d : dirs) {
      try {
        Files.deleteIfExists(d);
      } catch (IOException e) {
        return false;
      }
    }
    return !Files.exists(dir);
  }

  /** Shuts the channel down; does not remove pods (the harness does, before it stops containerd). */
  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
