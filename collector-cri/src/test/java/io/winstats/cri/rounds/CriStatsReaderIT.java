package io.winstats.cri.rounds;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriException;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.ResourceSpec;
import io.winstats.cri.RuntimeFilesystemUsage;
import io.winstats.cri.RuntimeFilesystems;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.StatsCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.winstats.cri.testing.Cgroups;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.PodHandle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link RuntimeStatsReader} against a real containerd 1.6 with real pods: identities, CPU and memory checked against
 * the cgroup files they come from, pod churn, and a containerd restart.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
class CriStatsReaderIT {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
  private static final long MIB = 1024 * 1024;

  private static RuntimeStatsReader open(ContainerdHarness harness) {
    return harness.defer(
        RuntimeStatsReader.open(
            CriEndpoint.parse(harness.endpoint()),
            CriReaderOptions.of(CALL_TIMEOUT, Clock.systemUTC()).withWindowsHost(OS.WINDOWS.isCurrentOs())));
  }

  private static Optional<PodSample> find(RuntimeSample sample, PodHandle pod) {
    return sample.pods().stream().filter(p -> p.ref().uid().equals(pod.uid())).findFirst();
  }

  private static PodSample pod(RuntimeSample sample, PodHandle pod) {
    return find(sample, pod).orElseThrow(() -> new AssertionError("pod " + pod + " missing from " + sample));
  }

  private static ContainerSample container(PodSample pod, String name) {
    return pod.containers().stream()
        .filter(c -> c.name().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("container " + name + " missing from " + pod));
  }

  @Test
  void readsIdentityCpuAndMemoryMatchingTheCgroups(ContainerdHarness harness, CriTestClient client) {
    PodHandle burner = client.runPod("burner", "it-stats", List.of(ContainerSpec.burner("burn", 0.5)));
    PodHandle sleeper =
        client.runPod("sleeper", "it-stats", List.of(ContainerSpec.sleeper("sleep").withMemoryLimit(64 * MIB)));
    try (burner;
        sleeper;
        RuntimeStatsReader reader = open(harness)) {
      assertThat(reader.name()).isEqualTo("cri");
      Path burnCpu = burner.containerCgroup("cpuacct", "burn");
      Path burnMemory = burner.containerCgroup("memory", "burn");

      RuntimeSample first = reader.sample();
      assertThat(first.runtimeName()).startsWith("containerd 1.");
      PodSample burner1 = pod(first, burner);
      PodSample sleeper1 = pod(first, sleeper);
      assertThat(burner1.ref()).isEqualTo(new PodRef("burner", "it-stats", burner.uid()));
      assertThat(sleeper1.ref()).isEqualTo(new PodRef("sleeper", "it-stats", sleeper.uid()));
      assertThat(burner1.sandboxId()).isEqualTo(burner.sandboxId());
      assertThat(burner1.labels()).containsEntry("io.kubernetes.pod.uid", burner.uid());
      assertThat(burner1.containers()).extracting(ContainerSample::name).containsExactly("burn");
      assertThat(sleeper1.containers()).extracting(ContainerSample::name).containsExactly("sleep");
      ContainerSample burn1 = container(burner1, "burn");
      assertThat(burn1.id()).isEqualTo(burner.containerId("burn"));
      assertThat(burn1.image()).isEqualTo(harness.busyboxImage());
      assertThat(burn1.attempt()).isZero();
      assertThat(burn1.createdAt()).isAfterOrEqualTo(burner1.createdAt());
      assertThat(burn1.cpu()).isNotNull();
      assertThat(burn1.cpu().usageNanoCores()).as("no rate on the first reading").isNull();
      assertThat(burner1.cpu()).isNotNull();
      assertThat(burner1.cpu().usageNanoCores()).isNull();

      long cpuAtFirst = burn1.cpu().usageCoreNanos();
      Deadline.await(
          "the burner to use 1 more CPU second", Duration.ofSeconds(20),
          () -> Cgroups.cpuUsageNanos(burnCpu) >= cpuAtFirst + 1_000_000_000L);

      Path podCpu = burner.podCgroup("cpuacct");
      long podCpuBefore = Cgroups.cpuUsageNanos(podCpu);
      long cpuBefore = Cgroups.cpuUsageNanos(burnCpu);
      long workingSetBefore = Cgroups.workingSetBytes(burnMemory);
      RuntimeSample second = reader.sample();
      long cpuAfter = Cgroups.cpuUsageNanos(burnCpu);
      long workingSetAfter = Cgroups.workingSetBytes(burnMemory);
      long podCpuAfter = Cgroups.cpuUsageNanos(podCpu);

      PodSample burner2 = pod(second, burner);
      PodSample sleeper2 = pod(second, sleeper);
      ContainerSample burn2 = container(burner2, "burn");
      ContainerSample sleep2 = container(sleeper2, "sleep");
      long reported = burn2.cpu().usageCoreNanos();
      long workingSet = burn2.memory().workingSetBytes();
      double seconds = Duration.between(burn1.cpu().timestamp(), burn2.cpu().timestamp()).toNanos() / 1e9;
      System.out.printf(
          "CriStatsReaderIT cpu: cgroup cpuacct.usage before=%d reported=%d after=%d; interval=%.3f s;"
              + " container rate=%d nano-cores; pod rate=%d nano-cores; sleeper rate=%d%n",
          cpuBefore, reported, cpuAfter, seconds, burn2.cpu().usageNanoCores(),
          burner2.cpu().usageNanoCores(), sleep2.cpu().usageNanoCores());
      System.out.printf(
          "CriStatsReaderIT memory: cgroup working set before=%d reported=%d after=%d;"
              + " sleeper working set=%d available=%d (limit %d)%n",
          workingSetBefore, workingSet, workingSetAfter, sleep2.memory().workingSetBytes(),
          sleep2.memory().availableBytes(), 64 * MIB);

      assertThat(reported).as("cumulative CPU grows").isGreaterThan(cpuAtFirst);
      assertThat(reported).isBetween((long) (cpuBefore * 0.99), (long) (cpuAfter * 1.01));
      assertThat(burn2.cpu().usageNanoCores()).isNotNull();
      // The CFS quota caps the burner at 0.5 core; a busy machine can starve it far below that, so no floor: the rate
      // is held to the two readings it comes from (CPU the cgroup bracket confirms, over their runtime timestamps).
      assertThat(burn2.cpu().usageNanoCores() / 1e9)
          .as("burner rate, cores")
          .isCloseTo((reported - cpuAtFirst) / 1e9 / seconds, withinPercentage(1))
          .isBetween(0.0, 0.6);
      double podSeconds = Duration.between(burner1.cpu().timestamp(), burner2.cpu().timestamp()).toNanos() / 1e9;
      assertThat(burner2.cpu().usageNanoCores() / 1e9)
          .as("burner pod rate, cores")
          .isCloseTo(
              (burner2.cpu().usageCoreNanos() - burner1.cpu().usageCoreNanos()) / 1e9 / podSeconds,
              withinPercentage(1))
          .isBetween(0.0, 0.6);
      // containerd reads the pod's cgroup at another moment than the container's: bracket the pod by its own cgroup.
      assertThat(burner2.cpu().usageCoreNanos()).isBetween((long) (podCpuBefore * 0.99), (long) (podCpuAfter * 1.01));
      assertThat(sleep2.cpu().usageNanoCores()).isNotNull().isLessThan(50_000_000L);

      assertThat(workingSet).isPositive();
      assertThat(workingSet)
          .isBetween(
              (long) (Math.min(workingSetBefore, workingSetAfter) * 0.99),
              (long) (Math.max(workingSetBefore, workingSetAfter) * 1.01));
      assertThat(sleep2.memory().workingSetBytes()).isPositive();
      assertThat(sleep2.memory().availableBytes() + sleep2.memory().workingSetBytes()).isEqualTo(64 * MIB);
      assertThat(burner2.memory().workingSetBytes()).isPositive();

      assertThat(burner2.network()).isNotNull();
      assertThat(burner2.network().interfaces()).extracting(InterfaceUsage::name).contains("eth0");
      assertThat(burn2.writableLayer()).isNotNull();
      assertThat(burn2.writableLayer().mountpoint()).startsWith(harness.workDir().toString());
      assertThat(second.skipped()).isEmpty();
    }
  }

  @Test
  void reportsTheImageFilesystemLogFilesAndWhatContainerStatusSaysOfResources(
      ContainerdHarness harness, CriTestClient client) throws IOException {
    ContainerSpec talker =
        new ContainerSpec(
            "talker", List.of("/bin/sh", "-c", "echo hello; echo world; exec sleep 2147483647"), 0.5, 64 * MIB, null);
    PodHandle pod = client.runPod("talker", "it-fs", List.of(talker));
    try (pod;
        RuntimeStatsReader reader = open(harness)) {
      Path logDir =
          harness.workDir().resolve("pod-logs").resolve("it-fs_talker_" + pod.uid()).resolve("talker");
      Deadline.await("the container to log two lines", Duration.ofSeconds(10), () -> logBytes(logDir) >= 2 * 30);

      RuntimeSample sample = reader.sample();
      long logBytesAfter = logBytes(logDir);
      ContainerSample c = container(pod(sample, pod), "talker");
      RuntimeFilesystems fs = sample.filesystems();
      System.out.printf(
          "CriStatsReaderIT ImageFsInfo: image=%s container=%s%n"
              + "CriStatsReaderIT talker: writableLayer=%s logs=%s (files on disk: %d bytes)"
              + " ContainerStatus resources=%s (asked for quota 0.5 core, 64 MiB)%n",
          fs == null ? null : fs.image(), fs == null ? null : fs.container(), c.writableLayer(), c.logs(),
          logBytesAfter, c.resources());

      assertThat(fs).as("containerd answers ImageFsInfo").isNotNull();
      assertThat(fs.image()).isNotEmpty();
      RuntimeFilesystemUsage image = fs.image().get(0);
      assertThat(image.mountpoint()).startsWith(harness.workDir().toString());
      assertThat(image.usedBytes()).as("the busybox image's layers").isPositive();
      assertThat(image.capacity()).as("the snapshotter root is on this host").isNotNull();
      assertThat(image.capacity().capacityBytes())
          .isEqualTo(Files.getFileStore(Path.of(image.mountpoint())).getTotalSpace())
          .isGreaterThan(image.usedBytes());
      assertThat(image.capacity().availableBytes()).isBetween(0L, image.capacity().capacityBytes());
      assertThat(c.writableLayer().capacity()).as("the layer's filesystem is the image filesystem here")
          .isNotNull()
          .extracting(FilesystemCapacity::capacityBytes)
          .isEqualTo(image.capacity().capacityBytes());

      assertThat(c.logs()).isNotNull();
      assertThat(c.logs().inodesUsed()).isEqualTo(1);
      assertThat(c.logs().usedBytes()).isPositive().isLessThanOrEqualTo(logBytesAfter);
      // containerd 1.6.20 fills ContainerStatus.resources.linux with what CreateContainer asked for.
      assertThat(c.resources()).isEqualTo(new ResourceSpec(100_000L, 50_000L, 512L, 64 * MIB));
    }
  }

  private static long logBytes(Path dir) {
    try (var files = Files.list(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    } catch (IOException e) {
      return -1;
    }
  }

  @Test
  void followsPodChurnAndReportsEveryContainer(ContainerdHarness harness, CriTestClient client) {
    String imageId = client.imageId(harness.busyboxImage());
    PodHandle trio =
        client.runPod(
            "trio",
            "it-churn",
            List.of(
                ContainerSpec.sleeper("a"),
                ContainerSpec.sleeper("b"),
                // The kubelet creates containers from the image id; the reader must still show the name.
                ContainerSpec.sleeper("c").withImage(imageId)));
    PodHandle doomed = client.runPod("doomed", "it-churn", List.of(ContainerSpec.sleeper("only")));
    try (trio;
        doomed;
        RuntimeStatsReader reader = open(harness)) {
      RuntimeSample first = reader.sample();
      PodSample trio1 = pod(first, trio);
      assertThat(trio1.containers()).extracting(ContainerSample::name).containsExactly("a", "b", "c");
      assertThat(trio1.containers()).extracting(ContainerSample::image).containsOnly(harness.busyboxImage());
      assertThat(find(first, doomed)).isPresent();

      doomed.close();
      RuntimeSample second = reader.sample();
      assertThat(find(second, doomed)).as("a removed pod disappears").isEmpty();
      assertThat(pod(second, trio).containers()).hasSize(3);

      PodHandle late = client.runPod("late", "it-churn", List.of(ContainerSpec.sleeper("new")));
      try (late) {
        RuntimeSample third = reader.sample();
        assertThat(container(pod(third, late), "new").cpu().usageNanoCores()).isNull();
        assertThat(third.pods().stream().map(p -> p.ref().name()).collect(Collectors.toSet()))
            .contains("trio", "late")
            .doesNotContain("doomed");
      }
    }
  }

  @Test
  void listContainerStatsSumsContainersIntoThePod(ContainerdHarness harness, CriTestClient client) {
    PodHandle pod =
        client.runPod(
            "summed", "it-fallback", List.of(ContainerSpec.burner("burn", 0.5), ContainerSpec.sleeper("idle")));
    try (pod;
        RuntimeStatsReader reader =
            harness.defer(
                RuntimeStatsReader.open(
                    CriEndpoint.parse(harness.endpoint()),
                    CriReaderOptions.of(CALL_TIMEOUT, Clock.systemUTC())
                        .withStatsCall(StatsCall.LIST_CONTAINER_STATS)
                        .withWindowsHost(OS.WINDOWS.isCurrentOs())))) {
      PodSample first = pod(reader.sample(), pod);
      long burnFirst = container(first, "burn").cpu().usageCoreNanos();
      Deadline.await(
          "the burner to use 1 more CPU second", Duration.ofSeconds(20),
          () -> Cgroups.cpuUsageNanos(pod.containerCgroup("cpuacct", "burn")) >= burnFirst + 1_000_000_000L);
      PodSample second = pod(reader.sample(), pod);

      assertThat(second.ref()).isEqualTo(new PodRef("summed", "it-fallback", pod.uid()));
      assertThat(second.containers()).extracting(ContainerSample::name).containsExactly("burn", "idle");
      long sum = second.containers().stream().mapToLong(c -> c.cpu().usageCoreNanos()).sum();
      long workingSets = second.containers().stream().mapToLong(c -> c.memory().workingSetBytes()).sum();
      assertThat(second.cpu().usageCoreNanos()).isEqualTo(sum);
      assertThat(second.memory().workingSetBytes()).isEqualTo(workingSets).isPositive();
      double seconds = Duration.between(first.cpu().timestamp(), second.cpu().timestamp()).toNanos() / 1e9;
      assertThat(second.cpu().usageNanoCores() / 1e9)
          .as("summed pod rate, cores: the sum's increase over the interval, at most the burner's quota")
          .isCloseTo((sum - first.cpu().usageCoreNanos()) / 1e9 / seconds, withinPercentage(1))
          .isBetween(0.0, 0.6);
      assertThat(second.network()).as("ListContainerStats has no pod network").isNull();
      assertThat(reader.usesContainerStats()).isTrue();
      assertThat(reader.streamFallbacks())
          .as("containerd 1.6 has no KEP-5825 streams: each asked once, then the unary call")
          .containsEntry("StreamContainerStats", 1L)
          .containsEntry("StreamPodSandboxes", 1L)
          .containsEntry("StreamContainers", 1L)
          .containsEntry("StreamPodSandboxStats", 0L);
    }
  }

  @Test
  void recoversAfterContainerdRestartWithoutLeakingThreads(ContainerdHarness harness, CriTestClient client) {
    PodHandle pod = client.runPod("survivor", "it-restart", List.of(ContainerSpec.sleeper("app")));
    try (pod) {
      int threadsBefore = liveThreads().size();
      RuntimeStatsReader reader = open(harness);
      assertThat(find(reader.sample(), pod)).isPresent();
      assertThat(find(reader.sample(), pod)).isPresent();
      assertThat(reader.streamMissing(ListCalls.Rpc.POD_SANDBOX_STATS)).isTrue();
      Map<String, Long> fallbacksBefore = reader.streamFallbacks();
      assertThat(fallbacksBefore)
          .as("containerd 1.6 has no KEP-5825 streams: each asked once over two rounds")
          .containsEntry("StreamPodSandboxStats", 1L)
          .containsEntry("StreamPodSandboxes", 1L)
          .containsEntry("StreamContainers", 1L);

      harness.stopRuntime();
      // Sample while down long enough for gRPC's reconnect backoff to grow past several seconds.
      long downUntil = System.nanoTime() + Duration.ofSeconds(3).toNanos();
      int failures = 0;
      while (System.nanoTime() < downUntil) {
        assertThatThrownBy(reader::sample)
            .isInstanceOfSatisfying(
                CriException.class, e -> assertThat(e.reason()).isEqualTo(CriException.Reason.UNAVAILABLE));
        failures++;
        pauseQuietly(200); // the exporter's loop would wait an interval between rounds

      }

      harness.startRuntime();
      long restarted = System.nanoTime();
      RuntimeSample back =
          Deadline.poll(
              "the pod to be back after the restart",
              Duration.ofSeconds(10),
              () -> {
                try {
                  RuntimeSample s = reader.sample();
                  return find(s, pod).isPresent() ? s : null;
                } catch (CriException e) {
                  return null;
                }
              });
      double recoverySeconds = (System.nanoTime() - restarted) / 1e9;
      System.out.printf(
          "CriStatsReaderIT restart: %d UNAVAILABLE samples while down; recovered %.3f s after containerd answered%n",
          failures, recoverySeconds);
      assertThat(container(pod(back, pod), "app").id()).isEqualTo(pod.containerId("app"));
      assertThat(recoverySeconds).as("no reconnect backoff wait").isLessThan(2.0);
      assertThat(reader.streamFallbacks())
          .as("the restarted runtime was asked for its streams again, and lacked them again")
          .containsEntry("StreamPodSandboxStats", 2L)
          .containsEntry("StreamContainers", 2L);

      reader.close();
      Deadline.await(
          "the reader's threads to end", Duration.ofSeconds(10),
          () -> liveThreads().stream().noneMatch(n -> n.startsWith("winstats-cri"))
              && liveThreads().size() <= threadsBefore);
    }
  }

  private static Set<String> liveThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(t -> t.getName() + "#" + t.getId())
        .collect(Collectors.toSet());
  }

  private static void pauseQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
