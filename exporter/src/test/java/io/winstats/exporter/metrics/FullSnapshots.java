package io.winstats.exporter.metrics;

import io.winstats.cri.cgroups.CgroupMemoryUsage;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupSampleBuilder;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.cri.cgroups.KubepodsCgroup;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.cri.cgroups.Pressure;
import io.winstats.cri.cgroups.PressureLine;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.summary.SampleFixtures;
import java.util.List;
import java.util.Objects;

/**
 * Snapshots of a node of each kind with every part of the model its sources fill: the node sample and the one before
 * it, every pod and container of the fixture runtime, and on Linux a cgroup read of each with the kubepods cgroup, once
 * per cgroup version as some files exist on one only (the node's pressure on v2: the kubelet reads none on v1). A
 * collector's series made from them serve each family they declare ({@code CollectorSeriesTest}); a new part of the
 * model is filled here.
 */
final class FullSnapshots {
  private FullSnapshots() {}

  /** The full snapshots of a node of this kind. */
  static List<Snapshot> of(NodePlatform platform) {
    return platform == NodePlatform.WINDOWS
        ? List.of(windows())
        : List.of(linux(CgroupVersion.V2), linux(CgroupVersion.V1));
  }

  static Snapshot windows() {
    return new Snapshot(
        7,
        SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
        SampleFixtures.windowsNode(SampleFixtures.T0, 0, 20_000_000_000L),
        ExpositionGoldenTest.windowsPods(),
        null);
  }

  /** {@link CadvisorContractTest#linuxSnapshot}, with the sample before and the node's and kubepods' cgroup figures. */
  static Snapshot linux(CgroupVersion version) {
    Snapshot snapshot = CadvisorContractTest.linuxSnapshot(version);
    CgroupSample cgroups = Objects.requireNonNull(snapshot.cgroups(), "cgroups");
    CgroupStats aPod = cgroups.pods().values().iterator().next();
    return new Snapshot(
        snapshot.version(),
        snapshot.node(),
        ExpositionGoldenTest.HEALTHY.previousNode(),
        snapshot.runtime(),
        snapshot.runtimeError(),
        CgroupSampleBuilder.builder(cgroups)
            .node(
                version == CgroupVersion.V2
                    ? new NodePressure(pressure(1), pressure(2), pressure(3))
                    : NodePressure.NONE)
            .kubepods(new KubepodsCgroup(aPod, new CgroupMemoryUsage(4_194_304L, 3_145_728L, 8_589_934_592L)))
            .build());
  }

  /** A pressure file's figures, {@code some} and {@code full}, distinct for each {@code resource}. */
  private static Pressure pressure(int resource) {
    return new Pressure(
        new PressureLine(0.5 * resource, 0.25 * resource, 0.125 * resource, 1_000_000L * resource),
        new PressureLine(0.1 * resource, 0.05 * resource, 0.025 * resource, 250_000L * resource));
  }
}
