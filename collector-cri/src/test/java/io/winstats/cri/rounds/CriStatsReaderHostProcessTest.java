package io.winstats.cri.rounds;

import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import static io.winstats.cri.rounds.FakeRuntime.podAttributes;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.winstats.cri.api.PodSandbox;
import io.winstats.cri.api.PodSandboxStats;
import io.winstats.cri.api.PodSandboxStatusResponse;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.ContainerdSandboxStatus;
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
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Whether a pod is a Windows HostProcess one ({@link PodSample#hostProcess()}), from the verbose {@code
 * PodSandboxStatus} as containerd answers it on Windows ({@link ContainerdSandboxStatus}, served by {@link
 * WindowsRuntimeFake} per containerd line), asked once per sandbox; and what a failed or missing answer leaves
 * ({@link FakeRuntime}).
 */
class CriStatsReaderHostProcessTest {
  private static final Instant NOW = Instant.parse("2026-11-21T08:00:00Z");
  private static final long T0 = NOW.toEpochMilli() * 1_000_000;
  private static final long SECOND = 1_000_000_000L;
  private static final long MIB = 1L << 20;

  private final AtomicLong ticker = new AtomicLong();
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private RuntimeStatsReader serve(BindableService runtime) throws Exception {
    String name = InProcessServerBuilder.generateName();
    Server server = InProcessServerBuilder.forName(name).directExecutor().addService(runtime).build().start();
    open.add(() -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    RuntimeStatsReader reader =
        RuntimeStatsReader.forChannel(
            "inprocess:" + name, channel, Duration.ofSeconds(5), Clock.fixed(NOW, ZoneOffset.UTC), ticker::get);
    open.add(0, reader);
    return reader;
  }

  private static Map<String, @Nullable Boolean> flags(RuntimeSample sample) {
    Map<String, @Nullable Boolean> flags = new TreeMap<>();
    sample.pods().forEach(p -> flags.put(p.ref().name(), p.hostProcess()));
    return flags;
  }

  // ---- containerd on Windows -------------------------------------------------------------------------------------

  private static HcsReading reading(long cpuSeconds) {
    return new HcsReading(T0, cpuSeconds * SECOND, 10 * MIB, 20 * MIB);
  }

  private static WindowsPod isolated(String id, String name) {
    return WindowsPod.isolated(
        id, name, "shop", T0 - 60 * SECOND, reading(1),
        List.of(WindowsContainer.running("c-" + id, "app", 0, T0, reading(5))));
  }

  private static WindowsPod hostProcess(String id, String name) {
    return WindowsPod.hostProcess(
        id, name, "kube-system", T0 - 60 * SECOND, List.of(WindowsContainer.running("c-" + id, "agent", 0, T0, reading(5))));
  }

  /**
   * Every line answers the verbose call with the kubelet's config, whose {@code windows.security_context.host_process}
   * is true for a HostProcess pod only; 1.6 reads through ListContainerStats, which lists the pods every round, and
   * still asks each sandbox once.
   */
  @ParameterizedTest
  @EnumSource(ContainerdLine.class)
  void aHostProcessPodIsFlaggedAndEachSandboxIsAskedOnce(ContainerdLine line) throws Exception {
    WindowsRuntimeFake runtime = new WindowsRuntimeFake(line, Clock.fixed(NOW, ZoneOffset.UTC));
    runtime.put(isolated("p1", "web"));
    runtime.put(hostProcess("p2", "exporter"));
    RuntimeStatsReader reader = serve(runtime);

    for (int round = 0; round < 3; round++) {
      RuntimeSample sample = reader.sample();
      assertThat(flags(sample)).containsExactly(Map.entry("exporter", true), Map.entry("web", false));
      assertThat(sample.pods()).allSatisfy(p -> assertThat(p.containers()).hasSize(1));
    }
    assertThat(runtime.sandboxStatusCalls()).as("one verbose PodSandboxStatus per sandbox").isEqualTo(2);
    assertThat(reader.usesContainerStats()).isEqualTo(line == ContainerdLine.V1_6);

    runtime.put(hostProcess("p3", "csi-node"));
    reader.sample();
    RuntimeSample sample = reader.sample();
    assertThat(flags(sample)).containsEntry("csi-node", true);
    assertThat(runtime.sandboxStatusCalls()).as("and one for the new sandbox").isEqualTo(3);
  }

  // ---- What a failed or missing answer leaves -------------------------------------------------------------------

  private static PodSandbox pod(FakeRuntime runtime, String id, String name) {
    PodSandbox p = runtime.addPod(id, name, "shop", T0 - 60 * SECOND);
    runtime.podStats.put(id, () -> PodSandboxStats.newBuilder().setAttributes(podAttributes(p)).build());
    return p;
  }

  @Test
  void aRuntimeWithoutTheCallIsAskedOnceForGoodAndItsPodsAreStillRead() throws Exception {
    FakeRuntime runtime = new FakeRuntime();
    pod(runtime, "p1", "web");
    runtime.sandboxStatuses.put(
        "p1", () -> { throw Status.UNIMPLEMENTED.withDescription("unknown method").asRuntimeException(); });
    RuntimeStatsReader reader = serve(runtime);

    RuntimeSample first = reader.sample();
    assertThat(first.pods()).extracting(s -> s.ref().name()).containsExactly("web");
    assertThat(flags(first)).containsEntry("web", null);

    pod(runtime, "p2", "api");
    RuntimeSample second = reader.sample();
    assertThat(flags(second)).containsEntry("web", null).containsEntry("api", null);
    ticker.addAndGet(Duration.ofMinutes(5).toNanos());
    reader.sample();
    assertThat(runtime.calls("PodSandboxStatus")).isEqualTo(1);
  }

  /**
   * containerd 1.7 fails the verbose call when it cannot read the sandbox task's status ({@code toCRISandboxInfo}:
   * "failed to get task status"), which reaches us as Unknown. The pod is read without the flag and asked again a
   * minute later, not every round.
   */
  @Test
  void aFailedLookupLeavesTheFlagUnknownAndIsRetriedAfterAMinute() throws Exception {
    FakeRuntime runtime = new FakeRuntime();
    PodSandbox p = pod(runtime, "p1", "exporter");
    runtime.hostProcessPods.add("p1");
    AtomicInteger failures = new AtomicInteger(1);
    runtime.sandboxStatuses.put(
        "p1",
        () -> {
          if (failures.getAndDecrement() > 0) {
            throw Status.UNKNOWN
                .withDescription(
                    "failed to get verbose sandbox container info: failed to get task status: ttrpc: closed: unknown")
                .asRuntimeException();
          }
          return ContainerdSandboxStatus.answer(ContainerdLine.V1_7, p, true, true);
        });
    RuntimeStatsReader reader = serve(runtime);

    assertThat(flags(reader.sample())).containsEntry("exporter", null);
    ticker.addAndGet(Duration.ofSeconds(30).toNanos());
    assertThat(flags(reader.sample())).containsEntry("exporter", null);
    assertThat(runtime.calls("PodSandboxStatus")).as("not asked again within the minute").isEqualTo(1);
    assertThat(runtime.calls("ListPodSandbox")).isEqualTo(1);

    ticker.addAndGet(Duration.ofSeconds(31).toNanos());
    assertThat(flags(reader.sample())).containsEntry("exporter", true);
    assertThat(flags(reader.sample())).containsEntry("exporter", true);
    assertThat(runtime.calls("PodSandboxStatus")).isEqualTo(2);
    assertThat(runtime.calls("ListPodSandbox")).as("the pods are listed again for the retry, once").isEqualTo(2);
  }

  /** A sandbox whose retry finds it gone (NotFound) is not retried again, nor the pods listed for it every round. */
  @Test
  void aRetryThatFindsTheSandboxGoneEndsTheRetries() throws Exception {
    FakeRuntime runtime = new FakeRuntime();
    pod(runtime, "p1", "exporter");
    AtomicInteger failures = new AtomicInteger(1);
    runtime.sandboxStatuses.put(
        "p1",
        () -> {
          throw failures.getAndDecrement() > 0
              ? Status.UNKNOWN.withDescription("failed to get task status: ttrpc: closed").asRuntimeException()
              : ContainerdSandboxStatus.notFound();
        });
    RuntimeStatsReader reader = serve(runtime);

    for (int round = 0; round < 18; round++) {
      assertThat(flags(reader.sample())).containsEntry("exporter", null);
      ticker.addAndGet(Duration.ofSeconds(10).toNanos());
    }
    assertThat(runtime.calls("PodSandboxStatus")).as("the first lookup and one retry").isEqualTo(2);
    assertThat(runtime.calls("ListPodSandbox")).as("listed for the first round and the retry").isEqualTo(2);
  }

  /** The same on the ListContainerStats path, which lists the pods every round anyway. */
  @Test
  void aFailedLookupIsNotRetriedEveryRoundWhenThePodsAreListedEveryRound() throws Exception {
    FakeRuntime runtime = new FakeRuntime();
    pod(runtime, "p1", "exporter");
    runtime.sandboxStatuses.put(
        "p1", () -> { throw Status.DEADLINE_EXCEEDED.asRuntimeException(); });
    RuntimeStatsReader reader = serve(runtime);
    reader.useContainerStats();

    for (int round = 0; round < 5; round++) {
      assertThat(flags(reader.sample())).containsEntry("exporter", null);
      ticker.addAndGet(Duration.ofSeconds(10).toNanos());
    }
    assertThat(runtime.calls("PodSandboxStatus")).isEqualTo(1);
    ticker.addAndGet(Duration.ofSeconds(10).toNanos());
    reader.sample();
    assertThat(runtime.calls("PodSandboxStatus")).isEqualTo(2);
  }

  /**
   * A runtime that answers without verbose info (or with info that is not containerd's) leaves the flag unknown and
   * is not asked again: the answer will not change.
   */
  @Test
  void anAnswerWithoutTheFlagIsNotAskedAgain() throws Exception {
    FakeRuntime runtime = new FakeRuntime();
    PodSandbox web = pod(runtime, "p1", "web");
    PodSandbox api = pod(runtime, "p2", "api");
    runtime.sandboxStatuses.put(
        "p1", () -> ContainerdSandboxStatus.answer(ContainerdLine.V2_2, web, false, false));
    runtime.sandboxStatuses.put(
        "p2",
        () ->
            PodSandboxStatusResponse.newBuilder(ContainerdSandboxStatus.answer(ContainerdLine.V2_2, api, false, false))
                .putInfo("info", "{\"runtimeSpec\":{\"annotations\":{}}}")
                .build());
    RuntimeStatsReader reader = serve(runtime);
    reader.useContainerStats();

    for (int round = 0; round < 3; round++) {
      assertThat(flags(reader.sample())).containsEntry("web", null).containsEntry("api", null);
      ticker.addAndGet(Duration.ofMinutes(1).toNanos());
    }
    assertThat(runtime.calls("PodSandboxStatus")).isEqualTo(2);
  }

  /** A sandbox removed between the listing and the call (NotFound) is not asked again; the next listing drops it. */
  @Test
  void aSandboxGoneBeforeItsLookupIsNotAskedAgain() throws Exception {
    FakeRuntime runtime = new FakeRuntime();
    pod(runtime, "p1", "web");
    runtime.sandboxStatuses.put("p1", () -> { throw ContainerdSandboxStatus.notFound(); });
    RuntimeStatsReader reader = serve(runtime);
    reader.useContainerStats();

    for (int round = 0; round < 12; round++) {
      assertThat(flags(reader.sample())).containsEntry("web", null);
      ticker.addAndGet(Duration.ofSeconds(10).toNanos());
    }
    assertThat(runtime.calls("PodSandboxStatus")).isEqualTo(1);
  }
}
