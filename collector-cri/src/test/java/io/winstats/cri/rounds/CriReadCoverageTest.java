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
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
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
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every figure a runtime sample carries is mapped from a runtime message: a component of {@link RuntimeSample} or of
 * the records below it ({@link PodSample}, {@link ContainerSample}, {@link CpuUsage}, {@link MemoryUsage}, the network,
 * filesystem, log, resource and storage records) that is declared and served but filled by no mapper would otherwise
 * pass every unit test at its builder's null. The runtimes answer with full messages ({@link #full}: every field of
 * every message below, found by walking the protobuf descriptors, set to a distinct value, none 0), so that a field
 * added to api.proto or runhcs_stats.proto is sent without an edit here, through the real rounds ({@link
 * RuntimeStatsReader}): {@code ListPodSandboxStats} with Linux and with Windows pods, {@code ListContainerStats}, and
 * containerd's {@code Tasks.Metrics} on Windows ({@link TasksStatsRound}). Each component must come out set (not null,
 * not 0, not empty) from at least one of them, unless {@link #NOT_MAPPED} says why not; a listed one that is set after
 * all fails too. The cgroup round's figures are held so by {@code CgroupReadCoverageTest}.
 */
class CriReadCoverageTest {
  private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
  private static final long T0 = NOW.toEpochMilli() * 1_000_000;
  /** Every string field of a full message is its field's full name, so the writable layers' mountpoint is this. */
  private static final String MOUNTPOINT =
      FilesystemIdentifier.getDescriptor().findFieldByName("mountpoint").getFullName();
  private static final String LOG_DIR = "/var/log/pods/shop_web_uid-p1/app";

  /** Components no full message sets, each with why. */
  private static final Map<String, String> NOT_MAPPED = Map.of(
      "skipped[]", "the round's record of pods and containers left out: empty when every message maps",
      "fallbacksStarted[]", "the round's record of sources that failed over to CRI stats: empty while all answer",
      "callsFailed", "the round's record of task-source calls that failed: empty while all answer",
      "pods[].cpu.userNanos", "no source splits a pod's CPU: CRI sends its total, TasksStatsRound.podCpu sums totals",
      "pods[].cpu.kernelNanos", "likewise",
      "pods[].memory.commitPeakBytes",
      "a container's alone (TasksStatsRound.container): StatsMapper.sumMemory adds no peaks, a sum of peaks is none");

  private final List<AutoCloseable> open = new ArrayList<>();
  private final FakeHostFiles hostFiles = new FakeHostFiles();
  private final AtomicLong ticker = new AtomicLong();
  /** The seed of the full messages: raised between a source's two rounds, so that every counter and time grows. */
  private final AtomicLong seed = new AtomicLong(1);

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  @Test
  void everyComponentIsMappedFromAFullRuntimeMessageOrListedWithItsReason() throws Exception {
    hostFiles.capacities.put(MOUNTPOINT, new FilesystemCapacity(1L << 40, 1L << 39, 7_000_000L, 6_000_000L));
    hostFiles.capacities.put(WindowsRuntimeFake.IMAGE_FS_PATH, new FilesystemCapacity(1L << 40, 1L << 38, null, null));
    hostFiles.directories.put(LOG_DIR, new HostFiles.Usage(12_345, 3));
    Map<String, Map<String, Boolean>> sources = new TreeMap<>();
    sources.put("ListPodSandboxStats (Linux)", components(twoRounds(criReader(this::linuxPod), false)));
    sources.put("ListPodSandboxStats (Windows)", components(twoRounds(criReader(this::windowsPod), false)));
    sources.put("ListContainerStats", components(twoRounds(criReader(this::linuxPod), true)));
    sources.put("Tasks.Metrics", components(tasksRound()));

    Map<String, Boolean> any = new TreeMap<>();
    sources.values().forEach(s -> s.forEach((component, set) -> any.merge(component, set, Boolean::logicalOr)));
    sources.forEach((name, s) -> assertThat(s.keySet()).as(name + " walks every component").isEqualTo(any.keySet()));
    Set<String> unmapped = new TreeSet<>();
    any.forEach((component, set) -> {
      if (!set) {
        unmapped.add(component);
      }
    });
    Set<String> listedButMapped = new TreeSet<>(NOT_MAPPED.keySet());
    listedButMapped.removeAll(unmapped);
    unmapped.removeAll(NOT_MAPPED.keySet());
    assertThat(unmapped).as("components no full message sets and NOT_MAPPED does not list").isEmpty();
    assertThat(listedButMapped).as("components listed in NOT_MAPPED that a full message sets after all").isEmpty();
    assertThat(any).as("the walk reaches the leaves").hasSizeGreaterThan(60);
  }

  /** The walk itself: a component left at its builder's default is caught, in any element of a list. */
  @Test
  void aComponentLeftAtItsDefaultIsCaught() {
    PodSample bare = PodSample.builder(new PodRef("web", "shop", "uid"), "p1").createdAt(NOW).build();
    PodSample measured = bare.toBuilder()
        .cpu(new CpuUsage(NOW, 5, null))
        .containers(List.of(ContainerSample.builder("c1", "app").image("i").createdAt(NOW)
            .state(ContainerSample.State.RUNNING).memory(MemoryUsage.builder(NOW).rssBytes(7L).build()).build()))
        .build();
    Map<String, Boolean> c =
        components(RuntimeSample.builder(NOW, "fakerd").pods(List.of(bare, measured)).build());
    assertThat(c).containsEntry("pods[].cpu.usageCoreNanos", true).containsEntry("pods[].cpu.usageNanoCores", false)
        .containsEntry("pods[].containers[].memory.rssBytes", true)
        .containsEntry("pods[].containers[].memory.usageBytes", false)
        .containsEntry("pods[].containers[].attempt", false).containsEntry("pods[].network.interfaces[].name", false)
        .containsEntry("filesystems.image[].capacity.inodes", false).containsEntry("pods[].ref.uid", true);
  }

  /** The filler itself: a full message has every singular field set, every repeated one with an element. */
  @Test
  void aFullMessageHasEveryFieldSet() {
    assertThat(unset(full(PodSandboxStats.newBuilder(), 1).build(), "")).isEmpty();
    assertThat(unset(full(ContainerStatus.newBuilder(), 1).build(), "")).isEmpty();
    assertThat(full(Statistics.newBuilder(), 1).build().getWindows().getMemory().getMemoryUsageCommitPeakBytes())
        .isPositive();
  }

  private static List<String> unset(Message m, String path) {
    List<String> out = new ArrayList<>();
    for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
      if (f.isRepeated() ? m.getRepeatedFieldCount(f) == 0 : !m.hasField(f) && !oneofTaken(m, f)) {
        out.add(path + f.getName());
      } else if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !f.isRepeated() && m.hasField(f)) {
        out.addAll(unset((Message) m.getField(f), path + f.getName() + "."));
      }
    }
    return out;
  }

  private static boolean oneofTaken(Message m, FieldDescriptor f) {
    return f.getRealContainingOneof() != null && m.hasOneof(f.getRealContainingOneof());
  }

  // ---- Full messages -------------------------------------------------------------------------------------------

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
    PodSandboxStats.Builder b =
        full(PodSandboxStats.newBuilder(), seed.get()).clearWindows().setAttributes(podAttributes(p));
    b.getLinuxBuilder().getContainersBuilder(0).setAttributes(attributes());
    return b.build();
  }

  private PodSandboxStats windowsPod(PodSandbox p) {
    PodSandboxStats.Builder b =
        full(PodSandboxStats.newBuilder(), seed.get()).clearLinux().setAttributes(podAttributes(p));
    b.getWindowsBuilder().getContainersBuilder(0).setAttributes(attributes());
    return b.build();
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
        "c1", () -> full(ContainerStats.newBuilder(), seed.get()).setAttributes(attributes()).build());
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
  private RuntimeSample tasksRound() throws Exception {
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
              m.getDataBuilder().setValue(full(Statistics.newBuilder(), seed.get()).build().toByteString());
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

  // ---- The walk ------------------------------------------------------------------------------------------------

  /**
   * Each leaf component below {@code sample} by its dotted path (a list's elements as {@code []}, set if set in any),
   * and whether the sample set it: not null, not 0, not false, not the epoch, not empty.
   */
  static Map<String, Boolean> components(RuntimeSample sample) {
    Map<String, Boolean> out = new TreeMap<>();
    walk(RuntimeSample.class, sample, "", out);
    return out;
  }

  private static void walk(Type type, @Nullable Object value, String path, Map<String, Boolean> out) {
    Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
    if (raw.isRecord()) {
      // An absent record still names its leaves, each unset, so that every source lists the same components.
      for (RecordComponent c : raw.getRecordComponents()) {
        Object v;
        try {
          v = value == null ? null : c.getAccessor().invoke(value);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
        walk(c.getGenericType(), v, path.isEmpty() ? c.getName() : path + "." + c.getName(), out);
      }
    } else if (raw == List.class) {
      Type element = ((ParameterizedType) type).getActualTypeArguments()[0];
      List<?> items = value == null ? List.of() : (List<?>) value;
      walk(element, null, path + "[]", out);
      for (Object item : items) {
        walk(element, item, path + "[]", out);
      }
    } else {
      out.merge(path, isSet(value), Boolean::logicalOr);
    }
  }

  private static boolean isSet(@Nullable Object value) {
    if (value instanceof Number n) {
      return n.doubleValue() != 0;
    }
    if (value instanceof CharSequence s) {
      return s.length() > 0;
    }
    if (value instanceof Collection<?> c) {
      return !c.isEmpty();
    }
    if (value instanceof Map<?, ?> m) {
      return !m.isEmpty();
    }
    return value != null && !Boolean.FALSE.equals(value) && !Instant.EPOCH.equals(value);
  }
}
