package io.winstats.cri.rounds;

import static io.winstats.cri.rounds.FakeRuntime.podAttributes;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import io.grpc.ForwardingServerCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.api.Container;
import io.winstats.cri.api.ContainerAttributes;
import io.winstats.cri.api.ContainerMetadata;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.ContainerStatus;
import io.winstats.cri.api.FilesystemIdentifier;
import io.winstats.cri.api.ImageFsInfoResponse;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.containerd.Metric;
import io.winstats.cri.api.containerd.MetricsResponse;
import io.winstats.cri.api.containerd.Statistics;
import io.winstats.cri.api.containerd.TasksGrpc;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.HcsReading;
import io.winstats.cri.testing.WindowsContainer;
import io.winstats.cri.testing.WindowsPod;
import io.winstats.cri.testing.WindowsRuntimeFake;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Runtimes that answer with full messages ({@link #full}: every field of every message below, found by walking the
 * protobuf descriptors, set to a distinct value, none 0), read through the real rounds ({@link RuntimeStatsReader}):
 * {@code ListPodSandboxStats} with a Linux and with a Windows pod, {@code ListContainerStats}, and containerd's {@code
 * Tasks.Metrics} on Windows ({@link TasksStatsRound}). Each source is read twice, the second time with a later seed
 * and its stats message passed through {@link #secondRound}, so that a test can change one field of it. Shared by
 * {@link CriReadCoverageTest} (every component is set by some source) and {@link CriStatsFieldsReadTest} (every stats
 * field changes the sample).
 */
final class FullRuntimeSources {
  static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
  private static final long T0 = NOW.toEpochMilli() * 1_000_000;
  /** Every string field of a full message is its field's full name, so the writable layers' mountpoint is this. */
  private static final String MOUNTPOINT =
      FilesystemIdentifier.getDescriptor().findFieldByName("mountpoint").getFullName();
  private static final String LOG_DIR = "/var/log/pods/shop_web_uid-p1/app";

  private final List<AutoCloseable> open = new ArrayList<>();
  private final FakeHostFiles hostFiles = new FakeHostFiles();
  private final AtomicLong ticker = new AtomicLong();
  /** The seed of the full messages: raised between a source's two rounds, so that every counter and time grows. */
  private final AtomicLong seed = new AtomicLong(1);
  /**
   * What the second round's stats messages ({@code PodSandboxStats}, {@code ContainerStats}, {@code Statistics})
   * become before they are sent: unchanged unless a test sets it.
   */
  UnaryOperator<Message> secondRound = UnaryOperator.identity();

  FullRuntimeSources() {
    hostFiles.capacities.put(MOUNTPOINT, new FilesystemCapacity(1L << 40, 1L << 39, 7_000_000L, 6_000_000L));
    hostFiles.capacities.put(WindowsRuntimeFake.IMAGE_FS_PATH, new FilesystemCapacity(1L << 40, 1L << 38, null, null));
    hostFiles.directories.put(LOG_DIR, new HostFiles.Usage(12_345, 3));
  }

  /** Stops the servers and readers of the sources read so far. */
  void close() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    open.clear();
  }

  /** The second round's sample of {@code ListPodSandboxStats} with a Linux pod. */
  RuntimeSample linuxPodStats() throws Exception {
    return twoRounds(criReader(this::linuxPod), false);
  }

  /** The second round's sample of {@code ListPodSandboxStats} with a Windows pod. */
  RuntimeSample windowsPodStats() throws Exception {
    return twoRounds(criReader(this::windowsPod), false);
  }

  /** The second round's sample of {@code ListContainerStats}. */
  RuntimeSample containerStats() throws Exception {
    return twoRounds(criReader(this::linuxPod), true);
  }

  /**
   * A full {@code PodSandboxStats} with only its Linux member, as {@link #linuxPodStats} sends it unchanged; its listed
   * interface named apart from the default one, which a runtime lists again.
   */
  static PodSandboxStats fullLinuxPod(long seed) {
    PodSandboxStats.Builder b = full(PodSandboxStats.newBuilder(), seed).clearWindows();
    b.getLinuxBuilder().getNetworkBuilder().getInterfacesBuilder(0).setName("eth1");
    return b.build();
  }

  /**
   * A full {@code PodSandboxStats} with only its Windows member, as {@link #windowsPodStats} sends it unchanged; its
   * listed interface named apart from the default one, and its CPU the sandbox's own plus its container's, as
   * containerd sums it (so that the sandbox's part is not negative).
   */
  static PodSandboxStats fullWindowsPod(long seed) {
    PodSandboxStats.Builder b = full(PodSandboxStats.newBuilder(), seed).clearLinux();
    var w = b.getWindowsBuilder();
    w.getNetworkBuilder().getInterfacesBuilder(0).setName("Ethernet 2");
    var cpu = w.getCpuBuilder().getUsageCoreNanoSecondsBuilder();
    cpu.setValue(cpu.getValue() + w.getContainers(0).getCpu().getUsageCoreNanoSeconds().getValue());
    return b.build();
  }

  @SuppressWarnings("unchecked")
  private <M extends Message> M sent(M m) {
    return seed.get() == 2 ? (M) secondRound.apply(m) : m;
  }

  /**
   * {@code b} with every field set, walking its descriptor: scalars and wrappers to the next of a counter starting at
   * {@code seed} millions (so a later seed makes every counter and time grow), strings to their field's full name,
   * enums to their value numbered 1, messages filled the same way, repeated fields and maps with one element; the
   * first member of a oneof. A {@code google.protobuf.Timestamp} is a time ten seconds per seed apart.
   */
  static <B extends Message.Builder> B full(B b, long seed) {
    fill(b, new long[] {seed * 1_000_000}, seed, 0);
    return b;
  }

  private static void fill(Message.Builder b, long[] next, long seed, int depth) {
    if (depth > 10) {
      throw new IllegalStateException("a message nests itself: " + b.getDescriptorForType().getFullName());
    }
    if (b.getDescriptorForType().equals(Timestamp.getDescriptor())) {
      ((Timestamp.Builder) b).setSeconds(NOW.getEpochSecond() + 10 * seed).setNanos((int) (++next[0] % 1_000_000));
      return;
    }
    for (FieldDescriptor f : b.getDescriptorForType().getFields()) {
      if (f.getRealContainingOneof() != null && b.hasOneof(f.getRealContainingOneof())) {
        continue;
      }
      if (f.isRepeated()) {
        b.addRepeatedField(f, value(b, f, next, seed, depth));
      } else {
        b.setField(f, value(b, f, next, seed, depth));
      }
    }
  }

  private static Object value(Message.Builder b, FieldDescriptor f, long[] next, long seed, int depth) {
    long v = ++next[0];
    return switch (f.getJavaType()) {
      case INT -> (int) (v % 1_000_000_000);
      case LONG -> v;
      case FLOAT -> v + 0.5f;
      case DOUBLE -> v + 0.5;
      case BOOLEAN -> true;
      case STRING -> f.getFullName();
      case BYTE_STRING -> ByteString.copyFromUtf8(f.getFullName());
      case ENUM -> {
        EnumDescriptor e = f.getEnumType();
        yield e.findValueByNumber(1) != null ? e.findValueByNumber(1) : e.getValues().get(e.getValues().size() - 1);
      }
      case MESSAGE -> {
        Message.Builder m = b.newBuilderForField(f);
        fill(m, next, seed, depth + 1);
        yield m.build();
      }
    };
  }

  private ContainerAttributes attributes() {
    return ContainerAttributes.newBuilder()
        .setId("c1")
        .setMetadata(ContainerMetadata.newBuilder().setName("app").setAttempt(1))
        .build();
  }

  private PodSandboxStats linuxPod(PodSandbox p) {
    PodSandboxStats.Builder b = fullLinuxPod(seed.get()).toBuilder().setAttributes(podAttributes(p));
    b.getLinuxBuilder().getContainersBuilder(0).setAttributes(attributes());
    return sent(b.build());
  }

  private PodSandboxStats windowsPod(PodSandbox p) {
    PodSandboxStats.Builder b = fullWindowsPod(seed.get()).toBuilder().setAttributes(podAttributes(p));
    b.getWindowsBuilder().getContainersBuilder(0).setAttributes(attributes());
    return sent(b.build());
  }

  // ---- Sources -------------------------------------------------------------------------------------------------

  /** The sample of a source's second round: its first gave each CPU the reading its rate is measured against. */
  private RuntimeSample twoRounds(RuntimeStatsReader reader, boolean containerStats) {
    if (containerStats) {
      reader.useContainerStats();
    }
    seed.set(1);
    reader.sample();
    seed.set(2);
    RuntimeSample second = reader.sample();
    assertThat(second.skipped()).as("a full message maps").isEmpty();
    return second;
  }

  /**
   * A CRI runtime listing pod p1 (HostProcess) with container c1 (its second attempt, its full {@code
   * ContainerStatus}), answering {@code ListPodSandboxStats} with {@code pod}'s full message, {@code
   * ListContainerStats} with a full {@code ContainerStats} and {@code ImageFsInfo} with a full answer.
   */
  private RuntimeStatsReader criReader(Function<PodSandbox, PodSandboxStats> pod) throws Exception {
    FakeRuntime runtime = new FakeRuntime();
    PodSandbox p = runtime.addPod("p1", "web", "shop", T0 - 60_000_000_000L);
    Container c = runtime.addContainer("c1", "p1", "app", "registry.example/app:1.2", T0 - 50_000_000_000L);
    runtime.containers.set(0, c.toBuilder().setMetadata(c.getMetadata().toBuilder().setAttempt(1)).build());
    runtime.hostProcessPods.add("p1");
    runtime.statuses.put(
        "c1", full(ContainerStatus.newBuilder(), 1).setId("c1").setLogPath(LOG_DIR + "/1.log").build());
    runtime.podStats.put("p1", () -> pod.apply(p));
    runtime.containerStats.put(
        "c1", () -> sent(full(ContainerStats.newBuilder(), seed.get()).setAttributes(attributes()).build()));
    FakeImages images = new FakeImages();
    images.imageFsInfo = () -> full(ImageFsInfoResponse.newBuilder(), seed.get()).build();
    String name = InProcessServerBuilder.generateName();
    Server server =
        InProcessServerBuilder.forName(name).directExecutor().addService(runtime).addService(images).build().start();
    open.add(() -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    return reader(name);
  }

  /**
   * A process-isolated Windows pod p1 with container c1 whose every task (sandbox and container) answers {@code
   * Tasks.Metrics} with a full {@code Statistics}; the rest (listings, layers, process counts, HNS) as {@link
   * WindowsRuntimeFake} serves containerd 2.2.
   */
  RuntimeSample taskMetrics() throws Exception {
    WindowsRuntimeFake runtime = new WindowsRuntimeFake(ContainerdLine.V2_2, Clock.fixed(NOW, ZoneOffset.UTC));
    HcsReading replaced = new HcsReading(T0, 1, 1, 1);
    runtime.put(WindowsPod.isolated(
        "p1", "web", "shop", T0, replaced, List.of(WindowsContainer.running("c1", "app", 1, T0, replaced))));
    String name = InProcessServerBuilder.generateName();
    InProcessServerBuilder builder = InProcessServerBuilder.forName(name).directExecutor().addService(runtime);
    for (ServerServiceDefinition s : runtime.containerdServices()) {
      boolean tasks = s.getServiceDescriptor().getName().equals(TasksGrpc.SERVICE_NAME);
      builder.addService(tasks ? ServerInterceptors.intercept(s, fullStatistics()) : s);
    }
    Server server = builder.build().start();
    open.add(() -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    RuntimeStatsReader reader = reader(name);
    reader.useTaskMetrics(runtime.hns());
    return twoRounds(reader, false);
  }

  /** Each {@code Tasks.Metrics} answer with every task's statistics replaced by a full one of {@link #seed}. */
  private ServerInterceptor fullStatistics() {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        if (!call.getMethodDescriptor().getFullMethodName().equals(TasksGrpc.getMetricsMethod().getFullMethodName())) {
          return next.startCall(call, headers);
        }
        return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          @SuppressWarnings("unchecked")
          public void sendMessage(R message) {
            MetricsResponse.Builder b = ((MetricsResponse) message).toBuilder();
            for (Metric.Builder m : b.getMetricsBuilderList()) {
              m.getDataBuilder().setValue(sent(full(Statistics.newBuilder(), seed.get()).build()).toByteString());
            }
            super.sendMessage((R) b.build());
          }
        }, headers);
      }
    };
  }

  private RuntimeStatsReader reader(String name) {
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    RuntimeStatsReader reader = RuntimeStatsReader.forChannel(
        "inprocess:" + name, channel, Duration.ofSeconds(5), Clock.fixed(NOW, ZoneOffset.UTC), ticker::get, hostFiles);
    open.add(0, reader);
    return reader;
  }
}
