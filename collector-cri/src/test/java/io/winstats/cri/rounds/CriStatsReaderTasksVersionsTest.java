package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
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
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Tasks source ({@link TasksStatsRound}) against {@link WindowsRuntimeFake} of each containerd line it reads on
 * Windows, 1.7 as v1.7.20 with hcsshim v0.11.7 answers (the fake's per-line rules cite 1.7's code call by call), and
 * across an in-place upgrade from 1.7 to 2.x, as AKS upgrades Windows node pools.
 */
class CriStatsReaderTasksVersionsTest {
  private static final Instant NOW = Instant.parse("2026-11-28T03:00:00Z");
  private static final long T0 = NOW.toEpochMilli() * 1_000_000;
  private static final long SECOND = 1_000_000_000L;
  private static final long MIB = 1L << 20;

  private final AtomicLong ticker = new AtomicLong();
  private final String name = InProcessServerBuilder.generateName();
  private final List<AutoCloseable> open = new ArrayList<>();
  private @Nullable Server server;

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    stopServing();
  }

  private void serve(WindowsRuntimeFake runtime) throws Exception {
    InProcessServerBuilder builder = InProcessServerBuilder.forName(name).directExecutor().addService(runtime);
    runtime.containerdServices().forEach(builder::addService);
    server = builder.build().start();
  }

  private void stopServing() throws InterruptedException {
    Server s = server;
    if (s != null) {
      s.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server = null;
    }
  }

  private RuntimeStatsReader reader(WindowsRuntimeFake hnsOf) {
    RuntimeStatsReader reader =
        RuntimeStatsReader.forChannel(
            "inprocess:" + name,
            InProcessChannelBuilder.forName(name).directExecutor().build(),
            Duration.ofSeconds(5),
            Clock.fixed(NOW, ZoneOffset.UTC),
            ticker::get);
    reader.useTaskMetrics(hnsOf.hns());
    open.add(0, reader);
    return reader;
  }

  private static HcsReading reading(long second, long cpuSeconds) {
    return new HcsReading(
        T0 + second * SECOND, cpuSeconds * SECOND, 100 * MIB, 150 * MIB, cpuSeconds * SECOND * 3 / 4,
        cpuSeconds * SECOND / 4, 180 * MIB, 40, 40 * 4096, 10, 10 * 8192);
  }

  private static WindowsPod web(long second, long sandboxCpu, long appCpu) {
    return WindowsPod.isolated(
        "p1", "web", "shop", T0 - 60 * SECOND, reading(second, sandboxCpu),
        List.of(WindowsContainer.running("a", "app", 0, T0 - 60 * SECOND, reading(second, appCpu))));
  }

  private static WindowsPod agent(long second, long cpu) {
    return WindowsPod.hostProcess(
        "hp", "agent", "kube-system", T0 - 60 * SECOND,
        List.of(WindowsContainer.running("h", "agent", 0, T0 - 60 * SECOND, reading(second, cpu))));
  }

  private static PodSample pod(RuntimeSample s, String name) {
    return s.pods().stream().filter(p -> p.ref().name().equals(name)).findFirst().orElseThrow();
  }

  @ParameterizedTest
  @EnumSource(value = ContainerdLine.class, names = {"V1_7", "V2_0", "V2_2"})
  void everyFigureOfTheTaskSourceComesFromTheTaskCallsOnEachLine(ContainerdLine line) throws Exception {
    WindowsRuntimeFake runtime = new WindowsRuntimeFake(line, Clock.fixed(NOW, ZoneOffset.UTC));
    runtime.put(web(0, 1, 8));
    runtime.put(agent(0, 3));
    serve(runtime);
    RuntimeStatsReader reader = reader(runtime);

    RuntimeSample s = reader.sample();

    assertThat(s.runtimeName()).isEqualTo(
        switch (line) {
          case V1_7 -> "containerd v1.7.20";
          case V2_0 -> "containerd v2.1.4";
          default -> "containerd v2.2.1";
        });
    assertThat(s.fallbacksStarted()).as("every task-source call answered").isEmpty();
    assertThat(runtime.criStatsCalls()).as("no CRI stats call on %s", line).isZero();
    PodSample web = pod(s, "web");
    ContainerSample app = web.containers().get(0);
    assertThat(app.cpu().usageCoreNanos()).as("Tasks.Metrics with the bare type URL").isEqualTo(8 * SECOND);
    assertThat(app.cpu().userNanos()).isEqualTo(6 * SECOND);
    assertThat(app.memory().commitBytes()).as("the shim's commit, whatever CRI of the line carries")
        .isEqualTo(150 * MIB);
    assertThat(app.storage().writeBytes()).isEqualTo(10 * 8192);
    assertThat(app.writableLayer().usedBytes()).as("Snapshots.Usage").isEqualTo(4096);
    assertThat(app.writableLayer().mountpoint()).as("snapshotRoot: beside the content store's exported root")
        .isEqualTo(WindowsRuntimeFake.IMAGE_FS_PATH);
    assertThat(web.cpu().usageCoreNanos()).as("the pause container's 1 s and the app's 8 s").isEqualTo(9 * SECOND);
    assertThat(web.processCount()).as("ListPids of the sandbox and the app").isEqualTo(2);
    assertThat(web.network().interfaces()).singleElement().satisfies(n -> assertThat(n.rxPackets()).isEqualTo(10));
    assertThat(pod(s, "agent").processCount()).as("the faked sandbox task's one process and the agent's")
        .isEqualTo(2);
    assertThat(pod(s, "agent").cpu().usageCoreNanos()).isEqualTo(3 * SECOND);
  }

  @Test
  void anInPlaceUpgradeFrom17AsksTheTaskSourceAgainAndKeepsCumulativeSeriesMonotonic() throws Exception {
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    WindowsRuntimeFake v17 = new WindowsRuntimeFake(ContainerdLine.V1_7, clock, "D:\\containerd\\root\\"
        + "io.containerd.snapshotter.v1.windows");
    WindowsRuntimeFake v22 = new WindowsRuntimeFake(ContainerdLine.V2_2, clock);
    v17.put(web(0, 1, 8));
    serve(v17);
    RuntimeStatsReader reader = reader(v17);

    RuntimeSample onTasks = reader.sample();
    v17.put(web(10, 2, 12));
    v17.failTaskMetrics(Status.UNKNOWN.withDescription("failed to list tasks"));
    RuntimeSample onCri = reader.sample();

    // The node's containerd is stopped and the new version started over the same pipe; the containers run on.
    stopServing();
    v22.put(web(20, 3, 15));
    v17.put(web(20, 3, 15));
    serve(v22);
    RuntimeSample upgraded = reader.sample();

    assertThat(onTasks.runtimeName()).isEqualTo("containerd v1.7.20");
    assertThat(onCri.fallbacksStarted()).containsExactly(RuntimeStatsReader.TASKS_FALLBACK);
    assertThat(pod(onCri, "web").containers().get(0).cpu().userNanos()).as("CRI stats carry no user time").isNull();
    assertThat(upgraded.runtimeName()).isEqualTo("containerd v2.2.1");
    assertThat(v22.taskMetricsCalls())
        .as("asked at once, not after the minute the 1.7 failure started")
        .isEqualTo(1);
    assertThat(reader.fellBackFromTaskMetrics()).isFalse();
    ContainerSample app = pod(upgraded, "web").containers().get(0);
    assertThat(app.cpu().userNanos()).as("from the Tasks service again").isEqualTo(15 * SECOND * 3 / 4);
    assertThat(app.writableLayer().mountpoint()).as("the new runtime's snapshotter root, not the cached one")
        .isEqualTo(WindowsRuntimeFake.IMAGE_FS_PATH);
    assertThat(pod(onTasks, "web").containers().get(0).writableLayer().mountpoint()).startsWith("D:\\");
    List<RuntimeSample> rounds = List.of(onTasks, onCri, upgraded);
    for (int i = 1; i < rounds.size(); i++) {
      PodSample before = pod(rounds.get(i - 1), "web");
      PodSample after = pod(rounds.get(i), "web");
      assertThat(after.cpu().usageCoreNanos()).as("pod CPU, round %d", i).isGreaterThanOrEqualTo(
          before.cpu().usageCoreNanos());
      assertThat(after.containers().get(0).cpu().usageCoreNanos()).as("container CPU, round %d", i)
          .isGreaterThanOrEqualTo(before.containers().get(0).cpu().usageCoreNanos());
      assertThat(after.network().interfaces().get(0).rxBytes()).as("network, round %d", i)
          .isGreaterThanOrEqualTo(before.network().interfaces().get(0).rxBytes());
    }
    assertThat(pod(upgraded, "web").cpu().usageCoreNanos()).isEqualTo(18 * SECOND);
  }
}
