package io.winstats.cri.testing;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
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
import io.winstats.cri.api.containerd.ContainersGrpc;
import io.winstats.cri.api.containerd.GetContainerRequest;
import io.winstats.cri.api.containerd.GetContainerResponse;
import io.winstats.cri.api.containerd.IntrospectionGrpc;
import io.winstats.cri.api.containerd.ListPidsRequest;
import io.winstats.cri.api.containerd.ListPidsResponse;
import io.winstats.cri.api.containerd.MetricsRequest;
import io.winstats.cri.api.containerd.MetricsResponse;
import io.winstats.cri.api.containerd.Plugin;
import io.winstats.cri.api.containerd.PluginsRequest;
import io.winstats.cri.api.containerd.PluginsResponse;
import io.winstats.cri.api.containerd.ProcessInfo;
import io.winstats.cri.api.containerd.SnapshotsGrpc;
import io.winstats.cri.api.containerd.TasksGrpc;
import io.winstats.cri.api.containerd.UsageRequest;
import io.winstats.cri.api.containerd.UsageResponse;
import java.util.LinkedHashSet;
import java.util.Set;
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
 *
 * <p>containerd's own Tasks service is served beside it ({@link #tasksService()}; {@link #start} adds it): {@code
 * Metrics} answers as {@link ContainerdWindowsTasks} builds it, in the namespace the CRI plugin keeps its tasks in
 * ({@code k8s.io}, or {@link #tasksNamespace}). As containerd's {@code local.Metrics}
 * (plugins/services/tasks/local.go:649-661@v2.3.4) answers: a call without the {@code containerd-namespace} header
 * fails {@code UNKNOWN} ({@code namespaces.NamespaceRequired}, returned unwrapped), so does a filter that does not
 * parse ({@code filters.ParseAll}), and a namespace without the tasks answers {@code OK} with no metrics. The fake
 * understands the {@code id==<id>} filters containerd's own CRI code sends and refuses any other form.
 *
 * <p>What containerd's Windows CRI code reads besides, served as containerd's own services answer ({@link
 * #containerdServices()}; {@link #start} adds them): {@code Tasks.ListPids} ({@code local.ListPids},
 * plugins/services/tasks/local.go:490-516@v2.3.4: one {@code ProcessInfo} per process the shim lists, {@link
 * WindowsContainer#processes()} for a running container's task and {@link WindowsPod#sandboxProcesses()} for the
 * sandbox's; a task that is not running is {@code NOT_FOUND} "task &lt;id&gt; not found", local.go:754-760); {@code
 * Snapshots.Usage} (plugins/services/snapshots/service.go:64-74,242-254@v2.3.4; the Windows snapshotter measures the
 * layer's directory anew, bytes only, plugins/snapshots/windows/common.go:106-131: {@link
 * WindowsContainer#writableLayerBytes()} with {@code inodes} 0, for any container the fake holds, running or exited,
 * whose snapshot lives until the container is removed; an unknown key is {@code NOT_FOUND}, an unknown snapshotter
 * {@code INVALID_ARGUMENT} "snapshotter not loaded"); {@code Containers.Get} ({@code snapshotter} {@value
 * #SNAPSHOTTER}, {@code snapshot_key} the container id as the CRI plugin creates it, container_create.go:378@v2.3.4;
 * the OCI spec and the rest are left out); {@code Introspection.Plugins} (the {@value #SNAPSHOTTER} snapshotter
 * exports no root, plugins/snapshots/windows/windows.go:47-56@v2.3.4, and the content store exports its root beside
 * the snapshotter's, plugins/content/local/plugin/plugin.go:33, so a reader derives {@link #IMAGE_FS_PATH} as
 * containerd's {@code snapshotRoot} does).
 *
 * <p><b>Per line.</b> {@link ContainerdLine#V1_7} answers as containerd v1.7.20 (the patch AKS installs on Windows
 * Server 2022 pools) with its shim, hcsshim v0.11.7 (script/setup/runhcs-version@v1.7.20), each call the task source
 * makes, read call by call against 1.7's code:
 *
 * <ul>
 *   <li>{@code Version}: {@code v1.7.20}.
 *   <li>{@code Tasks.Metrics}: as 2.x ({@code local.Metrics} over every loaded runtime, {@code getTasksMetrics}: the
 *       same OR-ed filters, {@code collected} stamp and left-out tasks, services/tasks/local.go:636-706@v1.7.20). The
 *       shim's {@code statsInternal} wraps its statistics with typeurl v1's {@code MarshalAny}
 *       (cmd/containerd-shim-runhcs-v1/service_internal.go:502-515@v0.11.7), whose URL for an unregistered gogo message
 *       is {@code proto.MessageName}, the bare {@code containerd.runhcs.stats.v1.Statistics}
 *       (vendor/github.com/containerd/typeurl/types.go {@code TypeURL}@v0.11.7); stats.proto@v0.11.7 has 2.x's field
 *       numbers, only gogo options differ (its non-nullable timestamps are always sent, as here). Same answer.
 *   <li>{@code Tasks.ListPids}: as 2.x (services/tasks/local.go:477-503@v1.7.20, {@code getTaskFromContainer}'s
 *       NotFound "task %v not found"); each entry's {@code info} is typeurl v1's {@code MarshalAny(&ProcessDetails)}
 *       ({@code pidsInternal}, service_internal.go:251-275@v0.11.7): the same bare name. The faked sandbox task of a
 *       HostProcess or Hyper-V pod lists one process (task_wcow_podsandbox.go:162-169@v0.11.7). Same answer.
 *   <li>{@code Snapshots.Usage}: as 2.x ({@code getSnapshotter}'s INVALID_ARGUMENT texts and {@code Usage},
 *       services/snapshots/service.go:83-93,259-270@v1.7.20; the Windows snapshotter walks an active snapshot,
 *       snapshots/windows/windows.go:137-160, and continuity v0.4.2 counts no inodes on Windows). Same answer.
 *   <li>{@code Containers.Get}: the CRI plugin creates the container with the runtime's snapshotter and the
 *       container id as snapshot key (pkg/cri/server/container_create.go:194,200@v1.7.20), read back by {@code
 *       local.Get} (services/containers/local.go:75@v1.7.20), as 2.x. Same answer.
 *   <li>{@code Introspection.Plugins}: the {@code windows} snapshotter registers no exports
 *       (snapshots/windows/windows.go:48-56@v1.7.20) and the content store exports its root
 *       (services/server/server.go:440-448@v1.7.20, a plugin 2.x moved to plugins/content/local/plugin); 1.7's CRI
 *       plugin takes the same mountpoint: the snapshotter's exported root, else {@code
 *       io.containerd.snapshotter.v1.windows} under {@code filepath.Dir} of its own root ({@code imageFSPath},
 *       pkg/cri/server/service.go:354-390, {@code ContainerdRootDir}, pkg/cri/cri.go:79@v1.7.20). Same answer.
 *   <li>{@code ListPodSandboxStats}: implemented for Windows from 1.7 (v1.7.20
 *       pkg/cri/server/sandbox_stats_windows.go); 1.6 answers UNIMPLEMENTED ({@link
 *       ContainerdLine#hasPodSandboxStats()}).
 *   <li>verbose {@code PodSandboxStatus}: 1.7's {@code SandboxInfo} has no {@code sandboxMetadata}
 *       (pkg/cri/server/sandbox_status.go:121-137@v1.7.20), so a pod's network namespace is only in {@code
 *       runtimeSpec.windows.network.networkNamespace} (sandbox_run_windows.go:55,112-114@v1.7.20) ({@link
 *       ContainerdSandboxStatus}).
 * </ul>
 */
public final class WindowsRuntimeFake extends RuntimeServiceGrpc.RuntimeServiceImplBase {
  /** Where containerd on Windows keeps the writable layers ({@code imageFSPaths["windows"]}). */
  public static final String IMAGE_FS_PATH =
      "C:\\ProgramData\\containerd\\root\\io.containerd.snapshotter.v1.windows";

  /** The snapshotter containerd on Windows keeps container layers in ({@code config_windows.go}'s default). */
  public static final String SNAPSHOTTER = "windows";

  private final ContainerdWindowsStats stats;
  private final Clock clock;
  private final Map<String, WindowsPod> pods = new ConcurrentHashMap<>();
  private final AtomicInteger sandboxStatusCalls = new AtomicInteger();
  private final AtomicInteger criStatsCalls = new AtomicInteger();
  private final AtomicInteger taskMetricsCalls = new AtomicInteger();
  private final AtomicInteger listPidsCalls = new AtomicInteger();
  private final AtomicInteger usageCalls = new AtomicInteger();
  private final AtomicInteger containerGetCalls = new AtomicInteger();
  private final String imageFsPath;
  private volatile String tasksNamespace = "k8s.io";
  private final FakeHns hns = new FakeHns(pods::values);
  private volatile @Nullable Status tasksFailure;
  private volatile boolean tasksHang;
  private final Map<String, Status> usageFailures = new ConcurrentHashMap<>();
  private final Map<String, Status> listPidsFailures = new ConcurrentHashMap<>();
  private final Set<String> withoutRecord = ConcurrentHashMap.newKeySet();
  private volatile @Nullable Status pluginsFailure;
  private final AtomicInteger pluginsCalls = new AtomicInteger();

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
    this.imageFsPath = imageFsPath;
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

  /** How many CRI stats calls ({@code ListPodSandboxStats}, {@code PodSandboxStats}, {@code ListContainerStats},
   * {@code ContainerStats}) this fake answered: each one moves containerd's shared {@code usage_nano_cores} reading. */
  public int criStatsCalls() {
    return criStatsCalls.get();
  }

  /** An {@code HNSCall} port answering for this fake's pods' endpoints. */
  public FakeHns hns() {
    return hns;
  }

  /** How many {@code Tasks.Metrics} calls this fake answered. */
  public int taskMetricsCalls() {
    return taskMetricsCalls.get();
  }

  /** How many {@code Tasks.ListPids} calls this fake answered. */
  public int listPidsCalls() {
    return listPidsCalls.get();
  }

  /** How many {@code Snapshots.Usage} calls this fake answered. */
  public int usageCalls() {
    return usageCalls.get();
  }

  /** How many {@code Containers.Get} calls this fake answered. */
  public int containerGetCalls() {
    return containerGetCalls.get();
  }

  /** Keeps the tasks in {@code namespace} from now on (the CRI plugin's is {@code k8s.io}). */
  public void tasksNamespace(String namespace) {
    this.tasksNamespace = Objects.requireNonNull(namespace, "namespace");
  }

  /**
   * Fails every {@code Snapshots.Usage} of snapshot {@code key} with {@code status} from now on, or answers again
   * ({@code null}): a slow walk (DEADLINE_EXCEEDED) or the OS error of a layer torn down mid-walk, which the
   * Windows snapshotter's {@code Usage} returns through {@code fs.DiskUsage}
   * (plugins/snapshots/windows/common.go:106-131@v2.3.4) and the Snapshots service passes on (UNKNOWN: an OS error
   * maps to no errdefs class).
   */
  public void failUsage(String key, @Nullable Status status) {
    if (status == null) {
      usageFailures.remove(key);
    } else {
      usageFailures.put(key, status);
    }
  }

  /**
   * Fails every {@code Tasks.ListPids} of task {@code taskId} with {@code status} from now on, or answers again ({@code
   * null}): a shim that does not answer in time, or HCS's error for its process list ({@code hcsTask.Pids},
   * cmd/containerd-shim-runhcs-v1/task_hcs.go:559-600@v0.13.0), which {@code local.ListPids} passes on
   * (plugins/services/tasks/local.go:490-516@v2.3.4).
   */
  public void failListPids(String taskId, @Nullable Status status) {
    if (status == null) {
      listPidsFailures.remove(taskId);
    } else {
      listPidsFailures.put(taskId, status);
    }
  }

  /** Fails every {@code Introspection.Plugins} call with {@code status} from now on, or answers again (null). */
  public void failPlugins(@Nullable Status status) {
    this.pluginsFailure = status;
  }

  /** How many {@code Introspection.Plugins} calls this fake answered. */
  public int pluginsCalls() {
    return pluginsCalls.get();
  }

  /**
   * containerd's metadata store no longer holds container {@code id}'s record while the CRI plugin still lists it
   * (as in {@code RemoveContainer}'s window between deleting the record and forgetting the container,
   * internal/cri/server/container_remove.go:106-130@v2.3.4): {@code Containers.Get} answers NotFound.
   */
  public void dropContainerRecord(String id) {
    withoutRecord.add(id);
  }

  /** Fails every {@code Tasks.Metrics} call with {@code status} from now on, or answers again ({@code null}). */
  public void failTaskMetrics(@Nullable Status status) {
    this.tasksFailure = status;
  }

  /**
   * Leaves every {@code Tasks.Metrics} call unanswered from now on ({@code true}), as containerd does while one shim
   * hangs (getTasksMetrics waits on each task's Stats with the caller's context, plugins/services/tasks/local.go,
   * v1.7 and v2.x), until the caller's deadline cancels it; or answers again ({@code false}).
   */
  public void hangTaskMetrics(boolean hang) {
    this.tasksHang = hang;
  }

  private static final Metadata.Key<String> NAMESPACE_HEADER =
      Metadata.Key.of("containerd-namespace", Metadata.ASCII_STRING_MARSHALLER);
  private static final Context.Key<String> NAMESPACE = Context.key("containerd-namespace");

  /** containerd's Tasks service with its namespace header read, for a server of this fake. */
  public ServerServiceDefinition tasksService() {
    ServerInterceptor namespace =
        new ServerInterceptor() {
          @Override
          public <Q, R> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            String ns = headers.get(NAMESPACE_HEADER);
            return Contexts.interceptCall(Context.current().withValue(NAMESPACE, ns), call, headers, next);
          }
        };
    return ServerInterceptors.intercept(new Tasks(), namespace);
  }

  private static ServerInterceptor namespaceReader() {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        return Contexts.interceptCall(
            Context.current().withValue(NAMESPACE, headers.get(NAMESPACE_HEADER)), call, headers, next);
      }
    };
  }

  /** containerd's Tasks, Snapshots, Containers and Introspection services of this fake, for a server of it. */
  public List<ServerServiceDefinition> containerdServices() {
    return List.of(
        tasksService(),
        ServerInterceptors.intercept(new Snapshots(), namespaceReader()),
        ServerInterceptors.intercept(new Containers(), namespaceReader()),
        new Introspection().bindService());
  }

  /** The namespace of the call; {@code UNKNOWN} without one, as containerd's namespaced services answer. */
  private static String namespace() {
    String ns = NAMESPACE.get();
    if (ns == null || ns.isEmpty()) {
      throw Status.UNKNOWN.withDescription("namespace is required: failed precondition").asRuntimeException();
    }
    return ns;
  }

  /** The container {@code id} among the pods, with its pod, or {@code null}. */
  private Map.@Nullable Entry<WindowsPod, WindowsContainer> find(String id) {
    for (WindowsPod p : pods.values()) {
      for (WindowsContainer c : p.containers()) {
        if (c.id().equals(id)) {
          return Map.entry(p, c);
        }
      }
    }
    return null;
  }

  private final class Snapshots extends SnapshotsGrpc.SnapshotsImplBase {
    @Override
    public void usage(UsageRequest request, StreamObserver<UsageResponse> observer) {
      usageCalls.incrementAndGet();
      answer(
          () -> {
            String ns = namespace();
            if (request.getSnapshotter().isEmpty()) {
              throw Status.INVALID_ARGUMENT.withDescription("snapshotter argument missing").asRuntimeException();
            }
            if (!request.getSnapshotter().equals(SNAPSHOTTER)) {
              throw Status.INVALID_ARGUMENT
                  .withDescription("snapshotter not loaded: " + request.getSnapshotter())
                  .asRuntimeException();
            }
            Status failure = usageFailures.get(request.getKey());
            if (failure != null) {
              throw failure.asRuntimeException();
            }
            var found = ns.equals(tasksNamespace) ? find(request.getKey()) : null;
            if (found == null) {
              throw Status.NOT_FOUND
                  .withDescription("snapshot " + request.getKey() + " does not exist: not found")
                  .asRuntimeException();
            }
            // size: the layer's directory walked anew; inodes 0: continuity's diskUsage counts none on Windows
            // (vendor/github.com/containerd/continuity/fs/du_windows.go:27-51@v2.3.4).
            return UsageResponse.newBuilder().setSize(found.getValue().writableLayerBytes()).setInodes(0).build();
          },
          observer);
    }
  }

  private final class Containers extends ContainersGrpc.ContainersImplBase {
    @Override
    public void get(GetContainerRequest request, StreamObserver<GetContainerResponse> observer) {
      containerGetCalls.incrementAndGet();
      answer(
          () -> {
            String ns = namespace();
            var found =
                ns.equals(tasksNamespace) && !withoutRecord.contains(request.getId()) ? find(request.getId()) : null;
            if (found == null) {
              throw Status.NOT_FOUND
                  .withDescription("container \"" + request.getId() + "\" in namespace \"" + ns + "\": not found")
                  .asRuntimeException();
            }
            return GetContainerResponse.newBuilder()
                .setContainer(
                    io.winstats.cri.api.containerd.Container.newBuilder()
                        .setId(request.getId())
                        .setSnapshotter(SNAPSHOTTER)
                        .setSnapshotKey(request.getId()))
                .build();
          },
          observer);
    }
  }

  private final class Introspection extends IntrospectionGrpc.IntrospectionImplBase {
    @Override
    public void plugins(PluginsRequest request, StreamObserver<PluginsResponse> observer) {
      pluginsCalls.incrementAndGet();
      answer(
          () -> {
            Status failure = pluginsFailure;
            if (failure != null) {
              throw failure.asRuntimeException();
            }
            char separator = imageFsPath.indexOf('\\') >= 0 ? '\\' : '/';
            String parent = imageFsPath.substring(0, Math.max(0, imageFsPath.lastIndexOf(separator)));
            List<Plugin> all =
                List.of(
                    Plugin.newBuilder().setType("io.containerd.snapshotter.v1").setId(SNAPSHOTTER).build(),
                    Plugin.newBuilder()
                        .setType("io.containerd.content.v1")
                        .setId("content")
                        .putExports("root", parent + separator + "io.containerd.content.v1.content")
                        .build());
            PluginsResponse.Builder b = PluginsResponse.newBuilder();
            for (Plugin p : all) {
              boolean match = request.getFiltersCount() == 0;
              for (String f : request.getFiltersList()) {
                match |= f.equals("type==" + p.getType() + ",id==" + p.getId());
              }
              if (match) {
                b.addPlugins(p);
              }
            }
            return b.build();
          },
          observer);
    }
  }

  private final class Tasks extends TasksGrpc.TasksImplBase {
    @Override
    public void listPids(ListPidsRequest request, StreamObserver<ListPidsResponse> observer) {
      listPidsCalls.incrementAndGet();
      answer(
          () -> {
            String ns = namespace();
            String id = request.getContainerId();
            Status failure = listPidsFailures.get(id);
            if (failure != null) {
              throw failure.asRuntimeException();
            }
            long count = -1;
            for (WindowsPod p : ns.equals(tasksNamespace) ? pods.values() : List.<WindowsPod>of()) {
              if (p.id().equals(id)) {
                count = p.sandboxProcesses();
              }
              for (WindowsContainer c : p.containers()) {
                if (c.id().equals(id) && WindowsPod.hasTask(c)) {
                  count = c.processes();
                }
              }
            }
            if (count < 0) {
              throw Status.NOT_FOUND.withDescription("task " + id + " not found").asRuntimeException();
            }
            // pid: made-up process ids; info: the shim's ProcessDetails (image name, times, memory: hcsTask.Pids,
            // task_hcs.go:581-598@v0.13.0) under typeurl's bare name (pidsInternal, service_internal.go:226-237), sent
            // here with no fields set: a reader only counts the entries, as containerd's getSandboxPidCount does.
            ListPidsResponse.Builder b = ListPidsResponse.newBuilder();
            for (int i = 0; i < count; i++) {
              b.addProcesses(
                  ProcessInfo.newBuilder()
                      .setPid(4000 + 4 * i)
                      .setInfo(com.google.protobuf.Any.newBuilder().setTypeUrl("containerd.runhcs.v1.ProcessDetails")));
            }
            return b.build();
          },
          observer);
    }

    @Override
    public void metrics(MetricsRequest request, StreamObserver<MetricsResponse> observer) {
      taskMetricsCalls.incrementAndGet();
      if (tasksHang) {
        return; // no answer: the caller's deadline ends the call
      }
      answer(
          () -> {
            Status failure = tasksFailure;
            if (failure != null) {
              throw failure.asRuntimeException();
            }
            String ns = NAMESPACE.get();
            if (ns == null || ns.isEmpty()) {
              // namespaces.NamespaceRequired: "namespace is required: failed precondition", not mapped to a code.
              throw Status.UNKNOWN.withDescription("namespace is required: failed precondition").asRuntimeException();
            }
            Set<String> ids = new LinkedHashSet<>();
            for (String f : request.getFiltersList()) {
              if (!f.startsWith("id==") || f.length() == 4) {
                throw Status.UNKNOWN.withDescription("[" + f + "]: filters: parse error: invalid argument")
                    .asRuntimeException();
              }
              ids.add(f.substring(4));
            }
            MetricsResponse.Builder b = MetricsResponse.newBuilder();
            if (ns.equals(tasksNamespace)) {
              b.addAllMetrics(ContainerdWindowsTasks.metrics(pods.values(), ids, nowNanos()));
            }
            return b.build();
          },
          observer);
    }
  }

  /** The builder this fake answers with; shares containerd's previous-reading cache with the fake. */
  public ContainerdWindowsStats stats() {
    return stats;
  }

  /** A server for this fake on the Unix socket {@code socket}, started; close it to stop serving. */
  public Served start(Path socket) {
    EventLoopGroup group = new EpollEventLoopGroup(1);
    try {
      NettyServerBuilder builder =
          NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
              .channelType(EpollServerDomainSocketChannel.class)
              .bossEventLoopGroup(group)
              .workerEventLoopGroup(group)
              .addService(this);
      containerdServices().forEach(builder::addService);
      Server server = builder.build().start();
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
          case V1_7 -> "v1.7.20";
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
    criStatsCalls.incrementAndGet();
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
    criStatsCalls.incrementAndGet();
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
    criStatsCalls.incrementAndGet();
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
    criStatsCalls.incrementAndGet();
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
