package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.BlockDeviceIo;
import io.winstats.cri.cgroups.CgroupCpu;
import io.winstats.cri.cgroups.CgroupMemory;
import io.winstats.cri.cgroups.CgroupProcesses;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.cri.cgroups.Pressure;
import io.winstats.cri.cgroups.PressureLine;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.summary.SampleFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cAdvisor contract as cri-tools pins it (cri-tools#2017): every one of its 56 {@code container_*} names is either
 * served on a node of each kind or listed here as absent with the reason. Never a silently shorter list: a name that
 * starts being served fails this test until it leaves the absent list, and a name that stops being served fails it
 * until it joins the list with a reason.
 */
class CadvisorContractTest {
  private static final String NOT_IN_CRI_PACKETS =
      "CRI's NetworkUsage carries bytes, errors and drops but no packet counts; the pod's /proc/<pid>/net/dev is not"
          + " read yet";
  private static final String INODES =
      "the writable layer's filesystem inodes are read (FilesystemCapacity) but CadvisorSeriesCollector does not"
          + " emit container_fs_inodes_* yet";
  private static final String HUGETLB =
      "the hugetlb controller is not read: the hosts this is tested on mount none and have no hugepages";
  private static final String SPEC_FROM_CGROUP =
      "CRI's LinuxContainerResources has no reservation or swap limit; memory.soft_limit_in_bytes/memory.low and"
          + " memory.memsw.limit_in_bytes/memory.swap.max are not read yet";
  private static final String V1_PSI =
      "cgroup v1 has no per-cgroup pressure files (the unified hierarchy of a hybrid host holds no container cgroups)";

  enum NodeKind {
    LINUX_CGROUP_V2(CgroupVersion.V2),
    LINUX_CGROUP_V1(CgroupVersion.V1);

    final CgroupVersion version;

    NodeKind(CgroupVersion version) {
      this.version = version;
    }
  }

  /** The names of the pinned list not served on a node of {@code kind}, with why. */
  private static Map<String, String> absent(NodeKind kind) {
    Map<String, String> absent = new TreeMap<>();
    absent.put("container_network_receive_packets_total", NOT_IN_CRI_PACKETS);
    absent.put("container_network_transmit_packets_total", NOT_IN_CRI_PACKETS);
    absent.put("container_fs_inodes_free", INODES);
    absent.put("container_fs_inodes_total", INODES);
    absent.put("container_hugetlb_usage_bytes", HUGETLB);
    absent.put("container_hugetlb_max_usage_bytes", HUGETLB);
    absent.put("container_spec_memory_reservation_limit_bytes", SPEC_FROM_CGROUP);
    absent.put("container_spec_memory_swap_limit_bytes", SPEC_FROM_CGROUP);
    if (kind == NodeKind.LINUX_CGROUP_V1) {
      for (String resource : List.of("cpu", "memory", "io")) {
        absent.put("container_pressure_" + resource + "_stalled_seconds_total", V1_PSI);
        absent.put("container_pressure_" + resource + "_waiting_seconds_total", V1_PSI);
      }
    }
    return absent;
  }

  @ParameterizedTest
  @EnumSource(NodeKind.class)
  void everyPinnedNameIsServedOrAbsentWithAReason(NodeKind kind) throws IOException {
    Set<String> pinned = pinned();
    Snapshot snapshot = linuxSnapshot(kind.version);
    Set<String> served = new TreeSet<>();
    served.addAll(names(CadvisorSeriesCollector.series(snapshot, false)));
    served.addAll(names(CgroupSeriesCollector.series(snapshot)));

    Set<String> notServed = new TreeSet<>(pinned);
    notServed.removeAll(served);
    assertThat(pinned).hasSize(56);
    assertThat(notServed).as("pinned names not served on %s", kind).isEqualTo(absent(kind).keySet());
    assertThat(absent(kind).keySet()).as("every absent name is in the pinned list").isSubsetOf(pinned);
  }

  private static Set<String> pinned() throws IOException {
    try (InputStream in =
        CadvisorContractTest.class.getResourceAsStream("/cadvisor/cri-tools-expected-metric-descriptors.txt")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      Set<String> names = new TreeSet<>();
      text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).forEach(l -> names.add(l.strip()));
      return names;
    }
  }

  /** Wire names: client_java keeps a counter's name without {@code _total}. */
  private static Set<String> names(MetricSnapshots snapshots) {
    Set<String> names = new TreeSet<>();
    for (MetricSnapshot s : snapshots) {
      if (s.getDataPoints().isEmpty()) {
        continue;
      }
      String name = s.getMetadata().getPrometheusName();
      names.add(s instanceof io.prometheus.metrics.model.snapshots.CounterSnapshot ? name + "_total" : name);
    }
    return names;
  }

  /** The fixture runtime with a full cgroup read for every pod and container, as a Linux node of that version has. */
  static Snapshot linuxSnapshot(CgroupVersion version) {
    RuntimeSample runtime = SampleFixtures.runtime();
    Map<String, CgroupStats> containers = new HashMap<>();
    Map<String, CgroupStats> pods = new HashMap<>();
    for (PodSample pod : runtime.pods()) {
      pods.put(pod.sandboxId(), stats("/kubepods/pod" + pod.ref().uid(), version));
      for (ContainerSample c : pod.containers()) {
        containers.put(c.id(), stats("/kubepods/pod" + pod.ref().uid() + "/" + c.id(), version));
      }
    }
    return new Snapshot(
        7,
        SampleFixtures.linuxNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L),
        null,
        runtime,
        null,
        new CgroupSample(
            SampleFixtures.T1, version, containers, pods, List.of(), new NodePressure(null, null, null)));
  }

  private static CgroupStats stats(String path, CgroupVersion version) {
    @Nullable Pressure psi =
        version == CgroupVersion.V2
            ? new Pressure(new PressureLine(0.1, 0.2, 0.3, 1_500_000), new PressureLine(0, 0, 0, 500_000))
            : null;
    return new CgroupStats(
        path,
        new CgroupCpu(3_000_000_000L, 1_000_000_000L, 100, 40, 2_000_000_000L),
        new CgroupMemory(1_048_576, 2_097_152, 4_096, 0L, 65_536L, 3L, 5_242_880L, 1_000, 10, 1L),
        List.of(new BlockDeviceIo("/dev/vda", 254, 0, 40_960, 1_048_576, 10, 256)),
        new CgroupProcesses(2, 3L, 0L, 7, 1, 1_048_576L),
        psi,
        psi,
        psi);
  }
}
