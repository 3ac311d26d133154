package io.winstats.cri.rounds;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.StatsCall;
import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link RuntimeStatsReader} against a real containerd, per container: identity of every container of a three-container
 * pod, CPU and working set bracketed by the cgroup files read just before and just after the round, counters that
 * never go down over consecutive rounds, and a container restarted as attempt 1.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
class CriStatsReaderContainersIT {
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
  private static final long MIB = 1024 * 1024;
  /** Page cache in tmpfs is shmem: it counts in usage and is not inactive file, so it stays in the working set. */
  private static final ContainerSpec HOG =
      ContainerSpec.of(
          "hog", "/bin/sh", "-c", "dd if=/dev/zero of=/dev/shm/blob bs=1M count=40 && exec sleep 2147483647");

  private static RuntimeStatsReader open(ContainerdHarness harness) {
    return harness.defer(
        RuntimeStatsReader.open(
            CriEndpoint.parse(harness.endpoint()),
            CriReaderOptions.of(CALL_TIMEOUT, Clock.systemUTC()).withWindowsHost(OS.WINDOWS.isCurrentOs())));
  }

  private static PodSample pod(RuntimeSample sample, PodHandle pod) {
    return sample.pods().stream()
        .filter(p -> p.ref().uid().equals(pod.uid()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("pod " + pod + " missing from " + sample));
  }

  private static ContainerSample byId(PodSample pod, String id) {
    return pod.containers().stream()
        .filter(c -> c.id().equals(id))
        .findFirst()
        .orElseThrow(() -> new AssertionError("container " + id + " missing from " + pod));
  }

  /** Cgroup readings of one container just before and just after a round. */
  private record Bracket(long cpuBefore, long cpuAfter, long workingSetBefore, long workingSetAfter) {}

  /** One round, with every listed container's cgroup files read right before and right after it. */
  private static RuntimeSample sampleBracketed(
      RuntimeStatsReader reader, PodHandle pod, List<String> containerIds, Map<String, Bracket> into) {
    Map<String, long[]> before = new HashMap<>();
    for (String id : containerIds) {
      before.put(
          id,
          new long[] {
            Cgroups.cpuUsageNanos(pod.cgroupOf("cpuacct", id)), Cgroups.workingSetBytes(pod.cgroupOf("memory", id))
          });
    }
    RuntimeSample sample = reader.sample();
    for (String id : containerIds) {
      long cpuAfter = Cgroups.cpuUsageNanos(pod.cgroupOf("cpuacct", id));
      long workingSetAfter = Cgroups.workingSetBytes(pod.cgroupOf("memory", id));
      long[] b = before.get(id);
      into.put(id, new Bracket(b[0], cpuAfter, b[1], workingSetAfter));
    }
    return sample;
  }

  @Test
  void everyContainerOfAThreeContainerPodMatchesItsOwnCgroups(ContainerdHarness harness, CriTestClient client) {
    PodHandle pod =
        client.runPod(
            "triple",
            "it-three",
            List.of(ContainerSpec.burner("burn", 0.3), HOG, ContainerSpec.sleeper("idle").withMemoryLimit(32 * MIB)));
    try (pod;
        RuntimeStatsReader reader = open(harness)) {
      Path hogMemory = pod.containerCgroup("memory", "hog");
      Deadline.await(
          "the hog to hold 40 MiB", Duration.ofSeconds(30), () -> Cgroups.workingSetBytes(hogMemory) >= 40 * MIB);
      List<String> ids = pod.containerNames().stream().map(pod::containerId).toList();

      RuntimeSample first = reader.sample();
      PodSample pod1 = pod(first, pod);
      assertThat(pod1.containers()).allSatisfy(c -> assertThat(c.cpu().usageNanoCores()).isNull());
      long burnAtFirst = byId(pod1, pod.containerId("burn")).cpu().usageCoreNanos();
      Deadline.await(
          "the burner to use 0.3 more CPU seconds", Duration.ofSeconds(20),
          () -> Cgroups.cpuUsageNanos(pod.containerCgroup("cpuacct", "burn")) >= burnAtFirst + 300_000_000L);

      Map<String, Bracket> brackets = new LinkedHashMap<>();
      long podCpuBefore = Cgroups.cpuUsageNanos(pod.podCgroup("cpuacct"));
      RuntimeSample second = sampleBracketed(reader, pod, ids, brackets);
      long podCpuAfter = Cgroups.cpuUsageNanos(pod.podCgroup("cpuacct"));
      PodSample pod2 = pod(second, pod);

      assertThat(pod2.ref()).isEqualTo(new PodRef("triple", "it-three", pod.uid()));
      assertThat(pod2.sandboxId()).isEqualTo(pod.sandboxId());
      assertThat(pod2.containers()).extracting(ContainerSample::name).containsExactly("burn", "hog", "idle");
      for (String name : List.of("burn", "hog", "idle")) {
        String id = pod.containerId(name);
        ContainerSample c = byId(pod2, id);
        Bracket b = brackets.get(id);
        System.out.printf(
            "CriStatsReaderContainersIT %s: cpu cgroup before=%d reported=%d after=%d rate=%d nano-cores;"
                + " working set cgroup before=%d reported=%d after=%d%n",
            name, b.cpuBefore(), c.cpu().usageCoreNanos(), b.cpuAfter(), c.cpu().usageNanoCores(),
            b.workingSetBefore(), c.memory().workingSetBytes(), b.workingSetAfter());

        assertThat(c.name()).isEqualTo(name);
        assertThat(c.attempt()).isZero();
        assertThat(c.image()).isEqualTo(harness.busyboxImage());
        assertThat(c.createdAt()).isAfterOrEqualTo(pod2.createdAt());
        assertThat(c.labels())
            .containsEntry("io.kubernetes.container.name", name)
            .containsEntry("io.kubernetes.pod.name", "triple")
            .containsEntry("io.kubernetes.pod.namespace", "it-three")
            .containsEntry("io.kubernetes.pod.uid", pod.uid());
        // cpuacct.usage only grows, so the runtime's reading lies between ours, exactly.
        assertThat(c.cpu().usageCoreNanos()).isBetween(b.cpuBefore(), b.cpuAfter());
        assertThat(c.cpu().usageNanoCores()).isNotNull().isNotNegative();
        long low = Math.min(b.workingSetBefore(), b.workingSetAfter());
        long high = Math.max(b.workingSetBefore(), b.workingSetAfter());
        assertThat(c.memory().workingSetBytes()).isBetween((long) (low * 0.99), (long) (high * 1.01));
      }
      assertThat(byId(pod2, pod.containerId("hog")).memory().workingSetBytes()).isGreaterThanOrEqualTo(40 * MIB);
      ContainerSample idle = byId(pod2, pod.containerId("idle"));
      assertThat(idle.memory().availableBytes() + idle.memory().workingSetBytes()).isEqualTo(32 * MIB);
      assertThat(byId(pod2, pod.containerId("burn")).cpu().usageNanoCores()).isPositive();
      System.out.printf(
          "CriStatsReaderContainersIT pod: cpu cgroup before=%d reported=%d after=%d%n",
          podCpuBefore, pod2.cpu().usageCoreNanos(), podCpuAfter);
      // The pod's cgroup parent: containerd reads it at another moment than the containers, so no sum holds exactly.
      assertThat(pod2.cpu().usageCoreNanos()).isBetween(podCpuBefore, podCpuAfter);
      assertThat(pod2.memory().workingSetBytes()).isGreaterThanOrEqualTo(40 * MIB);
    }
  }

  @Test
  void countersNeverDecreaseOverConsecutiveRounds(ContainerdHarness harness, CriTestClient client) {
    // Each dd is a new process: page faults and CPU time keep rising.
    ContainerSpec churn =
        ContainerSpec.of(
            "churn", "/bin/sh", "-c", "while :; do dd if=/dev/zero of=/dev/null bs=64k count=16 2>/dev/null; done");
    PodHandle pod =
        client.runPod("steady", "it-counters", List.of(churn, ContainerSpec.burner("burn", 0.2), HOG));
    try (pod;
        RuntimeStatsReader reader = open(harness)) {
      Path churnCpu = pod.containerCgroup("cpuacct", "churn");
      List<RuntimeSample> samples = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        long cpu = Cgroups.cpuUsageNanos(churnCpu);
        Deadline.await(
            "the churner to use 50 ms of CPU", Duration.ofSeconds(20),
            () -> Cgroups.cpuUsageNanos(churnCpu) >= cpu + 50_000_000L);
        samples.add(reader.sample());
      }

      List<PodSample> rounds = samples.stream().map(s -> pod(s, pod)).toList();
      for (String name : pod.containerNames()) {
        String id = pod.containerId(name);
        List<ContainerSample> series = rounds.stream().map(p -> byId(p, id)).toList();
        System.out.printf(
            "CriStatsReaderContainersIT %s over %d rounds: cpu %s; page faults %s; rates %s%n",
            name, series.size(), values(series, c -> c.cpu().usageCoreNanos()),
            values(series, c -> c.memory().pageFaults()), series.stream().map(c -> c.cpu().usageNanoCores()).toList());
        assertNonDecreasing(name + " usageCoreNanos", series, c -> c.cpu().usageCoreNanos());
        assertNonDecreasing(name + " pageFaults", series, c -> c.memory().pageFaults());
        assertNonDecreasing(name + " majorPageFaults", series, c -> c.memory().majorPageFaults());
        assertNonDecreasing(name + " cpu timestamp", series, c -> c.cpu().timestamp().toEpochMilli());
        assertThat(series.get(0).cpu().usageNanoCores()).as(name + " first rate").isNull();
        assertThat(series.subList(1, series.size()))
            .allSatisfy(c -> assertThat(c.cpu().usageNanoCores()).isNotNull().isNotNegative());
      }
      List<ContainerSample> churnSeries = rounds.stream().map(p -> byId(p, pod.containerId("churn"))).toList();
      assertThat(churnSeries.get(5).cpu().usageCoreNanos()).isGreaterThan(churnSeries.get(0).cpu().usageCoreNanos());
      assertThat(churnSeries.get(5).memory().pageFaults()).isGreaterThan(churnSeries.get(0).memory().pageFaults());
      assertNonDecreasing("pod usageCoreNanos", rounds, p -> p.cpu().usageCoreNanos());
      assertNonDecreasing("pod pageFaults", rounds, p -> p.memory().pageFaults());
      assertNonDecreasing("pod rx bytes", rounds, p -> p.network().interfaces().get(0).rxBytes());
    }
  }

  private static <T> List<@Nullable Long> values(List<T> series, Function<T, @Nullable Long> f) {
    return series.stream().map(f).toList();
  }

  /** Each value at least the one before; a counter the runtime does not fill (null) is skipped. */
  private static <T> void assertNonDecreasing(String what, List<T> series, Function<T, @Nullable Long> value) {
    for (int i = 1; i < series.size(); i++) {
      Long previous = value.apply(series.get(i - 1));
      Long current = value.apply(series.get(i));
      if (previous != null && current != null) {
        assertThat(current)
            .as("%s at round %d (series %s)", what, i, values(series, value))
            .isGreaterThanOrEqualTo(previous);
      }
    }
  }

  @Test
  void aContainerRestartedAsAttemptOneIsANewInstance(ContainerdHarness harness, CriTestClient client) {
    // Spins for 3 s of wall time, then exits 3: the kubelet would restart it.
    ContainerSpec job =
        ContainerSpec.of(
            "job", "/bin/sh", "-c", "end=$(($(date +%s) + 3)); while [ $(date +%s) -lt $end ]; do :; done; exit 3");
    PodHandle pod = client.runPod("restarts", "it-restart", List.of(job, ContainerSpec.sleeper("side")));
    try (pod;
        RuntimeStatsReader reader = open(harness)) {
      String first = pod.containerId("job");
      RuntimeSample running = reader.sample();
      assertThat(byId(pod(running, pod), first).attempt()).isZero();

      assertThat(client.awaitExited(first, Duration.ofSeconds(60)).getExitCode()).isEqualTo(3);
      // While a container's task is being deleted, containerd 1.6 fails the whole pod's stats ("no running task
      // found"); the reader then lists the pod in skipped() for that round. Wait that window out.
      RuntimeSample exited = Deadline.poll("the pod's stats after the exit", Duration.ofSeconds(10), () -> {
        RuntimeSample s = reader.sample();
        return s.pods().stream().anyMatch(p -> p.sandboxId().equals(pod.sandboxId())) ? s : null;
      });
      PodSample exitedPod = pod(exited, pod);
      System.out.printf(
          "CriStatsReaderContainersIT restart: after exit the pod lists %s%n", describe(exitedPod));
      // A lone exited container stays listed (containerd gives it no stats), as in the kubelet's summary.
      assertThat(exitedPod.containers())
          .extracting(ContainerSample::id)
          .containsExactly(first, pod.containerId("side"));

      String second = client.startContainer(pod, ContainerSpec.burner("job", 0.5), 1);
      assertThat(second).isNotEqualTo(first);
      RuntimeSample restarted = reader.sample();
      PodSample restartedPod = pod(restarted, pod);
      ContainerSample attempt1 = byId(restartedPod, second);
      System.out.printf("CriStatsReaderContainersIT restart: after restart the pod lists %s%n", describe(restartedPod));
      assertThat(attempt1.name()).isEqualTo("job");
      assertThat(attempt1.attempt()).isEqualTo(1);
      assertThat(attempt1.image()).isEqualTo(harness.busyboxImage());
      assertThat(attempt1.labels()).containsEntry("io.kubernetes.pod.uid", pod.uid());
      assertThat(attempt1.cpu().usageNanoCores()).as("first reading of the new attempt").isNull();
      assertThat(restartedPod.containers())
          .as("the exited attempt 0 is superseded, as the kubelet hides it")
          .extracting(ContainerSample::id)
          .containsExactly(second, pod.containerId("side"));

      long cpuAt = attempt1.cpu().usageCoreNanos();
      Deadline.await(
          "attempt 1 to use 0.3 CPU seconds", Duration.ofSeconds(20),
          () -> Cgroups.cpuUsageNanos(pod.cgroupOf("cpuacct", second)) >= cpuAt + 300_000_000L);
      RuntimeSample later = reader.sample();
      ContainerSample attempt1Later = byId(pod(later, pod), second);
      System.out.printf(
          "CriStatsReaderContainersIT restart: attempt 1 cpu %d -> %d, rate %d nano-cores%n",
          cpuAt, attempt1Later.cpu().usageCoreNanos(), attempt1Later.cpu().usageNanoCores());
      assertThat(attempt1Later.cpu().usageNanoCores()).isNotNull().isPositive();
      for (RuntimeSample s : List.of(running, exited, restarted, later)) {
        PodSample p = pod(s, pod);
        assertThat(p.cpu().usageNanoCores() == null || p.cpu().usageNanoCores() >= 0).isTrue();
        assertThat(p.containers())
            .allSatisfy(
                c -> assertThat(c.cpu() == null || c.cpu().usageNanoCores() == null || c.cpu().usageNanoCores() >= 0)
                    .as("no negative rate for %s", c.id())
                    .isTrue());
      }
    }
  }

  /**
   * The ListContainerStats round sums running containers into the pod, as the kubelet's {@code addPodCPUMemoryStats}
   * does, so an exited container used to take its CPU out of the pod's cumulative figure. Now the pod keeps it.
   */
  @Test
  void podCpuOfTheContainerStatsPathKeepsWhatAnExitedContainerUsed(ContainerdHarness harness, CriTestClient client) {
    ContainerSpec job =
        ContainerSpec.of(
            "job", "/bin/sh", "-c", "end=$(($(date +%s) + 6)); while [ $(date +%s) -lt $end ]; do :; done; exit 0");
    PodHandle pod = client.runPod("carried", "it-carry", List.of(job, ContainerSpec.sleeper("side")));
    try (pod;
        RuntimeStatsReader reader =
            harness.defer(
                RuntimeStatsReader.open(
                    CriEndpoint.parse(harness.endpoint()),
                    CriReaderOptions.of(CALL_TIMEOUT, Clock.systemUTC())
                        .withStatsCall(StatsCall.LIST_CONTAINER_STATS)
                        .withWindowsHost(OS.WINDOWS.isCurrentOs())))) {
      String jobId = pod.containerId("job");
      // Read while the job spins (the reader, not the cgroup: the cgroup goes when the job exits).
      PodSample running =
          Deadline.poll(
              "the job to show 0.2 CPU seconds", Duration.ofSeconds(20),
              () -> {
                PodSample p = pod(reader.sample(), pod);
                ContainerSample j = p.containers().stream().filter(c -> c.id().equals(jobId)).findFirst().orElse(null);
                return j != null && j.cpu() != null && j.cpu().usageCoreNanos() >= 200_000_000L ? p : null;
              });
      long jobRead = byId(running, jobId).cpu().usageCoreNanos();

      client.awaitExited(jobId, Duration.ofSeconds(60));
      PodSample exited = pod(reader.sample(), pod);

      System.out.printf(
          "CriStatsReaderContainersIT carry: pod cpu %d (job %d) -> %d after the job exited%n",
          running.cpu().usageCoreNanos(), jobRead, exited.cpu().usageCoreNanos());
      assertThat(exited.containers()).extracting(ContainerSample::name).containsExactly("side");
      assertThat(exited.cpu().usageCoreNanos())
          .isGreaterThanOrEqualTo(running.cpu().usageCoreNanos())
          .isGreaterThanOrEqualTo(jobRead + exited.containers().get(0).cpu().usageCoreNanos());
    }
  }

  private static String describe(PodSample pod) {
    List<String> parts = new ArrayList<>();
    for (ContainerSample c : pod.containers()) {
      parts.add(
          c.name() + "#" + c.attempt() + " id=" + c.id().substring(0, 12) + " cpu="
              + (c.cpu() == null ? null : c.cpu().usageCoreNanos()) + " rate="
              + (c.cpu() == null ? null : c.cpu().usageNanoCores()));
    }
    return Objects.toString(parts);
  }
}
