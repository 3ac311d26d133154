package io.winstats.cri.rounds;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.cri.testing.Cgroups;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.PodHandle;
import io.winstats.cri.transport.UnixSocketServer;
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
 * The connector path against a real containerd, with a connector that counts its connections (a named pipe's on
 * Windows, here the harness's Unix socket): a reader over it reads what a reader from {@link RuntimeStatsReader#open}
 * reads, makes one connection for every call of a round, and after containerd restarts reconnects through a new one.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
class CriStatsReaderConnectorIT {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

  @Test
  void readsTheSameAsTheDirectTransportAndSurvivesARestart(ContainerdHarness harness, CriTestClient client) {
    AtomicInteger opens = new AtomicInteger();
    PodHandle pod =
        client.runPod(
            "counted", "it-connector", List.of(ContainerSpec.burner("burn", 0.5), ContainerSpec.sleeper("idle")));
    try (pod;
        RuntimeStatsReader direct =
            RuntimeStatsReader.open(
                CriEndpoint.parse(harness.endpoint()),
                CriReaderOptions.of(CALL_TIMEOUT, Clock.systemUTC()).withWindowsHost(OS.WINDOWS.isCurrentOs()));
        RuntimeStatsReader counted =
            RuntimeStatsReader.openOver(
                "connector:" + harness.socket(),
                UnixSocketServer.counting(harness.socket(), opens),
                CALL_TIMEOUT,
                Clock.systemUTC())) {
      Path burnCpu = pod.containerCgroup("cpuacct", "burn");
      RuntimeSample viaDirect = direct.sample();
      long before = Cgroups.cpuUsageNanos(burnCpu);
      RuntimeSample viaConnector = counted.sample();
      long after = Cgroups.cpuUsageNanos(burnCpu);

      assertThat(viaConnector.runtimeName()).isEqualTo(viaDirect.runtimeName()).startsWith("containerd 1.");
      assertThat(viaConnector.pods())
          .extracting(PodSample::ref)
          .isEqualTo(viaDirect.pods().stream().map(PodSample::ref).toList());
      PodSample p = viaConnector.pods().stream().filter(s -> s.ref().uid().equals(pod.uid())).findFirst().orElseThrow();
      assertThat(p.ref()).isEqualTo(new PodRef("counted", "it-connector", pod.uid()));
      assertThat(p.containers()).extracting(ContainerSample::id)
          .containsExactly(pod.containerId("burn"), pod.containerId("idle"));
      assertThat(p.containers()).extracting(ContainerSample::image).containsOnly(harness.busyboxImage());
      long reported = p.containers().get(0).cpu().usageCoreNanos();
      System.out.printf("CriStatsReaderConnectorIT cpu: cgroup before=%d reported=%d after=%d%n", before, reported, after);
      assertThat(reported).isBetween(before, after);
      assertThat(opens).hasValue(1);

      harness.stopRuntime();
      assertThatThrownBy(counted::sample)
          .isInstanceOfSatisfying(
              CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.UNAVAILABLE));
      harness.startRuntime();
      long restarted = System.nanoTime();
      RuntimeSample back =
          Deadline.poll(
              "a sample after the restart",
              Duration.ofSeconds(10),
              () -> {
                try {
                  return counted.sample();
                } catch (CriException e) {
                  return null;
                }
              });
      System.out.printf(
          "CriStatsReaderConnectorIT restart: recovered %.3f s after containerd answered; %d connections opened%n",
          (System.nanoTime() - restarted) / 1e9, opens.get());
      assertThat(back.pods()).extracting(PodSample::sandboxId).contains(pod.sandboxId());
      assertThat(opens.get()).isGreaterThanOrEqualTo(2);
    }
  }
}
