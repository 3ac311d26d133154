package io.winstats.cri.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pods' networks of the Tasks source ({@link TasksStatsRound}, {@link PodNetworks}) against {@link
 * WindowsRuntimeFake}'s HNS ({@link io.winstats.cri.testing.FakeHns}): how HNS's replies reach the pods, and when the
 * round falls back to CRI for them.
 */
class CriStatsReaderHnsTest {
  private static final Instant NOW = Instant.parse("2026-11-28T02:00:00Z");
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

  private RuntimeStatsReader reader(WindowsRuntimeFake runtime) throws Exception {
    String name = InProcessServerBuilder.generateName();
    InProcessServerBuilder builder = InProcessServerBuilder.forName(name).directExecutor().addService(runtime);
    runtime.containerdServices().forEach(builder::addService);
    Server server = builder.build().start();
    open.add(() -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    RuntimeStatsReader reader =
        RuntimeStatsReader.forChannel(
            "inprocess:" + name,
            InProcessChannelBuilder.forName(name).directExecutor().build(),
            Duration.ofSeconds(5),
            Clock.fixed(NOW, ZoneOffset.UTC),
            ticker::get);
    reader.useTaskMetrics(runtime.hns());
    open.add(0, reader);
    return reader;
  }

  private static HcsReading reading(long cpuSeconds) {
    return new HcsReading(
        T0, cpuSeconds * SECOND, 100 * MIB, 150 * MIB, cpuSeconds * SECOND * 3 / 4, cpuSeconds * SECOND / 4, 180 * MIB,
        40, 40 * 4096, 10, 10 * 8192);
  }

  private static PodSample pod(RuntimeSample s, String name) {
    return s.pods().stream().filter(p -> p.ref().name().equals(name)).findFirst().orElseThrow();
  }

  /**
   * A node whose pods all share the host's network (the workflow's HostProcess pods) has no endpoint: an HNS reply
   * without {@code Output} there is the empty list hcsshim's {@code hnsCall} reads it as
   * (internal/hns/hnsfuncs.go:40-42@v0.15.0-rc.1), not an HNS failure that sends the pods' networks to CRI stats.
   */
  @Test
  void anEmptyEndpointListWithoutOutputIsNoHnsFailure() throws Exception {
    WindowsRuntimeFake runtime = new WindowsRuntimeFake(ContainerdLine.V2_2, Clock.fixed(NOW, ZoneOffset.UTC));
    runtime.put(
        WindowsPod.hostProcess(
            "hp", "agent", "kube-system", T0, List.of(WindowsContainer.running("h", "agent", 0, T0, reading(3)))));
    runtime.hns().emptyEndpointListReply("{\"Success\":true,\"Error\":\"\"}");
    RuntimeStatsReader reader = reader(runtime);

    RuntimeSample s = reader.sample();

    assertThat(s.fallbacksStarted()).as("no hns_fallback").isEmpty();
    assertThat(runtime.criStatsCalls()).as("no ListPodSandboxStats for the networks").isZero();
    assertThat(pod(s, "agent").network()).as("the host's network is the node's, not the pod's").isNull();
    assertThat(pod(s, "agent").cpu().usageCoreNanos()).isEqualTo(3 * SECOND);
  }

  /**
   * A Hyper-V pod's endpoint hangs off its utility VM ({@code <sandbox-id>@vm}), so its {@code SharedContainers}
   * names no container of the pod; it is found, as containerd finds it, through the sandbox's network namespace,
   * read from the verbose sandbox status (1.7: the runtime spec only; 2.x: the spec and the sandbox metadata).
   */
  @ParameterizedTest
  @EnumSource(value = ContainerdLine.class, names = {"V1_7", "V2_2"})
  void podEndpointsAreFoundThroughTheSandboxsNetworkNamespaceAHyperVPodsToo(ContainerdLine line) throws Exception {
    WindowsRuntimeFake runtime = new WindowsRuntimeFake(line, Clock.fixed(NOW, ZoneOffset.UTC));
    runtime.put(
        WindowsPod.hyperV(
            "hv", "isolated", "shop", T0, reading(50),
            List.of(WindowsContainer.running("v", "app", 0, T0, reading(4)))));
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(1), List.of(WindowsContainer.running("a", "app", 0, T0, reading(8)))));
    RuntimeStatsReader reader = reader(runtime);

    RuntimeSample s = reader.sample();

    assertThat(s.fallbacksStarted()).isEmpty();
    assertThat(runtime.criStatsCalls()).isZero();
    assertThat(pod(s, "isolated").network().interfaces()).singleElement().satisfies(n -> {
      assertThat(n.name()).as("the endpoint's id, as containerd names it").isEqualTo("EP-HV");
      assertThat(n.rxBytes()).isEqualTo(1000);
      assertThat(n.rxPackets()).isEqualTo(10);
    });
    assertThat(pod(s, "web").network().interfaces()).extracting(n -> n.name()).containsExactly("EP-P1");
    assertThat(runtime.hns().calls("/namespaces/")).as("one GET /namespaces/<id> per pod").isEqualTo(2);
    assertThat(runtime.hns().calls("/endpoints/"))
        .as("no pod left to find by SharedContainers: the endpoint list is not asked")
        .isZero();
  }

  @Test
  void aNamespaceListingNoEndpointFallsBackToSharedContainers() throws Exception {
    WindowsRuntimeFake runtime = new WindowsRuntimeFake(ContainerdLine.V2_2, Clock.fixed(NOW, ZoneOffset.UTC));
    runtime.put(
        WindowsPod.hyperV(
            "hv", "isolated", "shop", T0, reading(50),
            List.of(WindowsContainer.running("v", "app", 0, T0, reading(4)))));
    runtime.put(
        WindowsPod.isolated(
            "p1", "web", "shop", T0, reading(1), List.of(WindowsContainer.running("a", "app", 0, T0, reading(8)))));
    runtime.put(
        WindowsPod.hostProcess(
            "hp", "agent", "kube-system", T0, List.of(WindowsContainer.running("h", "agent", 0, T0, reading(3)))));
    runtime.hns().namespacesListNothing(true);
    RuntimeStatsReader reader = reader(runtime);

    RuntimeSample s = reader.sample();

    assertThat(s.fallbacksStarted()).isEmpty();
    assertThat(pod(s, "web").network().interfaces()).as("SharedContainers names its sandbox and container")
        .extracting(n -> n.name()).containsExactly("EP-P1");
    assertThat(pod(s, "isolated").network()).as("SharedContainers names only the utility VM").isNull();
    assertThat(pod(s, "agent").network()).as("a HostProcess pod has no namespace and shares no endpoint").isNull();
    assertThat(runtime.hns().calls("/namespaces/")).as("the HostProcess pod has no namespace to ask").isEqualTo(2);
    assertThat(runtime.hns().calls("/endpoints/")).isEqualTo(1);
  }
}
