package io.winstats.cri;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.cri.npipe.PipeBridge;
import io.winstats.cri.npipe.UnixSocketConnection;
import io.winstats.cri.testing.Cgroups;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.PodHandle;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The named-pipe transport path against a real containerd: the same {@link PipeBridge} relay that carries gRPC to
 * {@code \\.\pipe\containerd-containerd} on Windows, here over a {@link UnixSocketConnection} to the harness's socket.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
class CriStatsReaderBridgeIT {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  @Test
  void readsTheSameAsTheDirectTransportAndSurvivesARestart(ContainerdHarness harness, CriTestClient client) {
    AtomicInteger opens = new AtomicInteger();
    PodHandle pod =
        client.runPod(
            "bridged", "it-bridge", List.of(ContainerSpec.burner("burn", 0.5), ContainerSpec.sleeper("idle")));
    try (pod;
        CriStatsReader direct =
            CriStatsReader.open(CriEndpoint.parse(harness.endpoint()), CALL_TIMEOUT, Clock.systemUTC(),
                    OS.WINDOWS.isCurrentOs());
        CriStatsReader bridged =
            CriStatsReader.openBridged(
                "bridge:" + harness.socket(),
                UnixSocketConnection.connector(harness.socket(), opens),
                CALL_TIMEOUT,
                Clock.systemUTC())) {
      Path burnCpu = pod.containerCgroup("cpuacct", "burn");
      RuntimeSample viaDirect = direct.sample();
      long before = Cgroups.cpuUsageNanos(burnCpu);
      RuntimeSample viaBridge = bridged.sample();
      long after = Cgroups.cpuUsageNanos(burnCpu);

      assertThat(viaBridge.runtimeName()).isEqualTo(viaDirect.runtimeName()).startsWith("containerd 1.");
      assertThat(viaBridge.pods())
          .extracting(PodSample::ref)
          .isEqualTo(viaDirect.pods().stream().map(PodSample::ref).toList());
      PodSample p = viaBridge.pods().stream().filter(s -> s.ref().uid().equals(pod.uid())).findFirst().orElseThrow();
      assertThat(p.ref()).isEqualTo(new PodRef("bridged", "it-bridge", pod.uid()));
      assertThat(p.containers()).extracting(ContainerSample::id)
          .containsExactly(pod.containerId("burn"), pod.containerId("idle"));
      assertThat(p.containers()).extracting(ContainerSample::image).containsOnly(harness.busyboxImage());
      long reported = p.containers().get(0).cpu().usageCoreNanos();
      System.out.printf("CriStatsReaderBridgeIT cpu: cgroup before=%d bridged=%d after=%d%n", before, reported, after);
      assertThat(reported).isBetween(before, after);
      assertThat(opens).hasValue(1);

      harness.stopRuntime();
      assertThatThrownBy(bridged::sample)
          .isInstanceOfSatisfying(
              CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.UNAVAILABLE));
      harness.startRuntime();
      long restarted = System.nanoTime();
      RuntimeSample back =
          Deadline.poll(
              "a bridged sample after the restart",
              Duration.ofSeconds(10),
              () -> {
                try {
                  return bridged.sample();
                } catch (CriException e) {
                  return null;
                }
              });
      System.out.printf(
          "CriStatsReaderBridgeIT restart: recovered %.3f s after containerd answered; %d pipe connections opened%n",
          (System.nanoTime() - restarted) / 1e9, opens.get());
      assertThat(back.pods()).extracting(PodSample::sandboxId).contains(pod.sandboxId());
      assertThat(opens.get()).isGreaterThanOrEqualTo(2);
    }
  }
}
