package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.rounds.CriStatsReaders;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.HcsReading;
import io.winstats.cri.testing.WindowsContainer;
import io.winstats.cri.testing.WindowsPod;
import io.winstats.cri.testing.WindowsRuntimeFake;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.summary.SampleFixtures;
import io.winstats.summary.SummaryAssembler;
import io.winstats.summary.SummaryTypes.FsStats;
import io.winstats.summary.SummaryTypes.PodStats;
import io.winstats.summary.SummaryTypes.Summary;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pods' ephemeral-storage series are the Summary's figures of the same snapshot; the wire text is pinned by
 * pod-ephemeral-storage.prom (ExpositionGoldenTest).
 */
class PodEphemeralStorageSeriesTest {
  private static final long MIB = 1L << 20;
  private static final long SECOND = 1_000_000_000L;

  @Test
  void eachPodsSeriesAreItsSummaryFiguresAtTheSameSnapshot() throws IOException {
    Snapshot snapshot = ExpositionGoldenTest.HEALTHY;
    Summary summary = new SummaryAssembler("node-a", NodePlatform.LINUX).assemble(snapshot.node(), null, snapshot.runtime());

    String text = ExpositionGoldenTest.text(PodEphemeralStorageSeries.series(snapshot));

    assertThat(summary.pods()).hasSize(2);
    for (PodStats pod : summary.pods()) {
      assertThat(text).contains(expectedLines(pod));
    }
    assertThat(text.lines().filter(l -> !l.startsWith("#"))).hasSize(8);
  }

  /** Nothing before the first node sample; nothing for pods before the runtime answers. */
  @Test
  void nothingWithoutANodeSampleOrARuntimeSample() throws IOException {
    Snapshot noNode = new Snapshot(1, null, null, SampleFixtures.runtime(), null);
    Snapshot noRuntime = ExpositionGoldenTest.RUNTIME_DOWN;

    assertThat(ExpositionGoldenTest.text(PodEphemeralStorageSeries.series(noNode))).isEmpty();
    assertThat(ExpositionGoldenTest.text(PodEphemeralStorageSeries.series(noRuntime))).isEmpty();
  }

  /**
   * A force-deleted pod's sandbox may still run beside its successor of the same name: {@code uid} keeps their series
   * apart (client_java refuses a family with two points of one label set, which would fail the whole render).
   */
  @Test
  void twoSandboxesOfOnePodNameAreTwoSeries() throws IOException {
    RuntimeSample r = SampleFixtures.runtime();
    PodSample burner = r.pods().stream().filter(p -> p.ref().name().equals("burner")).findFirst().orElseThrow();
    PodSample successor =
        PodSample.builder(new PodRef("burner", "default", "uid-burner-2"), "sandbox-9")
            .createdAt(SampleFixtures.T1)
            .containers(burner.containers())
            .build();
    List<PodSample> pods = Stream.concat(r.pods().stream(), Stream.of(successor)).toList();
    Snapshot snapshot =
        new Snapshot(3, ExpositionGoldenTest.HEALTHY.node(), null, r.toBuilder().pods(pods).build(), null);

    String text = ExpositionGoldenTest.text(PodEphemeralStorageSeries.series(snapshot));

    assertThat(text)
        .contains(
            "winstats_pod_ephemeral_storage_used_bytes{namespace=\"default\",pod=\"burner\",uid=\"uid-burner\"} 20572.0",
            "winstats_pod_ephemeral_storage_used_bytes{namespace=\"default\",pod=\"burner\",uid=\"uid-burner-2\"} 20572.0");
  }

  /** A source without the root filesystem (a counter log without LogicalDisk): usage only, no capacity, never 0. */
  @Test
  void withoutTheRootFilesystemOnlyTheUsageIsServed() throws IOException {
    NodeSample node = ExpositionGoldenTest.HEALTHY.node().toBuilder().filesystems(List.of()).build();
    Snapshot snapshot = new Snapshot(4, node, null, SampleFixtures.runtime(), null);

    String text = ExpositionGoldenTest.text(PodEphemeralStorageSeries.series(snapshot));

    assertThat(text)
        .contains("winstats_pod_ephemeral_storage_used_bytes{", "winstats_pod_ephemeral_storage_inodes_used{")
        .doesNotContain("_capacity_bytes{", "winstats_pod_ephemeral_storage_inodes{");
  }

  @Test
  void rendersOncePerSnapshotVersion() {
    Snapshot[] current = {ExpositionGoldenTest.HEALTHY};
    PodEphemeralStorageSeries collector = new PodEphemeralStorageSeries(() -> current[0]);
    MetricSnapshots first = collector.collect();

    assertThat(collector.collect()).isSameAs(first);
    current[0] = ExpositionGoldenTest.RUNTIME_DOWN;
    assertThat(collector.collect()).isNotSameAs(first);
    assertThat(collector.getMetricFamilyDescriptors()).hasSize(4);
  }

  /**
   * A Windows node: pods read through CRI from the Windows runtime fake as containerd 2.2 serves them (each
   * container's writable layer is the size its snapshot store cached, {@code ContainerdWindowsStats}), a
   * process-isolated pod with an exited container and a HostProcess pod. Each pod's usage is its running containers'
   * layers; the Windows snapshotter counts no inodes, so no inode series; the capacity is the node's C: volume.
   */
  @Test
  void windowsPodsThroughCriAreTheirRunningContainersLayers(@TempDir Path dir) throws Exception {
    Instant now = Instant.parse("2026-11-23T08:00:00Z");
    Clock clock = Clock.fixed(now, ZoneOffset.UTC);
    long t0 = now.toEpochMilli() * 1_000_000 - 5 * SECOND;
    HcsReading reading = new HcsReading(t0, SECOND, 10 * MIB, 20 * MIB);
    WindowsRuntimeFake runtime = new WindowsRuntimeFake(ContainerdLine.V2_2, clock, dir.toString());
    runtime.put(
        WindowsPod.isolated(
            "sandbox-web",
            "web",
            "shop",
            t0 - 60 * SECOND,
            reading,
            List.of(
                layer("c-app", "app", 7 * MIB, reading),
                layer("c-sidecar", "sidecar", 3 * MIB, reading),
                layer("c-init", "init", 50 * MIB, reading).exited())));
    runtime.put(
        WindowsPod.hostProcess(
            "sandbox-agent", "agent", "kube-system", t0 - 60 * SECOND, List.of(layer("c-agent", "agent", MIB, reading))));
    RuntimeSample pods;
    try (WindowsRuntimeFake.Served served = runtime.start(dir.resolve("containerd.sock"));
        CriStatsReader reader =
            CriStatsReaders.open(
                CriEndpoint.parse(served.endpoint()), CriReaderOptions.of(Duration.ofSeconds(5), clock))) {
      pods = reader.sample();
    }
    NodeSample node = SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L);
    Snapshot snapshot = new Snapshot(1, node, null, pods, null);
    Summary summary = new SummaryAssembler("win-node-a", NodePlatform.WINDOWS).assemble(node, null, pods);

    String text = ExpositionGoldenTest.text(PodEphemeralStorageSeries.series(snapshot));

    for (PodStats pod : summary.pods()) {
      assertThat(text).contains(expectedLines(pod));
    }
    assertThat(text)
        .contains(
            "winstats_pod_ephemeral_storage_used_bytes{namespace=\"shop\",pod=\"web\",uid=\"uid-sandbox-web\"} "
                + (double) (10 * MIB),
            "winstats_pod_ephemeral_storage_used_bytes{namespace=\"kube-system\",pod=\"agent\","
                + "uid=\"uid-sandbox-agent\"} " + (double) MIB,
            "winstats_pod_ephemeral_storage_capacity_bytes{namespace=\"shop\",pod=\"web\",uid=\"uid-sandbox-web\"} "
                + (double) node.filesystems().get(0).capacityBytes())
        .doesNotContain("_inodes");
  }

  /** A running container whose snapshot store cached {@code bytes} for its writable layer at the reading's time. */
  private static WindowsContainer layer(String id, String name, long bytes, HcsReading reading) {
    return new WindowsContainer(id, name, 0, reading.timestampNanos() - 50 * SECOND, true, reading, bytes, reading.timestampNanos());
  }

  /** The lines a pod's summary {@code ephemeral-storage} makes, one per figure it has. */
  private static String[] expectedLines(PodStats pod) {
    FsStats s = pod.ephemeralStorage();
    assertThat(s).as("ephemeral-storage of %s", pod.podRef()).isNotNull();
    String labels =
        "{namespace=\"" + pod.podRef().namespace() + "\",pod=\"" + pod.podRef().name() + "\",uid=\""
            + pod.podRef().uid() + "\"} ";
    List<String> lines = new ArrayList<>();
    add(lines, "winstats_pod_ephemeral_storage_used_bytes" + labels, s.usedBytes());
    add(lines, "winstats_pod_ephemeral_storage_capacity_bytes" + labels, s.capacityBytes());
    add(lines, "winstats_pod_ephemeral_storage_inodes_used" + labels, s.inodesUsed());
    add(lines, "winstats_pod_ephemeral_storage_inodes" + labels, s.inodes());
    return lines.toArray(String[]::new);
  }

  private static void add(List<String> lines, String prefix, @Nullable Long value) {
    if (value != null) {
      lines.add(prefix + (double) value + "\n");
    }
  }
}
