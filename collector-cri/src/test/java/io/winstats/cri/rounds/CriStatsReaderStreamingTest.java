package io.winstats.cri.rounds;

import static io.winstats.cri.rounds.FakeRuntime.linuxContainerStats;
import static io.winstats.cri.rounds.FakeRuntime.podAttributes;
import static io.winstats.cri.rounds.FakeRuntime.u64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.winstats.cri.CriException;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.api.CpuUsage;
import io.winstats.cri.api.LinuxPodSandboxStats;
import io.winstats.cri.api.MemoryUsage;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.VersionResponse;
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
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link RuntimeStatsReader} against a runtime that streams its lists (KEP-5825) as containerd 2.4.0-beta.0 does
 * ({@link FakeRuntime#streamBatch}): several messages per list, a failure, a cancel or a hang mid-stream, and a runtime
 * without the streams (every containerd before 2.4) that the reader falls back from once per connection.
 */
class CriStatsReaderStreamingTest {
  private static final Instant NOW = Instant.parse("2026-11-27T02:00:00Z");
  private static final long T0 = NOW.toEpochMilli() * 1_000_000;
  private static final long SECOND = 1_000_000_000L;
  private static final int PODS = 5;

  private final FakeRuntime runtime = new FakeRuntime();
  private final FakeImages images = new FakeImages();
  private final AtomicLong ticker = new AtomicLong();
  /** Per pod: the seconds after T0 its readings are stamped with, and its cumulative CPU. */
  private final long[] seconds = new long[PODS];
  private final long[] cpu = new long[PODS];
  private String name;
  private Server server;
  private RuntimeStatsReader reader;

  @BeforeEach
  void start() throws Exception {
    name = InProcessServerBuilder.generateName();
    server = serve(runtime);
    reader = reader(Duration.ofSeconds(5));
    for (int i = 0; i < PODS; i++) {
      addPod(i);
    }
  }

  private Server serve(FakeRuntime served) throws Exception {
    return InProcessServerBuilder.forName(name).directExecutor().addService(served).addService(images).build().start();
  }

  private RuntimeStatsReader reader(Duration timeout) {
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    return RuntimeStatsReader.forChannel(
        "inprocess:" + name, channel, timeout, Clock.fixed(NOW, ZoneOffset.UTC), ticker::get, new FakeHostFiles());
  }

  @AfterEach
  void stop() throws Exception {
    reader.close();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  /** Pod i with one container; its CPU and the time its readings carry come from {@link #cpu} and {@link #seconds}. */
  private void addPod(int i) {
    addPod(runtime, i);
  }

  private void addPod(FakeRuntime into, int i) {
    String id = "p" + i;
    PodSandbox p = into.addPod(id, "pod-" + i, "ns", T0 - 60 * SECOND);
    into.addContainer("c" + i, id, "app", "registry.example/app:1", T0 - 50 * SECOND);
    into.podStats.put(
        id,
        () ->
            PodSandboxStats.newBuilder()
                .setAttributes(podAttributes(p))
                .setLinux(
                    LinuxPodSandboxStats.newBuilder()
                        .setCpu(
                            CpuUsage.newBuilder()
                                .setTimestamp(T0 + seconds[i] * SECOND)
                                .setUsageCoreNanoSeconds(u64(cpu[i])))
                        .setMemory(
                            MemoryUsage.newBuilder()
                                .setTimestamp(T0 + seconds[i] * SECOND)
                                .setWorkingSetBytes(u64(1000 + i)))
                        .addContainers(
                            linuxContainerStats("c" + i, "app", T0 + seconds[i] * SECOND, cpu[i], 1000 + i)))
                .build());
    into.containerStats.put("c" + i, () -> linuxContainerStats("c" + i, "app", T0 + seconds[i] * SECOND, cpu[i], 1000));
  }

  /** Every pod's readings move on by {@code s} seconds and {@code s * (i + 1) / 10} CPU seconds. */
  private void advance(long s) {
    for (int i = 0; i < PODS; i++) {
      seconds[i] += s;
      cpu[i] += s * (i + 1) * SECOND / 10;
    }
  }

  @Test
  void readsEveryListThroughItsStreamInSeveralMessages() {
    runtime.streamBatch = 2; // 5 pods: messages of 2, 2 and 1

    RuntimeSample first = reader.sample();
    advance(10);
    RuntimeSample second = reader.sample();

    assertThat(first.pods()).extracting(p -> p.ref().name()).containsExactly("pod-0", "pod-1", "pod-2", "pod-3", "pod-4");
    assertThat(second.pods()).allSatisfy(p -> assertThat(p.containers()).hasSize(1));
    for (int i = 0; i < PODS; i++) {
      PodSample pod = second.pods().get(i);
      assertThat(pod.cpu().usageNanoCores()).as("pod-%d's own rate over both rounds", i).isEqualTo((i + 1) * SECOND / 10);
      assertThat(pod.containers().get(0).memory().workingSetBytes()).isEqualTo(1000 + i);
    }
    assertThat(runtime.calls("StreamPodSandboxStats")).isEqualTo(2);
    assertThat(runtime.calls("StreamPodSandboxes")).as("the identities, listed once").isEqualTo(1);
    assertThat(runtime.calls("StreamContainers")).as("containers are listed every round").isEqualTo(2);
    assertThat(runtime.calls("ListPodSandboxStats") + runtime.calls("ListPodSandbox") + runtime.calls("ListContainers"))
        .as("no unary list call")
        .isZero();
    assertThat(reader.streamFallbacks()).containsOnly(
        Map.entry("StreamPodSandboxStats", 0L),
        Map.entry("StreamContainerStats", 0L),
        Map.entry("StreamPodSandboxes", 0L),
        Map.entry("StreamContainers", 0L));
  }

  @Test
  void aStreamedRoundEqualsTheUnaryRoundOfTheSameRuntime() throws Exception {
    runtime.streamBatch = 3;
    RuntimeSample streamed = reader.sample();

    FakeRuntime unaryOnly = new FakeRuntime();
    for (int i = 0; i < PODS; i++) {
      addPod(unaryOnly, i);
    }
    String unaryName = InProcessServerBuilder.generateName();
    Server unaryServer =
        InProcessServerBuilder.forName(unaryName).directExecutor().addService(unaryOnly).addService(images).build()
            .start();
    try (RuntimeStatsReader unaryReader =
        RuntimeStatsReader.forChannel(
            "inprocess:" + unaryName,
            InProcessChannelBuilder.forName(unaryName).directExecutor().build(),
            Duration.ofSeconds(5),
            Clock.fixed(NOW, ZoneOffset.UTC),
            ticker::get,
            new FakeHostFiles())) {
      RuntimeSample unary = unaryReader.sample();
      assertThat(unaryOnly.calls("ListPodSandboxStats")).isEqualTo(1);
      assertThat(streamed).isEqualTo(unary);
    } finally {
      unaryServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void theContainerStatsPathStreamsItsListsToo() {
    runtime.streamBatch = 2;
    reader.useContainerStats();

    RuntimeSample sample = reader.sample();

    assertThat(sample.pods()).hasSize(PODS).allSatisfy(p -> assertThat(p.containers()).hasSize(1));
    assertThat(runtime.calls("StreamContainerStats")).isEqualTo(1);
    assertThat(runtime.calls("StreamPodSandboxes")).isEqualTo(1);
    assertThat(runtime.calls("StreamContainers")).isEqualTo(1);
    assertThat(runtime.calls("ListContainerStats")).isZero();
  }

  @Test
  void aRuntimeWithoutStreamsIsAskedOnceAndReadThroughTheUnaryCalls() {
    // runtime.streamBatch stays 0: UNIMPLEMENTED, as containerd before 2.4 answers.
    for (int round = 0; round < 3; round++) {
      assertThat(reader.sample().pods()).hasSize(PODS);
      advance(10);
    }

    assertThat(runtime.calls("StreamPodSandboxStats")).as("asked once").isEqualTo(1);
    assertThat(runtime.calls("ListPodSandboxStats")).as("the same round falls back").isEqualTo(3);
    assertThat(runtime.calls("StreamContainers")).isEqualTo(1);
    assertThat(runtime.calls("ListContainers")).isEqualTo(3);
    assertThat(reader.streamMissing(ListCalls.Rpc.POD_SANDBOX_STATS)).isTrue();
    assertThat(reader.streamFallbacks()).containsOnly(
        Map.entry("StreamPodSandboxStats", 1L),
        Map.entry("StreamContainerStats", 0L),
        Map.entry("StreamPodSandboxes", 1L),
        Map.entry("StreamContainers", 1L));
  }

  @Test
  void aRestartedRuntimeIsAskedForItsStreamsAndVersionAgain() throws Exception {
    assertThat(reader.sample().runtimeName()).isEqualTo("fakerd 9.9.9");
    reader.sample();
    assertThat(runtime.calls("StreamPodSandboxStats")).isEqualTo(1);

    // The runtime restarts as a version that streams: every connection to it closes.
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    runtime.streamBatch = 2;
    runtime.version = () -> VersionResponse.newBuilder().setRuntimeName("fakerd").setRuntimeVersion("10.0.0").build();
    server = serve(runtime);

    RuntimeSample afterRestart = reader.sample();

    assertThat(afterRestart.runtimeName()).isEqualTo("fakerd 10.0.0");
    assertThat(afterRestart.pods()).hasSize(PODS);
    assertThat(runtime.calls("StreamPodSandboxStats")).as("asked again, and used").isEqualTo(2);
    assertThat(runtime.calls("ListPodSandboxStats")).as("only the two rounds before the restart").isEqualTo(2);
    assertThat(reader.streamMissing(ListCalls.Rpc.POD_SANDBOX_STATS)).isFalse();
    assertThat(reader.streamFallbacks()).containsEntry("StreamPodSandboxStats", 1L);
  }

  /**
   * A runtime without ListPodSandboxStats (containerd 1.6 on Windows) forces ListContainerStats only until it
   * restarts: upgraded to a version that has the call, it is asked again and pods regain network and process count.
   */
  @Test
  void aRestartedRuntimeIsAskedForListPodSandboxStatsAgain() throws Exception {
    var lacking = runtime.listPodSandboxStats;
    runtime.listPodSandboxStats = FakeRuntime.failing(Status.UNIMPLEMENTED.withDescription("not implemented"));
    reader.sample();
    reader.sample();
    assertThat(reader.usesContainerStats()).isTrue();
    assertThat(runtime.calls("ListPodSandboxStats")).as("asked once, then the fallback").isEqualTo(1);

    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    runtime.listPodSandboxStats = lacking;
    server = serve(runtime);

    RuntimeSample afterRestart = reader.sample();

    assertThat(reader.usesContainerStats()).isFalse();
    assertThat(runtime.calls("ListPodSandboxStats")).isEqualTo(2);
    assertThat(afterRestart.pods()).extracting(p -> p.memory().workingSetBytes())
        .as("the pod's own figure (1000 + i), not its containers' sum (1000)")
        .containsExactly(1000L, 1001L, 1002L, 1003L, 1004L);
  }

  /** The operator's --cri.stats-call=ListContainerStats outlives a runtime restart. */
  @Test
  void theOperatorsChoiceOfListContainerStatsOutlivesARestart() throws Exception {
    reader.useContainerStats();
    reader.sample();
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server = serve(runtime);

    reader.sample();

    assertThat(reader.usesContainerStats()).isTrue();
    assertThat(runtime.calls("ListPodSandboxStats")).isZero();
  }

  @Test
  void aPodGoneMidStreamIsLeftOutByTheRuntimeWithoutAskingPodByPod() {
    runtime.streamBatch = 2;
    runtime.podStats.put(
        "p2",
        () -> {
          throw Status.NOT_FOUND.withDescription("sandbox \"p2\" not found").asRuntimeException();
        });

    RuntimeSample sample = reader.sample();

    assertThat(sample.pods()).extracting(p -> p.ref().name()).containsExactly("pod-0", "pod-1", "pod-3", "pod-4");
    assertThat(runtime.calls("PodSandboxStats")).isZero();
  }

  @ParameterizedTest
  @EnumSource(
      value = Status.Code.class,
      names = {"UNAVAILABLE", "CANCELLED", "INTERNAL", "RESOURCE_EXHAUSTED"})
  void aStreamThatFailsAfterSomeMessagesFailsTheRoundAndLeavesTheRatesToTheLastWholeRound(Status.Code code) {
    runtime.streamBatch = 2;
    assertThat(reader.sample().pods()).hasSize(PODS);
    Map<String, Long> cachesBefore = reader.cacheEntries();

    // The failed round's readings: 10 s on, (i + 1) * 7 CPU seconds more. Had the two pods that arrived before the
    // failure been kept, the next rates would run from them.
    for (int i = 0; i < PODS; i++) {
      seconds[i] += 10;
      cpu[i] += (i + 1) * 7 * SECOND;
    }
    runtime.streamBreaks.put(
        "StreamPodSandboxStats", new FakeRuntime.StreamBreak(1, code.toStatus().withDescription("mid-stream")));
    assertThatThrownBy(reader::sample)
        .isInstanceOfSatisfying(
            CriException.class,
            e -> assertThat(e.reason())
                .isEqualTo(
                    code == Status.Code.UNAVAILABLE ? CriException.Reason.UNAVAILABLE : CriException.Reason.RUNTIME_ERROR))
        .hasMessageContaining("rpc=StreamPodSandboxStats");
    assertThat(reader.cacheEntries()).isEqualTo(cachesBefore);

    runtime.streamBreaks.clear();
    for (int i = 0; i < PODS; i++) {
      seconds[i] += 10;
      cpu[i] += SECOND;
    }
    RuntimeSample third = reader.sample();
    for (int i = 0; i < PODS; i++) {
      assertThat(third.pods().get(i).cpu().usageNanoCores())
          .as("pod-%d: the rate over the 20 s since the last whole round", i)
          .isEqualTo(((i + 1) * 7 * SECOND + SECOND) / 20);
    }
    assertThat(runtime.calls("ListPodSandboxStats")).as("a failing stream is no missing stream").isZero();
    assertThat(reader.streamFallbacks()).containsEntry("StreamPodSandboxStats", 0L);
  }

  @Test
  void aStreamThatStopsSendingFailsTheRoundAtTheDeadlineOverTheWholeStream() throws Exception {
    reader.close();
    reader = reader(Duration.ofMillis(300));
    runtime.streamBatch = 2;
    assertThat(reader.sample().pods()).hasSize(PODS);

    runtime.streamBreaks.put("StreamPodSandboxStats", new FakeRuntime.StreamBreak(2, null));
    long started = System.nanoTime();
    assertThatThrownBy(reader::sample)
        .isInstanceOfSatisfying(
            CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.DEADLINE_EXCEEDED));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));

    runtime.streamBreaks.clear();
    assertThat(reader.sample().pods()).as("the next round reads whole again").hasSize(PODS);
    assertThat(runtime.calls("ListPodSandboxStats")).isZero();
  }

  @Test
  void aStreamFailedForOnePodBeforeItsFirstMessageReadsPodsOneByOneAndSkipsThatPod() {
    runtime.streamBatch = 2;
    runtime.podStats.put(
        "p4",
        () -> {
          // A pod whose stats fail other than NotFound/Unavailable (RuntimeCalls.RpcFailure#isGone: a pod without a
          // cgroup path) fails containerd 2.4's whole stream before its first message.
          throw Status.UNKNOWN.withDescription("failed to get cgroup metrics: not found").asRuntimeException();
        });

    RuntimeSample sample = reader.sample();

    assertThat(sample.pods()).extracting(p -> p.ref().name()).containsExactly("pod-0", "pod-1", "pod-2", "pod-3");
    assertThat(sample.skipped()).singleElement().asString().startsWith("p4: ");
    assertThat(runtime.calls("PodSandboxStats")).as("as after the unary list's UNKNOWN").isEqualTo(PODS);
  }
}
