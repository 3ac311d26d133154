package io.winstats.cri.rounds;

import io.winstats.cri.ContainerLogUsage;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CriException;
import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.ResourceSpec;
import io.winstats.cri.RuntimeFilesystemUsage;
import io.winstats.cri.RuntimeSample;
import static io.winstats.cri.rounds.FakeRuntime.linuxContainerStats;
import static io.winstats.cri.rounds.FakeRuntime.podAttributes;
import static io.winstats.cri.rounds.FakeRuntime.u64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.winstats.cri.api.Container;
import io.winstats.cri.api.ContainerAttributes;
import io.winstats.cri.api.ContainerMetadata;
import io.winstats.cri.api.ContainerState;
import io.winstats.cri.api.ContainerStats;
import io.winstats.cri.api.ContainerResources;
import io.winstats.cri.api.ContainerStatus;
import io.winstats.cri.api.CpuUsage;
import io.winstats.cri.api.FilesystemIdentifier;
import io.winstats.cri.api.FilesystemUsage;
import io.winstats.cri.api.ImageFsInfoResponse;
import io.winstats.cri.api.ImageSpec;
import io.winstats.cri.api.LinuxContainerResources;
import io.winstats.cri.api.LinuxPodSandboxStats;
import io.winstats.cri.api.ListContainerStatsResponse;
import io.winstats.cri.api.ListPodSandboxStatsResponse;
import io.winstats.cri.api.MemoryUsage;
import io.winstats.cri.api.NetworkInterfaceUsage;
import io.winstats.cri.api.NetworkUsage;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.ProcessUsage;
import io.winstats.cri.api.WindowsContainerStats;
import io.winstats.cri.api.WindowsCpuUsage;
import io.winstats.cri.api.WindowsFilesystemUsage;
import io.winstats.cri.api.WindowsMemoryUsage;
import io.winstats.cri.api.WindowsNetworkInterfaceUsage;
import io.winstats.cri.api.WindowsNetworkUsage;
import io.winstats.cri.api.WindowsPodSandboxStats;
import io.winstats.cri.api.WindowsProcessUsage;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link RuntimeStatsReader} against an in-process runtime that scripts what a real one cannot easily produce. */
class CriStatsReaderTest {
  private static final Instant NOW = Instant.parse("2026-11-21T08:00:00Z");
  private static final long T0 = NOW.toEpochMilli() * 1_000_000;
  private static final long SECOND = 1_000_000_000L;
  private static final String IMAGE = "registry.example/app:1.2";

  private final FakeRuntime runtime = new FakeRuntime();
  private final FakeImages images = new FakeImages();
  private final FakeHostFiles hostFiles = new FakeHostFiles();
  private final AtomicLong ticker = new AtomicLong();
  private Server server;
  private RuntimeStatsReader reader;

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name).directExecutor().addService(runtime).addService(images).build().start();
    reader = reader(name, Duration.ofSeconds(5));
  }

  private RuntimeStatsReader reader(String name, Duration timeout) {
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    return RuntimeStatsReader.forChannel(
        "inprocess:" + name, channel, timeout, Clock.fixed(NOW, ZoneOffset.UTC), ticker::get, hostFiles);
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  // ---- ListPodSandboxStats ---------------------------------------------------------------------------------------

  /** Pod p1 with containers a (image by name) and b (image by id, as the kubelet creates them). */
  private PodSandbox podWithTwoContainers(long[] cpu) {
    PodSandbox p = runtime.addPod("p1", "web", "shop", T0 - 60 * SECOND);
    runtime.addContainer("a", "p1", "app", IMAGE, T0 - 50 * SECOND);
    runtime.addContainer("b", "p1", "sidecar", "sha256:" + "b".repeat(64), T0 - 40 * SECOND);
    runtime.statuses.put(
        "b",
        ContainerStatus.newBuilder()
            .setId("b")
            .setImage(ImageSpec.newBuilder().setImage("registry.example/sidecar:3"))
            .build());
    runtime.podStats.put(
        "p1",
        () ->
            PodSandboxStats.newBuilder()
                .setAttributes(podAttributes(p))
                .setLinux(
                    LinuxPodSandboxStats.newBuilder()
                        .setCpu(
                            CpuUsage.newBuilder()
                                .setTimestamp(T0 + cpu[0] * SECOND)
                                .setUsageCoreNanoSeconds(u64(cpu[1] + cpu[2] + 1000))
                                .setUsageNanoCores(u64(999)))
                        .setMemory(
                            MemoryUsage.newBuilder()
                                .setTimestamp(T0 + cpu[0] * SECOND)
                                .setWorkingSetBytes(u64(3000))
                                .setUsageBytes(u64(5000)))
                        .setNetwork(
                            NetworkUsage.newBuilder()
                                .setDefaultInterface(
                                    NetworkInterfaceUsage.newBuilder()
                                        .setName("eth0")
                                        .setRxBytes(u64(100))
                                        .setTxBytes(u64(200))
                                        .setRxErrors(u64(0))))
                        .setProcess(ProcessUsage.newBuilder().setTimestamp(T0).setProcessCount(u64(3)))
                        .addContainers(linuxContainerStats("a", "app", T0 + cpu[0] * SECOND, cpu[1], 1000))
                        .addContainers(linuxContainerStats("b", "sidecar", T0 + cpu[0] * SECOND, cpu[2], 2000)))
                .build());
    return p;
  }

  @Test
  void aRestartedContainerReplacesItsExitedPredecessor() {
    PodSandbox p = runtime.addPod("p1", "web", "shop", T0 - 60 * SECOND);
    Container exited = runtime.addContainer("old", "p1", "app", IMAGE, T0 - 50 * SECOND);
    runtime.containers.remove(exited);
    runtime.containers.add(exited.toBuilder().setState(ContainerState.CONTAINER_EXITED).build());
    Container restarted = runtime.addContainer("new", "p1", "app", IMAGE, T0 - 5 * SECOND);
    runtime.containers.remove(restarted);
    runtime.containers.add(
        restarted.toBuilder().setMetadata(restarted.getMetadata().toBuilder().setAttempt(1)).build());
    runtime.addContainer("s", "p1", "sidecar", IMAGE, T0 - 50 * SECOND);
    runtime.podStats.put(
        "p1",
        () ->
            PodSandboxStats.newBuilder()
                .setAttributes(podAttributes(p))
                .setLinux(
                    LinuxPodSandboxStats.newBuilder()
                        // containerd lists the exited container without stats
                        .addContainers(
                            ContainerStats.newBuilder()
                                .setAttributes(
                                    ContainerAttributes.newBuilder()
                                        .setId("old")
                                        .setMetadata(ContainerMetadata.newBuilder().setName("app"))))
                        .addContainers(linuxContainerStats("new", "app", T0, SECOND, 1000))
                        .addContainers(linuxContainerStats("s", "sidecar", T0, SECOND, 1000)))
                .build());

    PodSample pod = reader.sample().pods().get(0);

    assertThat(pod.containers()).extracting(ContainerSample::id).containsExactly("new", "s");
    assertThat(pod.containers().get(0).attempt()).isEqualTo(1);
    assertThat(pod.containers().get(0).cpu().usageNanoCores()).isNull();
  }

  @Test
  void mapsPodSandboxStatsJoinedWithIdentityAndComputesItsOwnRates() {
    long[] cpu = {0, 10 * SECOND, 4 * SECOND};
    podWithTwoContainers(cpu);

    RuntimeSample first = reader.sample();
    assertThat(first.timestamp()).isEqualTo(NOW);
    assertThat(first.runtimeName()).isEqualTo("fakerd 9.9.9");
    assertThat(first.skipped()).isEmpty();
    assertThat(first.pods()).hasSize(1);
    PodSample pod = first.pods().get(0);
    assertThat(pod.ref()).isEqualTo(new PodRef("web", "shop", "uid-p1"));
    assertThat(pod.sandboxId()).isEqualTo("p1");
    assertThat(pod.createdAt()).isEqualTo(NOW.minusSeconds(60));
    assertThat(pod.labels()).containsEntry("io.kubernetes.pod.name", "web");
    assertThat(pod.cpu().usageNanoCores()).as("first reading: no rate, never the runtime's").isNull();
    assertThat(pod.memory().workingSetBytes()).isEqualTo(3000);
    assertThat(pod.memory().availableBytes()).as("unset wrapper").isNull();
    assertThat(pod.memory().rssBytes()).isNull();
    assertThat(pod.memory().commitBytes()).isNull();
    assertThat(pod.network().timestamp()).as("containerd 1.6 leaves it 0").isEqualTo(NOW);
    assertThat(pod.network().interfaces())
        .containsExactly(InterfaceUsage.builder("eth0").rxBytes(100L).rxErrors(0L).txBytes(200L).build());
    assertThat(pod.processCount()).isEqualTo(3);
    assertThat(pod.containers()).extracting(ContainerSample::name).containsExactly("app", "sidecar");
    ContainerSample app = pod.containers().get(0);
    assertThat(app.id()).isEqualTo("a");
    assertThat(app.image()).isEqualTo(IMAGE);
    assertThat(app.createdAt()).isEqualTo(NOW.minusSeconds(50));
    assertThat(app.labels()).containsEntry("io.kubernetes.container.name", "app");
    assertThat(app.cpu()).isEqualTo(new io.winstats.cri.CpuUsage(NOW, 10 * SECOND, null));
    assertThat(app.memory().workingSetBytes()).isEqualTo(1000);
    assertThat(app.memory().usageBytes()).isEqualTo(2000);
    assertThat(app.writableLayer()).isNull();
    assertThat(pod.containers().get(1).image()).as("image id resolved by ContainerStatus").isEqualTo(
        "registry.example/sidecar:3");

    cpu[0] = 10;
    cpu[1] += 5 * SECOND;
    cpu[2] += SECOND / 2;
    RuntimeSample second = reader.sample();
    PodSample pod2 = second.pods().get(0);
    assertThat(pod2.containers().get(0).cpu().usageNanoCores()).isEqualTo(500_000_000L);
    assertThat(pod2.containers().get(1).cpu().usageNanoCores()).isEqualTo(50_000_000L);
    assertThat(pod2.cpu().usageNanoCores()).isEqualTo(550_000_000L);
    assertThat(runtime.calls("Version")).as("runtime name cached").isEqualTo(1);
    assertThat(runtime.calls("ListPodSandbox")).as("identity cached until an unknown id appears").isEqualTo(1);
    assertThat(runtime.calls("ContainerStatus")).as("asked once per container").isEqualTo(2);
  }

  /**
   * An init container that completes keeps its id and, on containerd 1.6, its last CPU and memory in
   * ListPodSandboxStats; only ListContainers says it exited. The reader lists containers every round, as the kubelet
   * does, so the state is never one round stale; pods are listed again only when an unknown one appears.
   */
  @Test
  void aContainerThatExitsUnderTheSameIdIsSampledAsExitedTheNextRound() {
    PodSandbox p = runtime.addPod("p1", "web", "shop", T0);
    Container init = runtime.addContainer("i", "p1", "init", "busybox", T0);
    runtime.addContainer("a", "p1", "app", "busybox", T0);
    runtime.podStats.put(
        "p1",
        () ->
            PodSandboxStats.newBuilder()
                .setAttributes(podAttributes(p))
                .setLinux(
                    LinuxPodSandboxStats.newBuilder()
                        .addContainers(linuxContainerStats("i", "init", T0, SECOND / 20, 69_632))
                        .addContainers(linuxContainerStats("a", "app", T0, SECOND, 1000)))
                .build());

    assertThat(reader.sample().pods().get(0).containers())
        .extracting(ContainerSample::name, ContainerSample::state)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("app", ContainerSample.State.RUNNING),
            org.assertj.core.groups.Tuple.tuple("init", ContainerSample.State.RUNNING));

    runtime.containers.replaceAll(
        c -> c.getId().equals("i") ? init.toBuilder().setState(ContainerState.CONTAINER_EXITED).build() : c);
    PodSample pod = reader.sample().pods().get(0);

    assertThat(pod.containers())
        .extracting(ContainerSample::name, ContainerSample::state)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("app", ContainerSample.State.RUNNING),
            org.assertj.core.groups.Tuple.tuple("init", ContainerSample.State.EXITED));
    assertThat(pod.containers().get(1).memory()).as("containerd 1.6 keeps the readings").isNotNull();
    assertThat(runtime.calls("ListContainers")).as("every round").isEqualTo(2);
    assertThat(runtime.calls("ListPodSandbox")).as("no unknown pod").isEqualTo(1);
  }

  @Test
  void anUnknownIdRefreshesIdentityAndDeletedPodsLeaveTheCache() {
    for (String id : new String[] {"p1", "p2", "p3"}) {
      PodSandbox p = runtime.addPod(id, "pod-" + id, "ns", T0);
      runtime.podStats.put(id, () -> PodSandboxStats.newBuilder().setAttributes(podAttributes(p)).build());
    }
    assertThat(reader.sample().pods()).hasSize(3);
    runtime.removePod("p1");
    runtime.removePod("p2");
    assertThat(reader.sample().pods()).extracting(p -> p.ref().name()).containsExactly("pod-p3");
    PodSandbox p4 = runtime.addPod("p4", "pod-p4", "ns", T0);
    runtime.podStats.put("p4", () -> PodSandboxStats.newBuilder().setAttributes(podAttributes(p4)).build());

    assertThat(reader.sample().pods()).extracting(p -> p.ref().name()).containsExactly("pod-p3", "pod-p4");
    assertThat(runtime.calls("ListPodSandbox")).isEqualTo(2);
    assertThat(reader.metadataForTest().podCount()).as("p1 and p2 dropped").isEqualTo(2);
  }

  @Test
  void unreadEntriesExpireSoMemoryStaysFlat() {
    PodSandbox p = runtime.addPod("p1", "web", "ns", T0);
    runtime.podStats.put("p1", () -> PodSandboxStats.newBuilder().setAttributes(podAttributes(p)).build());
    reader.sample();
    assertThat(reader.metadataForTest().podCount()).isEqualTo(1);
    ticker.addAndGet(RuntimeStatsReader.CACHE_EXPIRY.plusSeconds(1).toNanos());
    assertThat(reader.metadataForTest().podCount()).isZero();
  }

  @Test
  void cacheEntriesCountWhatIsCachedUntilItExpires() {
    podWithTwoContainers(new long[] {0, 10 * SECOND, 20 * SECOND});
    reader.sample();
    // one pod, its two containers; a CPU reading for the pod and for each container; no carried totals (Linux pods
    // of ListPodSandboxStats have a pod cgroup)
    assertThat(reader.cacheEntries())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("pod_identities", 1L, "container_identities", 2L, "cpu_readings", 3L, "pod_cpu_totals", 0L));
    ticker.addAndGet(RuntimeStatsReader.CACHE_EXPIRY.plusSeconds(1).toNanos());
    assertThat(reader.cacheEntries()).containsOnly(
        Map.entry("pod_identities", 0L),
        Map.entry("container_identities", 0L),
        Map.entry("cpu_readings", 0L),
        Map.entry("pod_cpu_totals", 0L));
  }

  @Test
  void aWrapperAboveLongMaxSkipsThatContainerOnly() {
    PodSandbox p = runtime.addPod("p1", "web", "ns", T0);
    runtime.addContainer("good", "p1", "good", IMAGE, T0);
    runtime.addContainer("bad", "p1", "bad", IMAGE, T0);
    runtime.podStats.put(
        "p1",
        () ->
            PodSandboxStats.newBuilder()
                .setAttributes(podAttributes(p))
                .setLinux(
                    LinuxPodSandboxStats.newBuilder()
                        .addContainers(linuxContainerStats("good", "good", T0, SECOND, 10))
                        .addContainers(linuxContainerStats("bad", "bad", T0, -1L, 10)))
                .build());
    RuntimeSample sample = reader.sample();
    assertThat(sample.pods().get(0).containers()).extracting(ContainerSample::name).containsExactly("good");
    assertThat(sample.skipped()).singleElement().asString().startsWith("bad: malformed stats: uint64");
  }

  @Test
  void notFoundFromListPodSandboxStatsReadsPodsOneByOneSkippingTheGoneOne() {
    PodSandbox p1 = runtime.addPod("p1", "stays", "ns", T0);
    runtime.addPod("p2", "going", "ns", T0);
    runtime.podStats.put("p1", () -> PodSandboxStats.newBuilder().setAttributes(podAttributes(p1)).build());
    runtime.listPodSandboxStats = FakeRuntime.failing(Status.NOT_FOUND.withDescription("sandbox p2 not found"));

    RuntimeSample sample = reader.sample();
    assertThat(sample.pods()).extracting(p -> p.ref().name()).containsExactly("stays");
    assertThat(sample.skipped()).containsExactly("p2: NOT_FOUND: no sandbox p2");
    assertThat(reader.usesContainerStats()).isFalse();
  }

  // ---- The ListContainerStats fallback ---------------------------------------------------------------------------

  @Test
  void unimplementedListPodSandboxStatsSwitchesForGoodToSummedContainerStats() {
    runtime.listPodSandboxStats = FakeRuntime.failing(Status.UNIMPLEMENTED.withDescription("not implemented"));
    runtime.addPod("p1", "web", "shop", T0);
    runtime.addPod("p2", "db", "shop", T0);
    long[] t = {0};
    runtime.addContainer("a", "p1", "app", IMAGE, T0);
    runtime.addContainer("b", "p1", "sidecar", IMAGE, T0);
    runtime.addContainer("c", "p2", "postgres", IMAGE, T0);
    runtime.containerStats.put("a", () -> linuxContainerStats("a", "app", T0 + t[0], 2 * SECOND + t[0], 1000));
    runtime.containerStats.put("b", () -> linuxContainerStats("b", "sidecar", T0 + t[0], SECOND, 24));
    runtime.containerStats.put("c", () -> linuxContainerStats("c", "postgres", T0 + t[0], 7, 7));

    RuntimeSample first = reader.sample();
    assertThat(reader.usesContainerStats()).isTrue();
    PodSample web = first.pods().stream().filter(p -> p.ref().name().equals("web")).findFirst().orElseThrow();
    assertThat(web.containers()).extracting(ContainerSample::name).containsExactly("app", "sidecar");
    assertThat(web.cpu()).isEqualTo(new io.winstats.cri.CpuUsage(NOW, 3 * SECOND, null));
    assertThat(web.memory().workingSetBytes()).isEqualTo(1024);
    assertThat(web.memory().usageBytes()).isEqualTo(2048);
    assertThat(web.memory().pageFaults()).isEqualTo(20);
    assertThat(web.memory().availableBytes()).as("no container reported it").isNull();
    assertThat(web.network()).isNull();
    assertThat(web.processCount()).isNull();
    assertThat(first.pods()).extracting(p -> p.ref().name()).containsExactly("db", "web");

    t[0] = 2 * SECOND;
    RuntimeSample second = reader.sample();
    PodSample web2 = second.pods().stream().filter(p -> p.ref().name().equals("web")).findFirst().orElseThrow();
    assertThat(web2.cpu().usageNanoCores()).as("sum of the containers' own rates").isEqualTo(SECOND);
    assertThat(web2.cpu().timestamp()).isEqualTo(NOW.plusSeconds(2));
    assertThat(runtime.calls("ListPodSandboxStats")).as("switched for good").isEqualTo(1);
  }

  /**
   * A runtime that returns the bare Go error reaches gRPC as UNKNOWN with the text (containerd maps its
   * ErrNotImplemented to UNIMPLEMENTED through errdefs.ToGRPC; "pod sandbox stats not implemented on windows" is its
   * 1.6 text). Before, UNKNOWN read as "a pod vanished": the reader asked PodSandboxStats pod by pod and skipped every
   * pod.
   */
  @Test
  void unknownSayingNotImplementedAlsoSwitchesToContainerStats() {
    String text = "failed to obtain metrics for sandbox \"p1\": pod sandbox stats not implemented on windows";
    runtime.listPodSandboxStats = FakeRuntime.failing(Status.UNKNOWN.withDescription(text));
    runtime.addPod("p1", "web", "shop", T0);
    runtime.addContainer("a", "p1", "app", IMAGE, T0);
    runtime.containerStats.put("a", () -> linuxContainerStats("a", "app", T0, 2 * SECOND, 1000));

    RuntimeSample sample = reader.sample();

    assertThat(reader.usesContainerStats()).isTrue();
    assertThat(sample.skipped()).isEmpty();
    assertThat(sample.pods()).singleElement().satisfies(p -> assertThat(p.cpu().usageCoreNanos()).isEqualTo(2 * SECOND));
    assertThat(runtime.calls("PodSandboxStats")).as("not read as a vanished pod").isZero();
  }

  /**
   * containerd 1.6.20 under load here: ListPodSandboxStats ran out of the call's deadline inside a shim's metrics call
   * and answered Unknown with Go's context text (sandbox_stats_list.go wraps the pod's error). Asking pod by pod
   * would repeat the slow work 110 times (and two clients doing that crashed containerd 1.6.20 with "concurrent map
   * writes" in its sandbox store): the round fails as a timeout instead, and the next round asks for the list again.
   */
  @Test
  void unknownSayingTheDeadlinePassedFailsTheRoundAsATimeoutWithoutAskingPodByPod() {
    runtime.addPod("p1", "web", "shop", T0);
    runtime.listPodSandboxStats =
        FakeRuntime.failing(
            Status.UNKNOWN.withDescription(
                "failed to decode sandbox container metrics for sandbox \"p1\": context deadline exceeded: unknown"));

    assertThatThrownBy(reader::sample)
        .isInstanceOfSatisfying(
            CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.DEADLINE_EXCEEDED));
    assertThat(runtime.calls("PodSandboxStats")).isZero();
    assertThat(reader.usesContainerStats()).isFalse();
  }

  @Test
  void unknownSayingNotFoundStillReadsPodsOneByOne() {
    PodSandbox p = runtime.addPod("p1", "web", "shop", T0);
    runtime.listPodSandboxStats =
        FakeRuntime.failing(Status.UNKNOWN.withDescription("sandbox container \"x\" not found"));
    runtime.podStats.put("p1", () -> PodSandboxStats.newBuilder().setAttributes(podAttributes(p)).build());
    assertThat(reader.sample().pods()).hasSize(1);
    assertThat(reader.usesContainerStats()).isFalse();
  }

  @Test
  void notFoundForOneContainerInTheFallbackSkipsItAndKeepsTheOthers() {
    runtime.listPodSandboxStats = FakeRuntime.failing(Status.UNIMPLEMENTED);
    runtime.addPod("p1", "web", "shop", T0);
    runtime.addContainer("a", "p1", "app", IMAGE, T0);
    runtime.addContainer("b", "p1", "sidecar", IMAGE, T0);
    runtime.addContainer("gone", "p1", "init", IMAGE, T0);
    runtime.containerStats.put("a", () -> linuxContainerStats("a", "app", T0, SECOND, 1));
    runtime.containerStats.put("b", () -> linuxContainerStats("b", "sidecar", T0, SECOND, 1));
    // The container vanished mid-call: containerd fails the whole list, and ContainerStats for it.
    runtime.listContainerStats =
        () -> {
          throw Status.NOT_FOUND.withDescription("container \"gone\": not found").asRuntimeException();
        };

    RuntimeSample sample = reader.sample();
    assertThat(sample.pods()).singleElement().satisfies(
        p -> assertThat(p.containers()).extracting(ContainerSample::name).containsExactly("app", "sidecar"));
    assertThat(sample.skipped()).singleElement().asString().startsWith("gone: NOT_FOUND");

    runtime.listContainerStats = () -> ListContainerStatsResponse.newBuilder()
        .addStats(linuxContainerStats("a", "app", T0, SECOND, 1))
        .addStats(linuxContainerStats("b", "sidecar", T0, SECOND, 1))
        .build();
    RuntimeSample listed = reader.sample();
    assertThat(listed.pods().get(0).containers()).hasSize(2);
    assertThat(listed.skipped()).as("missing from the list, then NOT_FOUND on its own").singleElement()
        .asString().startsWith("gone: NOT_FOUND");
  }

  // ---- Faults ----------------------------------------------------------------------------------------------------

  @Test
  void aHangPastTheDeadlineIsDeadlineExceeded() throws Exception {
    String name = InProcessServerBuilder.generateName();
    Server slow = InProcessServerBuilder.forName(name).directExecutor().addService(runtime).build().start();
    try (RuntimeStatsReader fast = reader(name, Duration.ofMillis(200))) {
      runtime.listPodSandboxStats = () -> null;
      long started = System.nanoTime();
      assertThatThrownBy(fast::sample)
          .isInstanceOfSatisfying(
              CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.DEADLINE_EXCEEDED))
          .hasMessageContaining("rpc=ListPodSandboxStats");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
    } finally {
      slow.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aRuntimeErrorFailsTheRoundAsRuntimeErrorAndTheNextRoundRecovers() {
    runtime.listPodSandboxStats = FakeRuntime.failing(Status.PERMISSION_DENIED.withDescription("nope"));
    assertThatThrownBy(reader::sample)
        .isInstanceOfSatisfying(
            CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.RUNTIME_ERROR))
        .hasMessageContaining("nope");
    runtime.listPodSandboxStats = null;
    assertThat(reader.sample().pods()).isEmpty();
  }

  @Test
  void aClosedReaderThrowsCriException() {
    reader.close();
    reader.close();
    assertThatThrownBy(reader::sample).isInstanceOf(CriException.class).hasMessageContaining("closed");
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource({
    "UNAVAILABLE,        io exception,                                         UNAVAILABLE",
    "DEADLINE_EXCEEDED,  deadline exceeded after 4.9s,                         DEADLINE_EXCEEDED",
    "RESOURCE_EXHAUSTED, gRPC message exceeds maximum size 16777216: 17825792, MESSAGE_TOO_LARGE",
    "RESOURCE_EXHAUSTED, quota,                                                RUNTIME_ERROR",
    "INTERNAL,           Invalid protobuf byte sequence,                       MALFORMED",
    "INTERNAL,           panic,                                                RUNTIME_ERROR",
    "UNKNOWN,            failed to get cgroup metrics,                         RUNTIME_ERROR",
    "UNKNOWN,            context deadline exceeded: unknown,                   DEADLINE_EXCEEDED",
    "NOT_FOUND,          gone,                                                 RUNTIME_ERROR",
    "UNIMPLEMENTED,      unknown method,                                       RUNTIME_ERROR",
  })
  void mapsStatusCodesToReasons(Status.Code code, String description, CriException.Reason expected) {
    CriException e =
        RuntimeCalls.fault("unix:///x", "ListPodSandboxStats",
            Status.fromCode(code).withDescription(description).asRuntimeException());
    assertThat(e.reason()).isEqualTo(expected);
    assertThat(e.getMessage()).contains("rpc=ListPodSandboxStats", "code=" + code, description);
    assertThat(e.getCause()).isNotNull();
  }

  @Test
  void anInternalStatusCausedByAParseFailureIsMalformed() {
    CriException e =
        RuntimeCalls.fault(
            "unix:///x",
            "Version",
            Status.INTERNAL.withCause(new InvalidProtocolBufferException("truncated")).asRuntimeException());
    assertThat(e.reason()).isEqualTo(CriException.Reason.MALFORMED);
    CriException cancelled =
        RuntimeCalls.fault(
            "unix:///x",
            "Version",
            Status.CANCELLED
                .withDescription("Failed to read message.")
                .withCause(new InvalidProtocolBufferException("truncated"))
                .asRuntimeException());
    assertThat(cancelled.reason()).isEqualTo(CriException.Reason.MALFORMED);
  }

  // ---- Windows ---------------------------------------------------------------------------------------------------

  @Test
  void mapsWindowsPodSandboxStats() {
    PodSandbox p = runtime.addPod("w1", "iis", "web", T0);
    runtime.addContainer("wc", "w1", "site", "mcr.microsoft.com/windows/servercore/iis:ltsc2022", T0);
    long[] cpu = {0, 100 * SECOND};
    runtime.podStats.put(
        "w1",
        () ->
            PodSandboxStats.newBuilder()
                .setAttributes(podAttributes(p))
                .setWindows(
                    WindowsPodSandboxStats.newBuilder()
                        .setCpu(
                            WindowsCpuUsage.newBuilder()
                                .setTimestamp(T0 + cpu[0])
                                .setUsageCoreNanoSeconds(u64(cpu[1] + SECOND))
                                .setUsageNanoCores(u64(1)))
                        .setMemory(
                            WindowsMemoryUsage.newBuilder()
                                .setTimestamp(T0 + cpu[0])
                                .setWorkingSetBytes(u64(300 << 20))
                                .setCommitMemoryBytes(u64(500 << 20)))
                        .setNetwork(
                            WindowsNetworkUsage.newBuilder()
                                .setTimestamp(T0 + cpu[0])
                                .setDefaultInterface(windowsInterface("ep-1", 10, 1, 20, 2))
                                .addInterfaces(windowsInterface("ep-1", 10, 1, 20, 2))
                                .addInterfaces(windowsInterface("ep-2", 30, 3, 40, 4)))
                        .setProcess(WindowsProcessUsage.newBuilder().setTimestamp(T0).setProcessCount(u64(12)))
                        .addContainers(
                            WindowsContainerStats.newBuilder()
                                .setAttributes(
                                    ContainerAttributes.newBuilder()
                                        .setId("wc")
                                        .setMetadata(ContainerMetadata.newBuilder().setName("site")))
                                .setCpu(
                                    WindowsCpuUsage.newBuilder()
                                        .setTimestamp(T0 + cpu[0])
                                        .setUsageCoreNanoSeconds(u64(cpu[1])))
                                .setMemory(
                                    WindowsMemoryUsage.newBuilder()
                                        .setTimestamp(T0 + cpu[0])
                                        .setWorkingSetBytes(u64(200 << 20))
                                        .setAvailableBytes(u64(824 << 20))
                                        .setPageFaults(u64(77))
                                        .setCommitMemoryBytes(u64(400 << 20)))
                                .setWritableLayer(
                                    WindowsFilesystemUsage.newBuilder()
                                        .setTimestamp(T0)
                                        .setFsId(FilesystemIdentifier.newBuilder().setMountpoint("C:\\ProgramData"))
                                        .setUsedBytes(u64(4096)))))
                .build());

    PodSample pod = reader.sample().pods().get(0);
    assertThat(pod.ref()).isEqualTo(new PodRef("iis", "web", "uid-w1"));
    assertThat(pod.cpu().usageCoreNanos()).isEqualTo(101 * SECOND);
    assertThat(pod.memory())
        .as("usage and working set: the containers' summed, not containerd's 300 MiB with the sandbox")
        .isEqualTo(io.winstats.cri.MemoryUsage.builder(NOW).workingSetBytes(200L << 20).usageBytes(400L << 20).commitBytes(500L << 20).build());
    assertThat(pod.network().interfaces())
        .as("default first, not repeated")
        .containsExactly(
            InterfaceUsage.builder("ep-1").rxBytes(10L).txBytes(20L).rxPacketsDropped(1L).txPacketsDropped(2L).build(),
            InterfaceUsage.builder("ep-2").rxBytes(30L).txBytes(40L).rxPacketsDropped(3L).txPacketsDropped(4L).build());
    assertThat(pod.processCount()).isEqualTo(12);
    ContainerSample site = pod.containers().get(0);
    assertThat(site.image()).isEqualTo("mcr.microsoft.com/windows/servercore/iis:ltsc2022");
    assertThat(site.memory())
        .as("usage: the commit")
        .isEqualTo(io.winstats.cri.MemoryUsage.builder(NOW)
            .workingSetBytes(200L << 20)
            .availableBytes(824L << 20)
            .usageBytes(400L << 20)
            .pageFaults(77L)
            .commitBytes(400L << 20)
            .build());
    assertThat(site.writableLayer()).isEqualTo(RuntimeFilesystemUsage.builder(NOW, "C:\\ProgramData")
        .usedBytes(4096L)
        .build());
    assertThat(site.cpu().usageNanoCores()).isNull();

    cpu[0] = 10 * SECOND;
    cpu[1] += 25 * SECOND;
    PodSample later = reader.sample().pods().get(0);
    assertThat(later.containers().get(0).cpu().usageNanoCores()).isEqualTo(2_500_000_000L);
    assertThat(later.cpu().usageNanoCores()).isEqualTo(2_500_000_000L);
  }

  private static WindowsNetworkInterfaceUsage windowsInterface(
      String name, long rx, long rxDropped, long tx, long txDropped) {
    return WindowsNetworkInterfaceUsage.newBuilder()
        .setName(name)
        .setRxBytes(u64(rx))
        .setRxPacketsDropped(u64(rxDropped))
        .setTxBytes(u64(tx))
        .setTxPacketsDropped(u64(txDropped))
        .build();
  }

  @Test
  void aPodWithNeitherPlatformReportsIdentityWithoutStats() {
    PodSandbox p = runtime.addPod("p1", "bare", "ns", T0);
    runtime.listPodSandboxStats =
        () -> ListPodSandboxStatsResponse.newBuilder()
            .addStats(PodSandboxStats.newBuilder().setAttributes(podAttributes(p)))
            .build();
    PodSample pod = reader.sample().pods().get(0);
    assertThat(pod.cpu()).isNull();
    assertThat(pod.memory()).isNull();
    assertThat(pod.network()).isNull();
    assertThat(pod.processCount()).isNull();
    assertThat(pod.containers()).isEmpty();
  }

  // ---- Filesystems, logs and resources ---------------------------------------------------------------------------

  private static final String SNAPSHOTS = "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs";
  private static final FilesystemCapacity DISK = new FilesystemCapacity(100_000_000_000L, 40_000_000_000L, null, null);

  private static FilesystemUsage fsUsage(String mountpoint, long timestamp, long used, long inodes) {
    return FilesystemUsage.newBuilder()
        .setTimestamp(timestamp)
        .setFsId(FilesystemIdentifier.newBuilder().setMountpoint(mountpoint))
        .setUsedBytes(u64(used))
        .setInodesUsed(u64(inodes))
        .build();
  }

  /** Pod p1 with container a, whose writable layer is on {@link #SNAPSHOTS}. */
  private void podWithALayer() {
    PodSandbox p = runtime.addPod("p1", "web", "shop", T0 - 60 * SECOND);
    runtime.addContainer("a", "p1", "app", IMAGE, T0 - 50 * SECOND);
    runtime.podStats.put(
        "p1",
        () ->
            PodSandboxStats.newBuilder()
                .setAttributes(podAttributes(p))
                .setLinux(
                    LinuxPodSandboxStats.newBuilder()
                        .addContainers(
                            linuxContainerStats("a", "app", T0, SECOND, 1000).toBuilder()
                                .setWritableLayer(fsUsage(SNAPSHOTS, T0, 20_480, 8))))
                .build());
  }

  @Test
  void imageFsInfoCarriesTheRuntimesUseAndTheCapacityOfTheFilesystemHoldingIt() {
    podWithALayer();
    hostFiles.capacities.put(SNAPSHOTS, DISK);
    images.imageFsInfo =
        () -> ImageFsInfoResponse.newBuilder().addImageFilesystems(fsUsage(SNAPSHOTS, T0, 5_000_000, 321)).build();

    RuntimeSample sample = reader.sample();

    assertThat(sample.filesystems()).isNotNull();
    assertThat(sample.filesystems().image()).containsExactly(RuntimeFilesystemUsage.builder(NOW, SNAPSHOTS)
        .usedBytes(5_000_000L)
        .inodesUsed(321L)
        .capacity(DISK)
        .build());
    assertThat(sample.filesystems().container()).as("containerd 1.6 fills no container_filesystems").isEmpty();
    ContainerSample app = sample.pods().get(0).containers().get(0);
    assertThat(app.writableLayer()).isEqualTo(RuntimeFilesystemUsage.builder(NOW, SNAPSHOTS)
        .usedBytes(20_480L)
        .inodesUsed(8L)
        .capacity(DISK)
        .build());
    assertThat(hostFiles.capacityLookups).as("one look per mountpoint per round").hasValue(1);
  }

  @Test
  void aMountpointThatIsNotVisibleHereHasNoCapacity() {
    podWithALayer();
    images.imageFsInfo =
        () -> ImageFsInfoResponse.newBuilder().addImageFilesystems(fsUsage(SNAPSHOTS, T0, 5_000_000, 321)).build();

    RuntimeSample sample = reader.sample();

    assertThat(sample.filesystems().image().get(0).capacity()).isNull();
    assertThat(sample.filesystems().image().get(0).usedBytes()).isEqualTo(5_000_000L);
    assertThat(sample.pods().get(0).containers().get(0).writableLayer().capacity()).isNull();
  }

  @Test
  void unimplementedImageFsInfoLeavesFilesystemsOutAndIsNotAskedAgain() {
    podWithALayer();
    images.imageFsInfo = () -> {
      throw Status.UNIMPLEMENTED.asRuntimeException();
    };

    RuntimeSample first = reader.sample();
    RuntimeSample second = reader.sample();

    assertThat(first.filesystems()).isNull();
    assertThat(second.filesystems()).isNull();
    assertThat(second.pods()).hasSize(1);
    assertThat(second.skipped()).isEmpty();
    assertThat(images.imageFsInfoCalls).hasValue(1);
  }

  @Test
  void aFailingImageFsInfoNeverFailsThePodsAndIsAskedAgain() {
    podWithALayer();
    images.imageFsInfo = () -> {
      throw Status.UNKNOWN.withDescription("snapshotter busy").asRuntimeException();
    };
    RuntimeSample first = reader.sample();
    images.imageFsInfo =
        () -> ImageFsInfoResponse.newBuilder().addImageFilesystems(fsUsage(SNAPSHOTS, T0, 7, 1)).build();
    RuntimeSample second = reader.sample();

    assertThat(first.filesystems()).isNull();
    assertThat(first.pods()).hasSize(1);
    assertThat(second.filesystems().image()).extracting(RuntimeFilesystemUsage::usedBytes).containsExactly(7L);
  }

  @Test
  void containerStatusGivesTheLogDirectoryAndTheAppliedResources() {
    podWithALayer();
    Path logFile = Path.of("").toAbsolutePath().getRoot().resolve("var/log/pods/shop_web_uid-p1/app/0.log");
    runtime.statuses.put(
        "a",
        ContainerStatus.newBuilder()
            .setId("a")
            .setLogPath(logFile.toString())
            .setResources(
                ContainerResources.newBuilder()
                    .setLinux(
                        LinuxContainerResources.newBuilder()
                            .setCpuPeriod(100_000)
                            .setCpuQuota(50_000)
                            .setCpuShares(512)
                            .setMemoryLimitInBytes(64 << 20)))
            .build());
    hostFiles.directories.put(logFile.getParent().toString(), new HostFiles.Usage(1_234, 2));

    ContainerSample app = reader.sample().pods().get(0).containers().get(0);
    ContainerSample again = reader.sample().pods().get(0).containers().get(0);

    assertThat(app.logs()).isEqualTo(new ContainerLogUsage(NOW, 1_234, 2));
    assertThat(app.resources()).isEqualTo(new ResourceSpec(100_000L, 50_000L, 512L, 64L << 20));
    assertThat(again.resources()).isEqualTo(app.resources());
    assertThat(runtime.calls("ContainerStatus")).as("asked once, cached with the identity").isEqualTo(1);
  }

  @Test
  void withoutALogPathOrResourcesBothAreAbsent() {
    podWithALayer();
    runtime.statuses.put(
        "a",
        ContainerStatus.newBuilder()
            .setId("a")
            .setLogPath("app/0.log")
            .setResources(ContainerResources.newBuilder().setLinux(LinuxContainerResources.newBuilder().setCpuQuota(-1)))
            .build());
    hostFiles.directories.put("app", new HostFiles.Usage(1, 1));

    ContainerSample app = reader.sample().pods().get(0).containers().get(0);

    assertThat(app.logs()).as("a relative log path cannot be located").isNull();
    assertThat(app.resources()).as("0 and -1 mean not set").isNull();
  }

  @Test
  void aContainerGoneBeforeItsStatusKeepsItsStatsWithoutLogsOrResources() {
    podWithALayer();

    ContainerSample app = reader.sample().pods().get(0).containers().get(0);

    assertThat(app.cpu()).isNotNull();
    assertThat(app.logs()).isNull();
    assertThat(app.resources()).isNull();
  }
}
