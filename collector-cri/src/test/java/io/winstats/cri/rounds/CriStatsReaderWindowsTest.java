package io.winstats.cri.rounds;

import io.winstats.cri.ContainerSample;
import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.RuntimeFilesystemUsage;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.HcsReading;
import io.winstats.cri.testing.WindowsContainer;
import io.winstats.cri.testing.WindowsPod;
import io.winstats.cri.testing.WindowsRuntimeFake;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RuntimeStatsReader} against Windows pods served as containerd fills them ({@link WindowsRuntimeFake}; the fields
 * per line are pinned, with the containerd functions, in {@code ContainerdWindowsStatsTest}).
 */
class CriStatsReaderWindowsTest {
  private static final Instant NOW = Instant.parse("2026-11-21T08:00:00Z");
  private static final long T0 = NOW.toEpochMilli() * 1_000_000;
  private static final long SECOND = 1_000_000_000L;
  private static final long MIB = 1L << 20;

  private final AtomicLong ticker = new AtomicLong();
  private final List<AutoCloseable> open = new ArrayList<>();

  private WindowsRuntimeFake runtime;
  private RuntimeStatsReader reader;

  private void serve(ContainerdLine line) throws Exception {
    runtime = new WindowsRuntimeFake(line, Clock.fixed(NOW, ZoneOffset.UTC));
    String name = InProcessServerBuilder.generateName();
    Server server = InProcessServerBuilder.forName(name).directExecutor().addService(runtime).build().start();
    open.add(() -> server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS));
    ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    reader =
        RuntimeStatsReader.forChannel(
            "inprocess:" + name, channel, Duration.ofSeconds(5), Clock.fixed(NOW, ZoneOffset.UTC), ticker::get);
    open.add(0, reader);
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private static HcsReading reading(long second, long cpuSeconds, long workingSetMib, long commitMib) {
    return new HcsReading(T0 + second * SECOND, cpuSeconds * SECOND, workingSetMib * MIB, commitMib * MIB);
  }

  private static WindowsPod web(HcsReading sandbox, WindowsContainer... containers) {
    return WindowsPod.isolated("p1", "web", "shop", T0 - 60 * SECOND, sandbox, List.of(containers));
  }

  private PodSample onlyPod() {
    return reader.sample().pods().get(0);
  }

  // ---- Memory: usage is commit ---------------------------------------------------------------------------------

  /**
   * containerd 2.2+ reports a container's usage as its commit in ListContainerStats ({@code windowsContainerMetrics}:
   * {@code UsageBytes = MemoryUsageCommitBytes}); ListPodSandboxStats carries the same figure as {@code
   * commit_memory_bytes} ({@code convertToCRIStats}), which we serve as usage too. A pod's usage is its containers'
   * commit summed, on 2.0/2.1 where containerd's pod commit is the sandbox's alone ({@code appendMemoryPodStats} adds
   * only the working set there) and on 2.2+ alike.
   */
  @ParameterizedTest
  @EnumSource(value = ContainerdLine.class, names = {"V2_0", "V2_2"})
  void containerUsageIsCommitAndPodUsageIsTheContainersCommitSummed(ContainerdLine line) throws Exception {
    serve(line);
    runtime.put(
        web(
            reading(0, 1, 10, 20),
            WindowsContainer.running("a", "app", 0, T0, reading(0, 5, 100, 150)),
            WindowsContainer.running("b", "sidecar", 0, T0, reading(0, 2, 30, 40))));

    PodSample pod = onlyPod();

    assertThat(pod.containers()).extracting(c -> c.memory().usageBytes()).containsExactly(150 * MIB, 40 * MIB);
    assertThat(pod.containers()).extracting(c -> c.memory().workingSetBytes()).containsExactly(100 * MIB, 30 * MIB);
    assertThat(pod.memory().usageBytes()).isEqualTo(190 * MIB);
    assertThat(pod.memory().workingSetBytes()).as("the containers' own, as usage: not containerd's 140 with the sandbox")
        .isEqualTo(130 * MIB);
    assertThat(pod.memory().commitBytes())
        .as("containerd's own pod commit, as sent")
        .isEqualTo(line == ContainerdLine.V2_2 ? 210 * MIB : 20 * MIB);
  }

  /**
   * A small pod whose sandbox holds more than its container: containerd's pod working set adds the sandbox's
   * ({@code appendMemoryPodStats} in {@code sandbox_stats_windows.go}, 1.7 to 2.2), the usage has only the containers'
   * commit before 2.2, so the pod read 15 MiB working set against 8 MiB usage. Both are the containers' now, as the
   * kubelet's {@code addPodCPUMemoryStats} sums them.
   */
  @ParameterizedTest
  @EnumSource(value = ContainerdLine.class, names = {"V2_0", "V2_2"})
  void aPodsWorkingSetNeverExceedsItsUsageWhenItsSandboxIsTheLargerPart(ContainerdLine line) throws Exception {
    serve(line);
    runtime.put(web(reading(0, 1, 10, 12), WindowsContainer.running("a", "app", 0, T0, reading(0, 1, 5, 8))));

    MemoryUsage memory = onlyPod().memory();

    assertThat(memory.workingSetBytes()).isEqualTo(5 * MIB);
    assertThat(memory.usageBytes()).isEqualTo(8 * MIB);
  }

  /**
   * A container whose snapshot containerd's snapshot store has not measured yet (it syncs every {@code
   * stats_collect_period}): {@code toPodSandboxStats} sends used_bytes 0 with the zero snapshot's timestamp 0 ("If
   * snapshotstore doesn't have cached snapshot information set WritableLayer usage to zero"). Absent, not 0 bytes.
   */
  @Test
  void anUnmeasuredWritableLayerHasNoUsedBytes() throws Exception {
    serve(ContainerdLine.V2_2);
    HcsReading now = reading(0, 5, 100, 150);
    runtime.put(web(reading(0, 1, 10, 20), new WindowsContainer("a", "app", 0, T0, true, now, 4096, 0)));

    RuntimeFilesystemUsage layer = onlyPod().containers().get(0).writableLayer();

    assertThat(layer.mountpoint()).isEqualTo(WindowsRuntimeFake.IMAGE_FS_PATH);
    assertThat(layer.usedBytes()).isNull();
    assertThat(layer.inodesUsed()).isNull();
  }

  @Test
  void before20ThereIsNoCommitAndSoNoUsage() throws Exception {
    serve(ContainerdLine.V1_7);
    runtime.put(web(reading(0, 1, 10, 20), WindowsContainer.running("a", "app", 0, T0, reading(0, 5, 100, 150))));
    PodSample pod = onlyPod();
    assertThat(pod.memory().usageBytes()).isNull();
    assertThat(pod.containers().get(0).memory().usageBytes()).isNull();
    assertThat(pod.containers().get(0).memory().workingSetBytes()).isEqualTo(100 * MIB);
  }

  @Test
  void listContainerStatsOf22CarriesUsageAsCommit() throws Exception {
    serve(ContainerdLine.V2_2);
    reader.useContainerStats();
    runtime.put(web(reading(0, 1, 10, 20), WindowsContainer.running("a", "app", 0, T0, reading(0, 5, 100, 150))));
    PodSample pod = onlyPod();
    assertThat(pod.containers().get(0).memory().usageBytes()).isEqualTo(150 * MIB);
    assertThat(pod.memory().usageBytes()).isEqualTo(150 * MIB);
  }

  // ---- HostProcess zeros ---------------------------------------------------------------------------------------

  /**
   * containerd 1.7 to 2.1 create a sandbox-less (HostProcess) pod's memory with {@code available_bytes} and {@code
   * page_faults} (2.0/2.1: and {@code commit_memory_bytes}) at 0, and nothing adds to them ({@code
   * appendMemoryPodStats} in {@code sandbox_stats_windows.go}): "no figure", not a figure of 0.
   */
  @ParameterizedTest
  @EnumSource(value = ContainerdLine.class, names = {"V1_7", "V2_0", "V2_2"})
  void aHostProcessPodHasNoAvailableBytesPageFaultsOrZeroCommit(ContainerdLine line) throws Exception {
    serve(line);
    runtime.put(
        WindowsPod.hostProcess(
            "h1", "agent", "kube-system", T0,
            List.of(WindowsContainer.running("a", "agent", 0, T0, reading(0, 5, 100, 150)))));

    MemoryUsage memory = onlyPod().memory();

    assertThat(memory.availableBytes()).isNull();
    assertThat(memory.pageFaults()).isNull();
    assertThat(memory.workingSetBytes()).isEqualTo(100 * MIB);
    assertThat(memory.commitBytes()).isEqualTo(line == ContainerdLine.V2_2 ? 150 * MIB : null);
    assertThat(memory.usageBytes()).isEqualTo(line == ContainerdLine.V1_7 ? null : 150 * MIB);
  }

  // ---- Monotonic pod CPU ---------------------------------------------------------------------------------------

  /**
   * containerd sums the sandbox and its RUNNING containers only ({@code toPodSandboxStats} skips containers "not in
   * running state" before {@code appendCPUPodStats}); the pod's cumulative CPU here keeps what a container used before
   * it exited or was replaced by a restart.
   */
  @Test
  void podCpuNeverDropsWhenAContainerExitsOrRestarts() throws Exception {
    serve(ContainerdLine.V2_2);
    WindowsContainer app = WindowsContainer.running("a", "app", 0, T0, reading(0, 50, 100, 150));
    WindowsContainer job = WindowsContainer.running("j", "job", 0, T0, reading(0, 30, 10, 10));
    runtime.put(web(reading(0, 2, 10, 20), app, job));
    PodSample first = onlyPod();
    assertThat(first.cpu().usageCoreNanos()).isEqualTo(82 * SECOND);

    // job exits: containerd's pod figure falls from 82 s to 2 + 60 = 62 s
    runtime.put(web(reading(10, 2, 10, 20), app.withReading(reading(10, 60, 100, 150)), job.exited()));
    PodSample second = onlyPod();
    assertThat(second.cpu().usageCoreNanos()).isEqualTo(92 * SECOND);
    assertThat(second.cpu().usageNanoCores()).as("10 s of app's CPU over 10 s").isEqualTo(SECOND);

    // app restarts as a new container (attempt 1): the old one leaves the sum with its 60 s
    WindowsContainer app1 = WindowsContainer.running("a1", "app", 1, T0 + 15 * SECOND, reading(20, 4, 100, 150));
    runtime.put(web(reading(20, 3, 10, 20), app.withReading(reading(10, 60, 100, 150)).exited(), job.exited(), app1));
    PodSample third = onlyPod();
    assertThat(third.cpu().usageCoreNanos()).isEqualTo((3 + 60 + 30 + 4) * SECOND);
    assertThat(third.cpu().usageNanoCores()).isEqualTo(SECOND / 2);
    assertThat(third.containers()).extracting(ContainerSample::id).containsExactly("a1");
  }

  @Test
  void aContainerMissingForOneRoundIsNotCountedTwice() throws Exception {
    serve(ContainerdLine.V2_2);
    WindowsContainer app = WindowsContainer.running("a", "app", 0, T0, reading(0, 50, 100, 150));
    runtime.put(web(reading(0, 2, 10, 20), app));
    assertThat(onlyPod().cpu().usageCoreNanos()).isEqualTo(52 * SECOND);
    // "no metrics found for container": running, but without a reading this round
    runtime.put(
        web(reading(10, 2, 10, 20),
            new WindowsContainer("a", "app", 0, T0, true, null, 4096, T0)));
    assertThat(onlyPod().cpu().usageCoreNanos()).isEqualTo(52 * SECOND);
    runtime.put(web(reading(20, 2, 10, 20), app.withReading(reading(20, 55, 100, 150))));
    assertThat(onlyPod().cpu().usageCoreNanos()).isEqualTo(57 * SECOND);
  }

  /** The ListContainerStats path sums running containers on every platform; the same carry applies (1.6 here). */
  @Test
  void podCpuOfTheContainerStatsPathNeverDropsEither() throws Exception {
    serve(ContainerdLine.V1_6);
    WindowsContainer app = WindowsContainer.running("a", "app", 0, T0, reading(0, 50, 100, 150));
    WindowsContainer job = WindowsContainer.running("j", "job", 0, T0, reading(0, 30, 10, 10));
    runtime.put(web(reading(0, 2, 10, 20), app, job));
    assertThat(onlyPod().cpu().usageCoreNanos()).isEqualTo(80 * SECOND);
    assertThat(reader.usesContainerStats()).as("1.6 has no Windows ListPodSandboxStats").isTrue();

    runtime.put(web(reading(10, 2, 10, 20), app.withReading(reading(10, 60, 100, 150)), job.exited()));
    PodSample after = onlyPod();
    assertThat(after.cpu().usageCoreNanos()).isEqualTo(90 * SECOND);
    assertThat(after.containers()).extracting(ContainerSample::name).containsExactly("app");
  }

  /**
   * What the exporter's tests use: the fake on a Unix socket, read through the daemon's own transport. Linux only: the
   * fake serves with Netty's epoll transport.
   */
  @Test
  @EnabledOnOs(OS.LINUX)
  void servesWindowsPodsOnAUnixSocket(@TempDir Path dir) throws Exception {
    WindowsRuntimeFake fake = new WindowsRuntimeFake(ContainerdLine.V2_2, Clock.fixed(NOW, ZoneOffset.UTC));
    fake.put(web(reading(0, 2, 10, 20), WindowsContainer.running("a", "app", 0, T0, reading(0, 5, 100, 150))));
    try (WindowsRuntimeFake.Served served = fake.start(dir.resolve("containerd.sock"));
        RuntimeStatsReader unix =
            RuntimeStatsReader.open(
                CriEndpoint.parse(served.endpoint()),
                CriReaderOptions.of(Duration.ofSeconds(5), Clock.systemUTC())
                    .withWindowsHost(OS.WINDOWS.isCurrentOs()))) {
      RuntimeSample sample = unix.sample();
      assertThat(sample.runtimeName()).isEqualTo("containerd v2.2.1");
      assertThat(sample.pods()).singleElement().satisfies(p -> {
        assertThat(p.ref()).isEqualTo(new PodRef("web", "shop", "uid-p1"));
        assertThat(p.memory().usageBytes()).isEqualTo(150 * MIB);
        assertThat(p.containers()).extracting(ContainerSample::image)
            .containsExactly("mcr.microsoft.com/windows/nanoserver:ltsc2022");
      });
    }
  }

  @Test
  void carriedTotalsDieWithThePod() throws Exception {
    serve(ContainerdLine.V2_2);
    runtime.put(web(reading(0, 2, 10, 20), WindowsContainer.running("a", "app", 0, T0, reading(0, 5, 100, 150))));
    reader.sample();
    assertThat(reader.cacheEntries()).containsEntry("pod_cpu_totals", 1L);
    runtime.remove("p1");
    reader.sample();
    ticker.addAndGet(RuntimeStatsReader.CACHE_EXPIRY.plusSeconds(1).toNanos());
    assertThat(reader.cacheEntries()).containsEntry("pod_cpu_totals", 0L);
  }
}
