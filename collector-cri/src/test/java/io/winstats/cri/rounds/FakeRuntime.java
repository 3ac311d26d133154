package io.winstats.cri.rounds;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.winstats.cri.api.Container;
import io.winstats.cri.api.ContainerAttributes;
import io.winstats.cri.api.ContainerMetadata;
import io.winstats.cri.api.ContainerState;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.ContainerStatsRequest;
import io.winstats.cri.api.ContainerStatsResponse;
import io.winstats.cri.api.ContainerStatus;
import io.winstats.cri.api.ContainerStatusRequest;
import io.winstats.cri.api.ContainerStatusResponse;
import io.winstats.cri.api.CpuUsage;
import io.winstats.cri.api.ImageSpec;
import io.winstats.cri.api.ListContainerStatsRequest;
import io.winstats.cri.api.ListContainerStatsResponse;
import io.winstats.cri.api.ListContainersRequest;
import io.winstats.cri.api.ListContainersResponse;
import io.winstats.cri.api.ListPodSandboxRequest;
import io.winstats.cri.api.ListPodSandboxResponse;
import io.winstats.cri.api.ListPodSandboxStatsRequest;
import io.winstats.cri.api.ListPodSandboxStatsResponse;
import io.winstats.cri.api.MemoryUsage;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxAttributes;
import io.winstats.cri.api.PodSandboxMetadata;
import io.winstats.cri.api.PodSandboxState;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.PodSandboxStatsRequest;
import io.winstats.cri.api.PodSandboxStatsResponse;
import io.winstats.cri.api.PodSandboxStatusRequest;
import io.winstats.cri.api.PodSandboxStatusResponse;
import io.winstats.cri.api.RuntimeServiceGrpc;
import io.winstats.cri.api.ContainerFilter;
import io.winstats.cri.api.PodSandboxFilter;
import io.winstats.cri.api.StreamContainerStatsRequest;
import io.winstats.cri.api.StreamContainerStatsResponse;
import io.winstats.cri.api.StreamContainersRequest;
import io.winstats.cri.api.StreamContainersResponse;
import io.winstats.cri.api.StreamPodSandboxStatsRequest;
import io.winstats.cri.api.StreamPodSandboxStatsResponse;
import io.winstats.cri.api.StreamPodSandboxesRequest;
import io.winstats.cri.api.StreamPodSandboxesResponse;
import io.winstats.cri.api.UInt64Value;
import io.winstats.cri.api.VersionRequest;
import io.winstats.cri.api.VersionResponse;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.ContainerdSandboxStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A scriptable CRI runtime for in-process tests: lists what the test put in, and answers the stats RPCs with what
 * the test scripted, including failures and hangs (a supplier returning {@code null} never answers). {@code
 * PodSandboxStatus} answers as containerd 2.2 on Windows ({@link ContainerdSandboxStatus}), the pods in {@link
 * #hostProcessPods} as HostProcess ones, unless a test scripted the pod's answer in {@link #sandboxStatuses}.
 *
 * <p>The KEP-5825 list streams answer as containerd 2.4.0-beta.0 does once {@link #streamBatch} is set (before, as
 * every earlier containerd: {@code UNIMPLEMENTED}); {@link #streamBreaks} ends one after some messages instead.
 */
final class FakeRuntime extends RuntimeServiceGrpc.RuntimeServiceImplBase {
  final List<PodSandbox> sandboxes = new CopyOnWriteArrayList<>();
  final List<Container> containers = new CopyOnWriteArrayList<>();
  final Map<String, ContainerStatus> statuses = new ConcurrentHashMap<>();
  final Map<String, Supplier<ContainerStats>> containerStats = new ConcurrentHashMap<>();
  final Map<String, Supplier<PodSandboxStats>> podStats = new ConcurrentHashMap<>();
  final Map<String, Supplier<PodSandboxStatusResponse>> sandboxStatuses = new ConcurrentHashMap<>();
  final Set<String> hostProcessPods = ConcurrentHashMap.newKeySet();
  final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  final List<StreamObserver<?>> hung = new CopyOnWriteArrayList<>();

  volatile Supplier<VersionResponse> version =
      () -> VersionResponse.newBuilder().setRuntimeName("fakerd").setRuntimeVersion("9.9.9").build();
  volatile Supplier<ListPodSandboxStatsResponse> listPodSandboxStats;
  volatile Supplier<ListContainerStatsResponse> listContainerStats;

  /**
   * Items per message of the Stream* calls; 0 (the default): the runtime has none. containerd 2.4 sends every list in
   * messages of {@code criutil.DefaultStreamBatchSize} = 5000 items through {@code SendInBatches}, which checks the
   * call's context before each message (internal/cri/util/stream.go@v2.4.0-beta.0); a smaller batch here gives a
   * test several messages without 5000 pods.
   */
  volatile int streamBatch;

  /** Scripted endings by stream method name: {@link StreamBreak}. */
  final Map<String, StreamBreak> streamBreaks = new ConcurrentHashMap<>();

  /**
   * Ends a stream after {@code afterMessages} messages: with {@code status} (a runtime that fails or is cancelled
   * mid-stream: containerd's {@code SendInBatches} returns the send's error or {@code ctx.Err()} between two
   * messages), or with none, by sending nothing more and never ending (the client's deadline ends it).
   */
  record StreamBreak(int afterMessages, @Nullable Status status) {}

  int calls(String method) {
    AtomicInteger n = calls.get(method);
    return n == null ? 0 : n.get();
  }

  static Supplier<ListPodSandboxStatsResponse> failing(Status status) {
    return () -> {
      throw status.asRuntimeException();
    };
  }

  private <T> void answer(String method, Supplier<T> supplier, StreamObserver<T> observer) {
    calls.computeIfAbsent(method, k -> new AtomicInteger()).incrementAndGet();
    T value;
    try {
      value = supplier.get();
    } catch (StatusRuntimeException e) {
      observer.onError(e);
      return;
    }
    if (value == null) {
      hung.add(observer);
      return;
    }
    observer.onNext(value);
    observer.onCompleted();
  }

  /**
   * One stream: the whole list made first, then sent in messages of {@link #streamBatch} items, as containerd 2.4's
   * Stream* handlers do (internal/cri/server/{sandbox_stats,container_stats,sandbox,container}_stream.go
   * @v2.4.0-beta.0). Without a batch size, grpc-go's answer to a method the server does not register: {@code
   * UNIMPLEMENTED} "unknown method M for service runtime.v1.RuntimeService" (grpc-go server.go, handleStream).
   */
  private <T, R> void stream(
      String method, Supplier<List<T>> list, Function<List<T>, R> message, StreamObserver<R> observer) {
    calls.computeIfAbsent(method, k -> new AtomicInteger()).incrementAndGet();
    int batch = streamBatch;
    if (batch <= 0) {
      observer.onError(
          Status.UNIMPLEMENTED
              .withDescription("unknown method " + method + " for service runtime.v1.RuntimeService")
              .asRuntimeException());
      return;
    }
    List<T> items;
    try {
      items = list.get();
    } catch (StatusRuntimeException e) {
      observer.onError(e);
      return;
    }
    StreamBreak end = streamBreaks.get(method);
    int sent = 0;
    for (int i = 0; i < items.size(); i += batch) {
      if (end != null && sent == end.afterMessages()) {
        break;
      }
      observer.onNext(message.apply(items.subList(i, Math.min(i + batch, items.size()))));
      sent++;
    }
    if (end != null && sent == end.afterMessages()) {
      if (end.status() == null) {
        hung.add(observer);
      } else {
        observer.onError(end.status().asRuntimeException());
      }
      return;
    }
    observer.onCompleted();
  }

  /**
   * containerd 2.4's {@code StreamPodSandboxStats}: a pod whose stats are NotFound or Unavailable (gone, or going) is
   * left out; any other error fails the whole stream before its first message, wrapped as "failed to decode sandbox
   * container metrics for sandbox ..." (sandbox_stats_stream.go@v2.4.0-beta.0, the switch in the per-sandbox
   * goroutine), which grpc-go sends as UNKNOWN.
   */
  @Override
  public void streamPodSandboxStats(
      StreamPodSandboxStatsRequest request, StreamObserver<StreamPodSandboxStatsResponse> observer) {
    stream(
        "StreamPodSandboxStats",
        () -> {
          List<PodSandboxStats> all = new ArrayList<>();
          for (Map.Entry<String, Supplier<PodSandboxStats>> e : podStats.entrySet()) {
            try {
              all.add(e.getValue().get());
            } catch (StatusRuntimeException failure) {
              Status.Code code = failure.getStatus().getCode();
              if (code != Status.Code.NOT_FOUND && code != Status.Code.UNAVAILABLE) {
                throw Status.UNKNOWN
                    .withDescription(
                        "failed to decode sandbox container metrics for sandbox \"" + e.getKey() + "\": "
                            + failure.getStatus().getDescription())
                    .asRuntimeException();
              }
            }
          }
          return all;
        },
        batch -> StreamPodSandboxStatsResponse.newBuilder().addAllPodSandboxStats(batch).build(),
        observer);
  }

  @Override
  public void streamContainerStats(
      StreamContainerStatsRequest request, StreamObserver<StreamContainerStatsResponse> observer) {
    stream(
        "StreamContainerStats",
        () -> containerStats.values().stream().map(Supplier::get).toList(),
        batch -> StreamContainerStatsResponse.newBuilder().addAllContainerStats(batch).build(),
        observer);
  }

  @Override
  public void streamPodSandboxes(
      StreamPodSandboxesRequest request, StreamObserver<StreamPodSandboxesResponse> observer) {
    stream(
        "StreamPodSandboxes",
        () -> sandboxes(request.getFilter()),
        batch -> StreamPodSandboxesResponse.newBuilder().addAllPodSandboxes(batch).build(),
        observer);
  }

  @Override
  public void streamContainers(StreamContainersRequest request, StreamObserver<StreamContainersResponse> observer) {
    stream(
        "StreamContainers",
        () -> containers(request.getFilter()),
        batch -> StreamContainersResponse.newBuilder().addAllContainers(batch).build(),
        observer);
  }

  private List<PodSandbox> sandboxes(PodSandboxFilter filter) {
    return sandboxes.stream()
        .filter(p -> !filter.hasState() || p.getState() == filter.getState().getState())
        .toList();
  }

  private List<Container> containers(ContainerFilter filter) {
    return containers.stream()
        .filter(c -> !filter.hasState() || c.getState() == filter.getState().getState())
        .toList();
  }

  @Override
  public void version(VersionRequest request, StreamObserver<VersionResponse> observer) {
    answer("Version", version, observer);
  }

  @Override
  public void listPodSandbox(ListPodSandboxRequest request, StreamObserver<ListPodSandboxResponse> observer) {
    answer(
        "ListPodSandbox",
        () ->
            ListPodSandboxResponse.newBuilder().addAllItems(sandboxes(request.getFilter())).build(),
        observer);
  }

  @Override
  public void podSandboxStatus(PodSandboxStatusRequest request, StreamObserver<PodSandboxStatusResponse> observer) {
    String id = request.getPodSandboxId();
    Supplier<PodSandboxStatusResponse> scripted = sandboxStatuses.get(id);
    answer(
        "PodSandboxStatus",
        scripted != null
            ? scripted
            : () ->
                sandboxes.stream()
                    .filter(p -> p.getId().equals(id))
                    .findFirst()
                    .map(
                        p ->
                            ContainerdSandboxStatus.answer(
                                ContainerdLine.V2_2, p, hostProcessPods.contains(id), request.getVerbose()))
                    .orElseThrow(ContainerdSandboxStatus::notFound),
        observer);
  }

  @Override
  public void listContainers(ListContainersRequest request, StreamObserver<ListContainersResponse> observer) {
    answer(
        "ListContainers",
        () ->
            ListContainersResponse.newBuilder().addAllContainers(containers(request.getFilter())).build(),
        observer);
  }

  @Override
  public void containerStatus(ContainerStatusRequest request, StreamObserver<ContainerStatusResponse> observer) {
    answer(
        "ContainerStatus",
        () -> {
          ContainerStatus status = statuses.get(request.getContainerId());
          if (status == null) {
            throw Status.NOT_FOUND.withDescription("no container " + request.getContainerId()).asRuntimeException();
          }
          return ContainerStatusResponse.newBuilder().setStatus(status).build();
        },
        observer);
  }

  @Override
  public void listPodSandboxStats(
      ListPodSandboxStatsRequest request, StreamObserver<ListPodSandboxStatsResponse> observer) {
    Supplier<ListPodSandboxStatsResponse> scripted = listPodSandboxStats;
    answer(
        "ListPodSandboxStats",
        scripted != null
            ? scripted
            : () -> {
              ListPodSandboxStatsResponse.Builder b = ListPodSandboxStatsResponse.newBuilder();
              podStats.values().forEach(s -> b.addStats(s.get()));
              return b.build();
            },
        observer);
  }

  @Override
  public void podSandboxStats(PodSandboxStatsRequest request, StreamObserver<PodSandboxStatsResponse> observer) {
    answer(
        "PodSandboxStats",
        () -> {
          Supplier<PodSandboxStats> s = podStats.get(request.getPodSandboxId());
          if (s == null) {
            throw Status.NOT_FOUND.withDescription("no sandbox " + request.getPodSandboxId()).asRuntimeException();
          }
          return PodSandboxStatsResponse.newBuilder().setStats(s.get()).build();
        },
        observer);
  }

  @Override
  public void listContainerStats(
      ListContainerStatsRequest request, StreamObserver<ListContainerStatsResponse> observer) {
    Supplier<ListContainerStatsResponse> scripted = listContainerStats;
    answer(
        "ListContainerStats",
        scripted != null
            ? scripted
            : () -> {
              ListContainerStatsResponse.Builder b = ListContainerStatsResponse.newBuilder();
              containerStats.values().forEach(s -> b.addStats(s.get()));
              return b.build();
            },
        observer);
  }

  @Override
  public void containerStats(ContainerStatsRequest request, StreamObserver<ContainerStatsResponse> observer) {
    answer(
        "ContainerStats",
        () -> {
          Supplier<ContainerStats> s = containerStats.get(request.getContainerId());
          if (s == null) {
            throw Status.NOT_FOUND
                .withDescription("container \"" + request.getContainerId() + "\" in namespace \"k8s.io\": not found")
                .asRuntimeException();
          }
          return ContainerStatsResponse.newBuilder().setStats(s.get()).build();
        },
        observer);
  }

  // ---- Builders --------------------------------------------------------------------------------------------------

  static UInt64Value u64(long v) {
    return UInt64Value.newBuilder().setValue(v).build();
  }

  /** Adds a ready pod sandbox. */
  PodSandbox addPod(String id, String name, String namespace, long createdNanos) {
    PodSandbox p =
        PodSandbox.newBuilder()
            .setId(id)
            .setMetadata(
                PodSandboxMetadata.newBuilder().setName(name).setNamespace(namespace).setUid("uid-" + id))
            .setState(PodSandboxState.SANDBOX_READY)
            .setCreatedAt(createdNanos)
            .putLabels("io.kubernetes.pod.name", name)
            .build();
    sandboxes.add(p);
    return p;
  }

  /** Adds a running container created from {@code image}. */
  Container addContainer(String id, String podId, String name, String image, long createdNanos) {
    Container c =
        Container.newBuilder()
            .setId(id)
            .setPodSandboxId(podId)
            .setMetadata(ContainerMetadata.newBuilder().setName(name))
            .setImage(ImageSpec.newBuilder().setImage(image))
            .setImageRef("docker.io/library/busybox@sha256:" + "a".repeat(64))
            .setState(ContainerState.CONTAINER_RUNNING)
            .setCreatedAt(createdNanos)
            .putLabels("io.kubernetes.container.name", name)
            .build();
    containers.add(c);
    return c;
  }

  void removePod(String podId) {
    sandboxes.removeIf(p -> p.getId().equals(podId));
    podStats.remove(podId);
    for (Container c : containers) {
      if (c.getPodSandboxId().equals(podId)) {
        containerStats.remove(c.getId());
      }
    }
    containers.removeIf(c -> c.getPodSandboxId().equals(podId));
  }

  static ContainerStats linuxContainerStats(
      String id, String name, long timestampNanos, long cpuNanos, long workingSetBytes) {
    return ContainerStats.newBuilder()
        .setAttributes(
            ContainerAttributes.newBuilder().setId(id).setMetadata(ContainerMetadata.newBuilder().setName(name)))
        .setCpu(
            CpuUsage.newBuilder()
                .setTimestamp(timestampNanos)
                .setUsageCoreNanoSeconds(u64(cpuNanos))
                // Garbage on purpose: the reader must never use the runtime's shared rate.
                .setUsageNanoCores(u64(123_456_789)))
        .setMemory(
            MemoryUsage.newBuilder()
                .setTimestamp(timestampNanos)
                .setWorkingSetBytes(u64(workingSetBytes))
                .setUsageBytes(u64(workingSetBytes * 2))
                .setPageFaults(u64(10)))
        .build();
  }

  static PodSandboxAttributes podAttributes(PodSandbox p) {
    return PodSandboxAttributes.newBuilder()
        .setId(p.getId())
        .setMetadata(p.getMetadata())
        .putAllLabels(p.getLabelsMap())
        .build();
  }
}
