package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import com.google.protobuf.Any;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.api.containerd.Metric;
import io.winstats.cri.api.containerd.Statistics;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.ContainerdWindowsTasks;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RuntimeStatsReader} with Windows figures from containerd's {@code Tasks.Metrics} ({@link TasksStatsRound})
 * against {@link WindowsRuntimeFake}, whose Tasks service answers as containerd 2.0-2.3 with the runhcs shim do (the
 * fields and their sources are cited in {@link ContainerdWindowsTasks}).
 */
class CriStatsReaderTasksTest {
  private static final Instant NOW = Instant.parse("2026-11-27T02:00:00Z");
  private static final long T0 = NOW.toEpochMilli() * 1_000_000;
  private static final long SECOND = 1_000_000_000L;
  private static final long MIB = 1L << 20;

  private final AtomicLong ticker = new AtomicLong();
  private final List<AutoCloseable> open = new ArrayList<>();
  private WindowsRuntimeFake runtime;
  private RuntimeStatsReader reader;

  @BeforeEach
  void serve() throws Exception {
    runtime = new WindowsRuntimeFake(ContainerdLine.V2_2, Clock.fixed(NOW, ZoneOffset.UTC));
    String name = InProcessServerBuilder.generateName();
    InProcessServerBuilder builder = InProcessServerBuilder.forName(name).directExecutor().addService(runtime);
    runtime.containerdServices().forEach(builder::addService);
    Server server = builder.build().start();
    open.add(() -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    reader =
        RuntimeStatsReader.forChannel(
            "inprocess:" + name, channel, Duration.ofSeconds(5), Clock.fixed(NOW, ZoneOffset.UTC), ticker::get);
    reader.useTaskMetrics(runtime.hns());
    open.add(0, reader);
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  /** Total 8 s (6 user, 2 kernel), 100 MiB working set, 150 MiB commit peaking at 180, 40 reads / 10 writes. */
  private static HcsReading reading(long second, long cpuSeconds) {
    return new HcsReading(
        T0 + second * SECOND, cpuSeconds * SECOND, 100 * MIB, 150 * MIB, cpuSeconds * SECOND * 3 / 4,
        cpuSeconds * SECOND / 4, 180 * MIB, 40, 40 * 4096, 10, 10 * 8192);
  }

  private PodSample pod(RuntimeSample s, String name) {
    return s.pods().stream().filter(p -> p.ref().name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aProcessIsolatedPodCarriesEveryTaskFigureWithoutACriStatsCall() {
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0 - 60 * SECOND, reading(0, 1),
            List.of(
                WindowsContainer.running("a", "app", 0, T0, reading(0, 8)),
                WindowsContainer.running("b", "sidecar", 0, T0, reading(0, 2)))));

    RuntimeSample first = reader.sample();
    runtime.put(runtime.pod("p1").with(reading(10, 2), cs -> cs.stream().map(c -> c.withReading(reading(10, 13))).toList()));
    RuntimeSample second = reader.sample();

    assertThat(runtime.criStatsCalls()).as("no CRI stats call: containerd's usage_nano_cores is the kubelet's alone")
        .isZero();
    assertThat(runtime.taskMetricsCalls()).as("one Tasks.Metrics call per round, not one per container").isEqualTo(2);
    ContainerSample app = pod(first, "web").containers().get(0);
    assertThat(app.name()).isEqualTo("app");
    assertThat(app.cpu().usageCoreNanos()).isEqualTo(8 * SECOND);
    assertThat(app.cpu().userNanos()).isEqualTo(6 * SECOND);
    assertThat(app.cpu().kernelNanos()).isEqualTo(2 * SECOND);
    assertThat(app.cpu().timestamp()).as("HCS's own reading time").isEqualTo(NOW);
    assertThat(app.memory().workingSetBytes()).isEqualTo(100 * MIB);
    assertThat(app.memory().usageBytes()).as("commit, as containerd 2.2's ListContainerStats").isEqualTo(150 * MIB);
    assertThat(app.memory().commitBytes()).isEqualTo(150 * MIB);
    assertThat(app.memory().commitPeakBytes()).isEqualTo(180 * MIB);
    assertThat(app.storage().readCount()).isEqualTo(40);
    assertThat(app.storage().readBytes()).isEqualTo(40 * 4096);
    assertThat(app.storage().writeCount()).isEqualTo(10);
    assertThat(app.storage().writeBytes()).isEqualTo(10 * 8192);
    assertThat(app.writableLayer().usedBytes()).as("Snapshots.Usage of the container's snapshot").isEqualTo(4096);
    assertThat(app.writableLayer().inodesUsed()).as("the Windows snapshotter counts no inodes").isNull();
    assertThat(app.writableLayer().mountpoint()).as("snapshotRoot(\"windows\"), beside the content store's root")
        .isEqualTo(WindowsRuntimeFake.IMAGE_FS_PATH);
    assertThat(app.writableLayer().timestamp()).as("when it was measured").isEqualTo(NOW);
    PodSample web = pod(first, "web");
    assertThat(web.cpu().usageCoreNanos()).as("the pause container's 1 s plus the containers' 10 s")
        .isEqualTo(11 * SECOND);
    assertThat(web.memory().workingSetBytes()).as("the containers' working sets").isEqualTo(200 * MIB);
    assertThat(web.processCount()).as("ListPids of the pause container's task (1) and of both containers' (1 each)")
        .isEqualTo(3);
    assertThat(web.network().interfaces()).singleElement().satisfies(nic -> {
      assertThat(nic.name()).as("HNS's EndpointId, as containerd names the CRI interface").isEqualTo("EP-P1");
      assertThat(nic.rxBytes()).isEqualTo(1000);
      assertThat(nic.txBytes()).isEqualTo(2000);
      assertThat(nic.rxPackets()).isEqualTo(10);
      assertThat(nic.txPackets()).isEqualTo(20);
      assertThat(nic.rxPacketsDropped()).isEqualTo(1);
      assertThat(nic.txPacketsDropped()).isEqualTo(2);
    });
    assertThat(first.fallbacksStarted()).isEmpty();

    assertThat(runtime.usageCalls()).as("each layer measured once within its refresh").isEqualTo(2);
    assertThat(runtime.listPidsCalls()).as("each task counted once within its refresh").isEqualTo(3);
    assertThat(runtime.containerGetCalls()).as("a container's snapshot key asked once").isEqualTo(2);
    ContainerSample app2 = pod(second, "web").containers().get(0);
    assertThat(app2.cpu().usageNanoCores()).as("(13 - 8) s over 10 s: our own rate").isEqualTo(500_000_000L);
    assertThat(pod(second, "web").cpu().usageCoreNanos()).isEqualTo(28 * SECOND);
  }

  @Test
  void hostProcessAndHyperVSandboxesAddNothingOfTheirOwnToThePod() {
    runtime.put(
        WindowsPod.hostProcess(
            "hp", "agent", "kube-system", T0, List.of(WindowsContainer.running("h", "agent", 0, T0, reading(0, 3)))));
    runtime.put(
        WindowsPod.hyperV(
            "hv", "isolated", "shop", T0, reading(0, 50), List.of(WindowsContainer.running("v", "app", 0, T0, reading(0, 4)))));

    RuntimeSample s = reader.sample();

    assertThat(pod(s, "agent").cpu().usageCoreNanos()).as("empty sandbox Statistics").isEqualTo(3 * SECOND);
    assertThat(pod(s, "agent").containers().get(0).storage().readCount()).as("job object I/O").isEqualTo(40);
    assertThat(pod(s, "isolated").cpu().usageCoreNanos()).as("the utility VM's vm statistics are not the pod's CPU")
        .isEqualTo(4 * SECOND);
    assertThat(pod(s, "isolated").containers().get(0).cpu().kernelNanos()).isEqualTo(SECOND);
    assertThat(s.skipped()).isEmpty();
    assertThat(runtime.criStatsCalls()).isZero();
    assertThat(pod(s, "agent").processCount()).as("the faked sandbox task's one process and the container's")
        .isEqualTo(2);
    assertThat(pod(s, "isolated").processCount()).isEqualTo(2);
  }

  @Test
  void theWritableLayerAndProcessCountAreAskedAgainAfterTheirRefreshAsTheKubeletWouldSeeThem() {
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(0, 1), List.of(WindowsContainer.running("a", "app", 0, T0, reading(0, 8)))));
    RuntimeSample first = reader.sample();
    runtime.put(
        runtime.pod("p1").with(
            reading(5, 2), cs -> List.of(cs.get(0).withReading(reading(5, 9)).withWritableLayer(8 * MIB, T0).withProcesses(4))));

    RuntimeSample cached = reader.sample();
    ticker.addAndGet(WritableLayers.REFRESH.toNanos());
    RuntimeSample layerRefreshed = reader.sample();
    ticker.addAndGet(TaskProcesses.REFRESH.minus(WritableLayers.REFRESH).toNanos());
    RuntimeSample refreshed = reader.sample();

    assertThat(pod(first, "web").processCount()).isEqualTo(2);
    assertThat(pod(cached, "web").processCount()).as("within the refresh: the count already read").isEqualTo(2);
    assertThat(pod(cached, "web").containers().get(0).writableLayer().usedBytes()).isEqualTo(4096);
    assertThat(pod(cached, "web").containers().get(0).cpu().usageCoreNanos()).as("task metrics every round")
        .isEqualTo(9 * SECOND);
    assertThat(pod(layerRefreshed, "web").containers().get(0).writableLayer().usedBytes()).isEqualTo(8 * MIB);
    assertThat(pod(layerRefreshed, "web").processCount()).as("counts are kept longer than layers").isEqualTo(2);
    assertThat(pod(refreshed, "web").processCount()).as("1 + 4 after the refresh").isEqualTo(5);
    assertThat(runtime.usageCalls()).isEqualTo(3);
    assertThat(runtime.listPidsCalls()).isEqualTo(4);
    assertThat(runtime.containerGetCalls()).as("the snapshot key is the container's for its life").isEqualTo(1);
    assertThat(runtime.criStatsCalls()).isZero();
    assertThat(reader.cacheEntries())
        .as("two task counts; the container's layer and its snapshot key")
        .containsEntry("task_process_counts", 2L)
        .containsEntry("writable_layers", 2L);

    runtime.remove("p1");
    ticker.addAndGet(RuntimeStatsReader.CACHE_EXPIRY.toNanos());
    reader.sample();
    assertThat(reader.cacheEntries()).containsEntry("task_process_counts", 0L).containsEntry("writable_layers", 0L);
  }

  @Test
  void oneFailedSnapshotUsageLeavesThatLayerUnmeasuredAndTheRoundOnTasks() {
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(0, 1),
            List.of(
                WindowsContainer.running("a", "app", 0, T0, reading(0, 8)),
                WindowsContainer.running("b", "side", 0, T0, reading(0, 2)))));
    runtime.failUsage("a", Status.DEADLINE_EXCEEDED.withDescription("context deadline exceeded"));
    runtime.failUsage("b", Status.UNKNOWN.withDescription("open C:\\ProgramData\\containerd\\root: Access is denied."));

    RuntimeSample slow = reader.sample();
    runtime.failUsage("b", null);
    ticker.addAndGet(WritableLayers.REFRESH.toNanos());
    RuntimeSample next = reader.sample();

    assertThat(slow.fallbacksStarted()).as("containerd's syncer logs and goes on: no fallback").isEmpty();
    assertThat(slow.callsFailed()).containsOnlyKeys("Snapshots.Usage");
    assertThat(runtime.criStatsCalls()).isZero();
    PodSample web = pod(slow, "web");
    for (ContainerSample c : web.containers()) {
      assertThat(c.writableLayer().usedBytes()).as(c.name() + ": unmeasured").isNull();
      assertThat(c.cpu().userNanos()).as(c.name() + ": CPU still from Tasks.Metrics").isNotNull();
    }
    assertThat(web.processCount()).isEqualTo(3);
    ContainerSample side = pod(next, "web").containers().stream().filter(c -> c.name().equals("side")).findFirst()
        .orElseThrow();
    assertThat(side.writableLayer().usedBytes()).as("measured again after the refresh").isEqualTo(4096);
    assertThat(next.fallbacksStarted()).isEmpty();
  }

  @Test
  void oneFailedListPidsLeavesThatPodsProcessCountUnmeasuredAndTheRoundOnTasks() {
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(0, 1), List.of(WindowsContainer.running("a", "app", 0, T0, reading(0, 8)))));
    runtime.put(
        WindowsPod.isolated(
            "p2", "db", "shop", T0, reading(0, 1), List.of(WindowsContainer.running("b", "db", 0, T0, reading(0, 2)))));
    runtime.failListPids("a", Status.DEADLINE_EXCEEDED.withDescription("context deadline exceeded"));

    RuntimeSample failing = reader.sample();
    RuntimeSample cached = reader.sample();
    runtime.failListPids("a", null);
    ticker.addAndGet(TaskProcesses.REFRESH.toNanos());
    RuntimeSample answered = reader.sample();

    assertThat(failing.fallbacksStarted()).as("no tasks_metrics fallback for one task's ListPids").isEmpty();
    assertThat(reader.fellBackFromTaskMetrics()).isFalse();
    assertThat(runtime.criStatsCalls()).isZero();
    assertThat(pod(failing, "web").processCount()).as("unmeasured, not a partial sum").isNull();
    assertThat(pod(failing, "web").cpu().usageCoreNanos()).as("the pod's CPU from Tasks.Metrics").isEqualTo(9 * SECOND);
    assertThat(pod(failing, "web").containers().get(0).cpu().userNanos()).isEqualTo(6 * SECOND);
    assertThat(pod(failing, "web").memory().workingSetBytes()).isEqualTo(100 * MIB);
    assertThat(pod(failing, "db").processCount()).as("the other pod counted").isEqualTo(2);
    assertThat(pod(cached, "web").processCount()).as("kept unmeasured within the refresh").isNull();
    assertThat(pod(answered, "web").processCount()).isEqualTo(2);
    assertThat(failing.callsFailed())
        .as("said for the start-up report and /status")
        .containsExactly(java.util.Map.entry("Tasks.ListPids", "task a: DEADLINE_EXCEEDED: context deadline exceeded"));
    assertThat(cached.callsFailed()).as("not asked within the refresh").isEmpty();
    assertThat(answered.callsFailed()).isEmpty();
  }

  @Test
  void aFailedIntrospectionPluginsLeavesTheLayersUnmeasuredAndTheRoundOnTasks() {
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(0, 1), List.of(WindowsContainer.running("a", "app", 0, T0, reading(0, 8)))));
    runtime.failPlugins(Status.UNKNOWN.withDescription("failed to get plugin info"));

    RuntimeSample failing = reader.sample();
    RuntimeSample within = reader.sample();
    runtime.failPlugins(null);
    ticker.addAndGet(WritableLayers.REFRESH.toNanos());
    RuntimeSample answered = reader.sample();

    assertThat(failing.fallbacksStarted()).as("no tasks_metrics fallback for Introspection.Plugins").isEmpty();
    assertThat(runtime.criStatsCalls()).isZero();
    ContainerSample app = pod(failing, "web").containers().get(0);
    assertThat(app.writableLayer()).as("no snapshotter root to name: unmeasured").isNull();
    assertThat(app.cpu().userNanos()).as("CPU from Tasks.Metrics").isEqualTo(6 * SECOND);
    assertThat(app.memory().commitBytes()).isEqualTo(150 * MIB);
    assertThat(pod(failing, "web").processCount()).isEqualTo(2);
    assertThat(pod(within, "web").containers().get(0).writableLayer()).isNull();
    assertThat(runtime.pluginsCalls()).as("not asked again within the refresh").isEqualTo(2);
    assertThat(pod(answered, "web").containers().get(0).writableLayer().usedBytes()).isEqualTo(4096);
    assertThat(failing.callsFailed()).containsOnlyKeys("Introspection.Plugins");
    assertThat(failing.callsFailed().get("Introspection.Plugins")).contains("UNKNOWN", "failed to get plugin info");
    assertThat(answered.callsFailed()).isEmpty();
  }

  @Test
  void aContainerRecordContainerdDoesNotHoldIsAskedForOnceWhileTheContainerIsListed() {
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(0, 1),
            List.of(
                WindowsContainer.running("a", "app", 0, T0, reading(0, 8)),
                WindowsContainer.running("b", "side", 0, T0, reading(0, 2)))));
    runtime.dropContainerRecord("a");

    List<RuntimeSample> rounds = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      rounds.add(reader.sample());
      ticker.addAndGet(TimeUnit.SECONDS.toNanos(1));
    }

    assertThat(runtime.containerGetCalls()).as("one Containers.Get per container in 30 rounds: a and b").isEqualTo(2);
    for (RuntimeSample s : rounds) {
      ContainerSample app = pod(s, "web").containers().stream().filter(c -> c.name().equals("app")).findFirst()
          .orElseThrow();
      assertThat(app.writableLayer()).as("no record, no layer").isNull();
      assertThat(app.cpu().usageCoreNanos()).isEqualTo(8 * SECOND);
      assertThat(s.fallbacksStarted()).isEmpty();
    }

    runtime.remove("p1");
    ticker.addAndGet(RuntimeStatsReader.CACHE_EXPIRY.toNanos());
    reader.sample();
    assertThat(reader.cacheEntries()).as("forgotten once the container left the listing")
        .containsEntry("writable_layers", 0L);
  }

  @Test
  void aRuntimeWithoutTheSnapshotsServiceLeavesTheLayersUnmeasured() throws Exception {
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(0, 1), List.of(WindowsContainer.running("a", "app", 0, T0, reading(0, 8)))));
    String name = InProcessServerBuilder.generateName();
    InProcessServerBuilder builder = InProcessServerBuilder.forName(name).directExecutor().addService(runtime);
    runtime.containerdServices().stream()
        .filter(d -> !d.getServiceDescriptor().getName().equals("containerd.services.snapshots.v1.Snapshots"))
        .forEach(builder::addService);
    Server server = builder.build().start();
    open.add(() -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    RuntimeStatsReader withoutSnapshots =
        RuntimeStatsReader.forChannel(
            "inprocess:" + name,
            InProcessChannelBuilder.forName(name).directExecutor().build(),
            Duration.ofSeconds(5),
            Clock.fixed(NOW, ZoneOffset.UTC),
            ticker::get);
    withoutSnapshots.useTaskMetrics(runtime.hns());
    open.add(0, withoutSnapshots);

    RuntimeSample s = withoutSnapshots.sample();

    assertThat(s.fallbacksStarted()).as("Snapshots.Usage UNIMPLEMENTED: each layer unmeasured, no fallback").isEmpty();
    assertThat(pod(s, "web").containers().get(0).writableLayer().usedBytes()).isNull();
    assertThat(pod(s, "web").containers().get(0).cpu().userNanos()).as("from Tasks.Metrics").isNotNull();
    assertThat(pod(s, "web").processCount()).isEqualTo(2);
    assertThat(runtime.criStatsCalls()).isZero();
  }

  @Test
  void anEmptyAnswerWhileContainersRunFallsBackToCriOnceAndRecovers() {
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(0, 1), List.of(WindowsContainer.running("a", "app", 0, T0, reading(0, 8)))));
    runtime.tasksNamespace("default");

    RuntimeSample failed = reader.sample();
    RuntimeSample stillFailed = reader.sample();

    assertThat(failed.fallbacksStarted()).containsExactly(RuntimeStatsReader.TASKS_FALLBACK);
    assertThat(stillFailed.fallbacksStarted()).as("said once").isEmpty();
    assertThat(pod(failed, "web").containers().get(0).cpu().usageCoreNanos()).as("from CRI stats").isEqualTo(8 * SECOND);
    assertThat(pod(failed, "web").containers().get(0).cpu().userNanos()).isNull();
    assertThat(runtime.taskMetricsCalls()).as("not asked again before the retry interval").isEqualTo(1);
    int criCalls = runtime.criStatsCalls();
    assertThat(criCalls).isPositive();

    runtime.tasksNamespace("k8s.io");
    ticker.addAndGet(RuntimeStatsReader.TASKS_RETRY_AFTER.toNanos());
    RuntimeSample recovered = reader.sample();

    assertThat(recovered.fallbacksStarted()).isEmpty();
    assertThat(pod(recovered, "web").containers().get(0).cpu().userNanos()).isEqualTo(6 * SECOND);
    assertThat(runtime.criStatsCalls()).isEqualTo(criCalls);
    assertThat(reader.fellBackFromTaskMetrics()).isFalse();
  }

  @Test
  void aRuntimeWithoutTheTasksServiceFallsBackButAnOutageFailsTheRound() {
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(0, 1), List.of(WindowsContainer.running("a", "app", 0, T0, reading(0, 8)))));
    runtime.failTaskMetrics(Status.UNIMPLEMENTED.withDescription("unknown service containerd.services.tasks.v1.Tasks"));

    assertThat(reader.sample().fallbacksStarted()).containsExactly("tasks_metrics");
    assertThat(reader.fellBackFromTaskMetrics()).isTrue();

    runtime.failTaskMetrics(Status.UNAVAILABLE.withDescription("connection refused"));
    ticker.addAndGet(RuntimeStatsReader.TASKS_RETRY_AFTER.toNanos());
    assertThatThrownBy(reader::sample).isInstanceOf(io.winstats.cri.CriException.class);
  }

  @Test
  void anHnsErrorReplyTakesThePodNetworksFromCriOnceAndHnsIsAskedAgainLater() {
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(0, 1), List.of(WindowsContainer.running("a", "app", 0, T0, reading(0, 8)))));
    runtime.hns().answerError("Access is denied.");

    RuntimeSample failed = reader.sample();
    RuntimeSample stillFailed = reader.sample();

    assertThat(failed.fallbacksStarted()).containsExactly(TasksStatsRound.HNS_FALLBACK);
    assertThat(stillFailed.fallbacksStarted()).isEmpty();
    assertThat(pod(failed, "web").network().interfaces().get(0).rxPackets()).as("CRI counts no packets").isNull();
    assertThat(pod(failed, "web").network().interfaces().get(0).rxBytes()).isEqualTo(1000);
    assertThat(pod(failed, "web").containers().get(0).cpu().userNanos()).as("CPU still from the Tasks service")
        .isEqualTo(6 * SECOND);
    int hnsCalls = runtime.hns().calls();

    runtime.hns().answerError(null);
    ticker.addAndGet(RuntimeStatsReader.TASKS_RETRY_AFTER.toNanos());
    RuntimeSample recovered = reader.sample();

    assertThat(runtime.hns().calls()).isGreaterThan(hnsCalls);
    assertThat(pod(recovered, "web").network().interfaces().get(0).rxPackets()).isEqualTo(10);
  }

  @Test
  void theBareTypeUrlIsComparedAndTheValueParsedByHand() throws Exception {
    Statistics stats = Statistics.newBuilder().setWindows(ContainerdWindowsTasks.windows(reading(0, 8), T0)).build();
    Any bare = Any.newBuilder().setTypeUrl("containerd.runhcs.stats.v1.Statistics").setValue(stats.toByteString()).build();

    assertThat(bare.is(Statistics.class)).as("protobuf-java's Any.is() wants the type.googleapis.com/ prefix").isFalse();
    assertThat(TaskMetrics.decode(Metric.newBuilder().setId("a").setData(bare).build())).isEqualTo(stats);
    assertThat(TaskMetrics.decode(Metric.newBuilder().setId("a").setData(Any.pack(stats)).build())).isEqualTo(stats);
    Any linux = Any.newBuilder().setTypeUrl("io.containerd.cgroups.v1.Metrics").build();
    assertThatThrownBy(() -> TaskMetrics.decode(Metric.newBuilder().setId("a").setData(linux).build()))
        .isInstanceOf(TaskMetrics.UndecodableTask.class)
        .hasMessageContaining("io.containerd.cgroups.v1.Metrics");
  }

  @Test
  void theTasksServiceRefusesACallWithoutItsNamespaceOrWithABadFilter() throws Exception {
    String name = InProcessServerBuilder.generateName();
    Server server =
        InProcessServerBuilder.forName(name).directExecutor().addService(runtime.tasksService()).build().start();
    open.add(() -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    open.add(channel::shutdownNow);
    var bare = io.winstats.cri.api.containerd.TasksGrpc.newBlockingStub(channel);
    assertThatThrownBy(() -> bare.metrics(io.winstats.cri.api.containerd.MetricsRequest.getDefaultInstance()))
        .hasMessageContaining("UNKNOWN: namespace is required");
    RuntimeContext context =
        new RuntimeContext("in-process", Duration.ofSeconds(5), Clock.systemUTC(), Ticker.systemTicker());
    RuntimeCalls.RpcFailure badFilter =
        org.junit.jupiter.api.Assertions.assertThrows(
            RuntimeCalls.RpcFailure.class, () -> new TaskMetrics(context, channel).read(List.of("")));
    assertThat(badFilter.code()).isEqualTo(Status.Code.UNKNOWN);
  }
}
