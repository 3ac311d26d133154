package io.winstats.exporter.bench;

import io.winstats.cri.ContainerLogUsage;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodRef;
import io.winstats.cri.PodSample;
import io.winstats.cri.ResourceSpec;
import io.winstats.cri.RuntimeFilesystemUsage;
import io.winstats.cri.RuntimeSample;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.summary.SampleFixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A full node for benchmarks: the kubelet's default maximum of 110 pods, two containers each, every field filled as
 * containerd fills it on Linux. Values are made up; shapes and label lengths are realistic.
 */
public final class NodeScale {
  private NodeScale() {}

  /** A snapshot of a node with {@code pods} pods of {@code containersPerPod} containers. */
  public static Snapshot snapshot(int pods, int containersPerPod) {
    Instant t1 = SampleFixtures.T1;
    List<PodSample> all = new ArrayList<>(pods);
    for (int p = 0; p < pods; p++) {
      String uid = String.format("4f1c9a2e-%04d-4b7a-9d3e-0c5e8f6a%04d", p, p);
      List<ContainerSample> containers = new ArrayList<>(containersPerPod);
      for (int c = 0; c < containersPerPod; c++) {
        String id = String.format("%064x", (long) p * 1000 + c + 0xabcdef0000L);
        String name = c == 0 ? "app" : "sidecar-" + c;
        containers.add(
            ContainerSample.builder(id, name)
                .image("registry.example.com/team/service-" + p + ":v1." + c)
                .createdAt(t1.minusSeconds(3600 + p))
                .state(ContainerSample.State.RUNNING)
                .labels(Map.of("io.kubernetes.container.name", name))
                .cpu(new CpuUsage(t1, 12_345_678_901L + p * 1000L + c, 25_000_000L + p))
                .memory(
                    MemoryUsage.builder(t1)
                        .workingSetBytes(50_000_000L + p)
                        .availableBytes(200_000_000L)
                        .usageBytes(60_000_000L)
                        .rssBytes(40_000_000L)
                        .pageFaults(12_345L)
                        .majorPageFaults(12L)
                        .build())
                .writableLayer(
                    RuntimeFilesystemUsage.builder(t1, SampleFixtures.LINUX_SNAPSHOTS)
                        .usedBytes(81_920L)
                        .inodesUsed(20L)
                        .capacity(SampleFixtures.LINUX_DISK)
                        .build())
                .logs(new ContainerLogUsage(t1, 40_960L + c, 1L))
                .resources(new ResourceSpec(100_000L, 50_000L, 512L, 268_435_456L))
                .build());
      }
      all.add(
          PodSample.builder(
                  new PodRef("service-" + p + "-7c9d8f6b5-x2k4j", "namespace-" + (p % 12), uid),
                  String.format("%064x", (long) p + 0xfedcba0000L))
              .createdAt(t1.minusSeconds(3600 + p))
              .labels(Map.of("app", "service-" + p))
              .hostProcess(false)
              .cpu(new CpuUsage(t1, 24_691_357_802L + p, 50_000_000L))
              .memory(
                  MemoryUsage.builder(t1)
                      .workingSetBytes(100_000_000L)
                      .usageBytes(120_000_000L)
                      .rssBytes(80_000_000L)
                      .pageFaults(24_690L)
                      .majorPageFaults(24L)
                      .build())
              .network(new NetworkUsage(t1, List.of(InterfaceUsage.builder("eth0")
                  .rxBytes(123_456_789L)
                  .rxErrors(0L)
                  .txBytes(98_765_432L)
                  .txErrors(0L)
                  .build())))
              .processCount(4L)
              .containers(containers)
              .build());
    }
    RuntimeSample runtime =
        RuntimeSample.builder(t1, "containerd 1.6.20~ds1").pods(all).filesystems(SampleFixtures.runtime().filesystems()).build();
    return new Snapshot(
        42,
        SampleFixtures.linuxNode(t1, 10_000_000_000L, 25_000_000_000L),
        SampleFixtures.linuxNode(SampleFixtures.T0, 0, 20_000_000_000L),
        runtime,
        null);
  }
}
