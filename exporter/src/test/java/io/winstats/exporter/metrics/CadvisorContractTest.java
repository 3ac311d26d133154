package io.winstats.exporter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriReaderOptions;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.BlockDeviceIo;
import io.winstats.cri.cgroups.CgroupCpu;
import io.winstats.cri.cgroups.CgroupMemory;
import io.winstats.cri.cgroups.CgroupProcesses;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupSpec;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.cri.cgroups.HugePages;
import io.winstats.cri.cgroups.NetDevInterface;
import io.winstats.cri.cgroups.NodePressure;
import io.winstats.cri.cgroups.Pressure;
import io.winstats.cri.cgroups.PressureLine;
import io.winstats.cri.rounds.CriStatsReaders;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.HcsReading;
import io.winstats.cri.testing.WindowsContainer;
import io.winstats.cri.testing.WindowsPod;
import io.winstats.cri.testing.WindowsRuntimeFake;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.replay.ReplayNodeSource;
import io.winstats.summary.SampleFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cAdvisor contract as cri-tools pins it (cri-tools#2017): every one of its 56 {@code container_*} names is either
 * served for the pods and containers of a node of each kind or listed here as absent with the reason. Never a silently
 * shorter list: a name that starts being served fails this test until it leaves the absent list, and a name that stops
 * being served fails it until it joins the list with a reason. Only pod and container series count: a name the node's
 * root ({@code id="/"}) alone carries is not served for containers.
 *
 * <p>Linux nodes are the fixture runtime with a full cgroup read of each version. Windows nodes are the collector chain
 * a Windows daemon runs: {@link CriStatsReader} reading {@link WindowsRuntimeFake} (Windows pods as containerd of that
 * line fills their stats) over a Unix socket, and {@link ReplayNodeSource} replaying a real Windows counter log.
 */
class CadvisorContractTest {
  private static final String V2_HUGETLB_PEAK =
      "cgroup v2 keeps no huge page peak (hugetlb.<size>.current and .events only); cAdvisor serves a constant 0";
  private static final String V1_PSI =
      "the kubelet and cAdvisor report PSI on cgroup v2 only (runc's v1 manager reads no pressure file), so a hybrid"
          + " v1 host's unified hierarchy is not read";

  /** Windows has nothing the name could measure. */
  private static final String NO_WINDOWS_EQUIVALENT = "no Windows equivalent: ";

  /** Windows knows the figure, but neither CRI's Windows stats (as containerd fills them) nor PDH hand it over. */
  private static final String NOT_IN_WINDOWS_CRI = "not in containerd's Windows CRI stats: ";

  private static final Path PERFMON =
      Path.of("..", "collector-perfcounters", "src", "test", "resources", "perfmon").toAbsolutePath().normalize();
  private static final String TIERRA_LOG = "tierra-win10-ja-process-memory-network.first200.csv";

  enum NodeKind {
    LINUX_CGROUP_V2(CgroupVersion.V2, null),
    LINUX_CGROUP_V1(CgroupVersion.V1, null),
    WINDOWS_CONTAINERD_2_2(null, ContainerdLine.V2_2),
    WINDOWS_CONTAINERD_1_7(null, ContainerdLine.V1_7);

    final @Nullable CgroupVersion version;
    final @Nullable ContainerdLine windowsLine;

    NodeKind(@Nullable CgroupVersion version, @Nullable ContainerdLine windowsLine) {
      this.version = version;
      this.windowsLine = windowsLine;
    }

    boolean windows() {
      return windowsLine != null;
    }
  }

  /** The names of the pinned list not served on a node of {@code kind}, with why. */
  private static Map<String, String> absent(NodeKind kind) {
    if (kind.windows()) {
      return windowsAbsent(kind.windowsLine);
    }
    Map<String, String> absent = new TreeMap<>();
    if (kind == NodeKind.LINUX_CGROUP_V2) {
      absent.put("container_hugetlb_max_usage_bytes", V2_HUGETLB_PEAK);
    }
    if (kind == NodeKind.LINUX_CGROUP_V1) {
      for (String resource : List.of("cpu", "memory", "io")) {
        absent.put("container_pressure_" + resource + "_stalled_seconds_total", V1_PSI);
        absent.put("container_pressure_" + resource + "_waiting_seconds_total", V1_PSI);
      }
    }
    return absent;
  }

  /**
   * A Windows node's absent names. What a Windows container's statistics hold is hcsshim's {@code
   * stats.Statistics.Windows} (Processor: total/user/kernel runtime; Memory: commit, commit peak, private working set;
   * Storage: read/write counts and bytes) and HNS's endpoint statistics (bytes, packets, drops); containerd copies the
   * total runtime, private working set, commit, endpoint bytes and drops, the pids count and the snapshot size into CRI
   * ({@code internal/cri/server/sandbox_stats_windows.go}, {@code container_stats_list.go}).
   */
  private static Map<String, String> windowsAbsent(ContainerdLine line) {
    Map<String, String> absent = new TreeMap<>();
    String cfs =
        NO_WINDOWS_EQUIVALENT
            + "no CFS bandwidth control; a job object's CPU rate cap counts no periods or throttled time";
    absent.put("container_cpu_cfs_periods_total", cfs);
    absent.put("container_cpu_cfs_throttled_periods_total", cfs);
    absent.put("container_cpu_cfs_throttled_seconds_total", cfs);
    String split =
        NOT_IN_WINDOWS_CRI
            + "HCS counts user and kernel runtime, but WindowsCpuUsage carries only usage_core_nano_seconds"
            + " (the total)";
    absent.put("container_cpu_user_seconds_total", split);
    absent.put("container_cpu_system_seconds_total", split);
    String hugetlb = NO_WINDOWS_EQUIVALENT + "no hugetlb controller; large pages are not accounted per container";
    absent.put("container_hugetlb_usage_bytes", hugetlb);
    absent.put("container_hugetlb_max_usage_bytes", hugetlb);
    for (String resource : List.of("cpu", "memory", "io")) {
      String psi = NO_WINDOWS_EQUIVALENT + "no pressure stall information (PSI is a Linux kernel feature)";
      absent.put("container_pressure_" + resource + "_stalled_seconds_total", psi);
      absent.put("container_pressure_" + resource + "_waiting_seconds_total", psi);
    }
    absent.put("container_ulimits_soft", NO_WINDOWS_EQUIVALENT + "no rlimits (RLIMIT_NOFILE)");
    absent.put(
        "container_threads_max",
        NO_WINDOWS_EQUIVALENT + "no pids.max; a job object limits active processes, not threads");
    String memorySplit =
        NO_WINDOWS_EQUIVALENT
            + "a container's memory is commit and working set; HCS splits out no page cache, mapped files or kernel"
            + " memory";
    absent.put("container_memory_cache", memorySplit);
    absent.put("container_memory_mapped_file", memorySplit);
    absent.put("container_memory_kernel_usage", memorySplit);
    absent.put(
        "container_memory_swap",
        NO_WINDOWS_EQUIVALENT + "no per-container swap; the paging file backs commit, which is served as usage");
    absent.put(
        "container_memory_rss",
        NOT_IN_WINDOWS_CRI
            + "WindowsMemoryUsage has no rss_bytes; the private working set, the nearest figure, is served as"
            + " container_memory_working_set_bytes");
    absent.put(
        "container_memory_max_usage_bytes",
        NOT_IN_WINDOWS_CRI + "HCS's commit peak (MemoryUsageCommitPeakBytes) is not copied into WindowsMemoryUsage");
    absent.put(
        "container_memory_failcnt",
        NO_WINDOWS_EQUIVALENT + "a job object counts no hits of its memory limit; an allocation over it fails");
    absent.put(
        "container_memory_failures_total",
        NOT_IN_WINDOWS_CRI
            + "containerd never fills WindowsMemoryUsage.page_faults (up to 2.1 a sandbox-less pod gets a filler 0)");
    absent.put(
        "container_oom_events_total",
        NO_WINDOWS_EQUIVALENT + "no OOM killer; a job object at its commit limit fails the allocation");
    String storage =
        NOT_IN_WINDOWS_CRI
            + "HCS counts a container's storage reads and writes (Statistics.Storage), but CRI's Windows stats carry"
            + " no IO";
    absent.put("container_fs_reads_bytes_total", storage);
    absent.put("container_fs_writes_bytes_total", storage);
    absent.put("container_fs_reads_total", storage);
    absent.put("container_fs_writes_total", storage);
    absent.put(
        "container_blkio_device_usage_total",
        NO_WINDOWS_EQUIVALENT + "no blkio controller; HCS's storage counts are per container, not per block device");
    String processes =
        NOT_IN_WINDOWS_CRI
            + "WindowsProcessUsage carries the process count only; the container's threads and handles are not read";
    absent.put("container_threads", processes);
    absent.put("container_file_descriptors", processes);
    absent.put("container_sockets", processes);
    String packets =
        NOT_IN_WINDOWS_CRI
            + "HNS counts an endpoint's packets, but containerd's windowsNetworkUsage copies only bytes and drops"
            + " (WindowsNetworkInterfaceUsage has no packet field)";
    absent.put("container_network_receive_packets_total", packets);
    absent.put("container_network_transmit_packets_total", packets);
    String errors =
        NOT_IN_WINDOWS_CRI
            + "WindowsNetworkInterfaceUsage has no error fields and HNS endpoint statistics count none (the node root's"
            + " come from PDH)";
    absent.put("container_network_receive_errors_total", errors);
    absent.put("container_network_transmit_errors_total", errors);
    String inodes =
        NO_WINDOWS_EQUIVALENT + "NTFS has no inode counts (WindowsFilesystemUsage has no inodes_used)";
    absent.put("container_fs_inodes_free", inodes);
    absent.put("container_fs_inodes_total", inodes);
    String spec =
        NOT_IN_WINDOWS_CRI
            + "this daemon maps ContainerStatus.resources.linux only; WindowsContainerResources (cpu_shares,"
            + " cpu_maximum, memory_limit_in_bytes) is not read";
    absent.put("container_spec_cpu_period", spec);
    absent.put("container_spec_cpu_quota", spec);
    absent.put("container_spec_cpu_shares", spec);
    absent.put("container_spec_memory_limit_bytes", spec);
    String specNone =
        NO_WINDOWS_EQUIVALENT + "WindowsContainerResources has no memory reservation (soft limit) or swap limit";
    absent.put("container_spec_memory_reservation_limit_bytes", specNone);
    absent.put("container_spec_memory_swap_limit_bytes", specNone);
    if (!line.reportsCommit()) {
      absent.put(
          "container_memory_usage_bytes",
          NOT_IN_WINDOWS_CRI
              + "containerd before 2.0 sends no commit_memory_bytes (containerd#8951) and no usage_bytes, and usage is"
              + " commit on Windows");
    }
    return absent;
  }

  @ParameterizedTest
  @EnumSource(NodeKind.class)
  void everyPinnedNameIsServedOrAbsentWithAReason(NodeKind kind, @TempDir Path dir) throws Exception {
    Set<String> pinned = pinned();
    Set<String> served = containerNames(series(kind, dir));

    Set<String> notServed = new TreeSet<>(pinned);
    notServed.removeAll(served);
    assertThat(pinned).hasSize(56);
    assertThat(notServed).as("pinned names not served on %s", kind).isEqualTo(absent(kind).keySet());
    assertThat(absent(kind).keySet()).as("every absent name is in the pinned list").isSubsetOf(pinned);
  }

  /**
   * docs/CADVISOR.md states the contract: its tables of pinned names not served (Linux: a column per cgroup version;
   * Windows: one table, a row marked "(1.7 only)" for the older line) name exactly the names this test finds absent on
   * each kind of node, so the page cannot drift from what is served. Names in the tables may be written {@code
   * a_{b,c}_d} or {@code a_*} (matched against the pinned list).
   */
  @ParameterizedTest
  @EnumSource(NodeKind.class)
  void theDocsListExactlyTheNamesNotServed(NodeKind kind) throws IOException {
    List<String> page = Files.readAllLines(CADVISOR_DOC, StandardCharsets.UTF_8);
    Set<String> documented = new TreeSet<>();
    if (kind.windows()) {
      for (List<String> row : tableRows(page, "### Absent, and why")) {
        boolean olderLineOnly = row.get(0).contains("(1.7 only)");
        if (!olderLineOnly || !kind.windowsLine.reportsCommit()) {
          documented.addAll(names(row.get(0)));
        }
      }
    } else {
      int column = kind == NodeKind.LINUX_CGROUP_V2 ? 1 : 2;
      for (List<String> row : tableRows(page, "## Pinned names not served, and why (Linux nodes)")) {
        if (row.get(column).startsWith("absent")) {
          documented.addAll(names(row.get(0)));
        }
      }
    }
    assertThat(documented)
        .as("names docs/CADVISOR.md gives as not served on %s", kind)
        .isEqualTo(absent(kind).keySet());
  }

  private static final Path CADVISOR_DOC =
      Path.of("..", "docs", "CADVISOR.md").toAbsolutePath().normalize();

  /** The cells of each body row of the first table after {@code heading}. */
  private static List<List<String>> tableRows(List<String> page, String heading) {
    int at = page.indexOf(heading);
    assertThat(at).as("heading %s in docs/CADVISOR.md", heading).isNotNegative();
    List<List<String>> rows = new ArrayList<>();
    boolean inTable = false;
    for (String line : page.subList(at + 1, page.size())) {
      if (!line.startsWith("|")) {
        if (inTable) {
          break;
        }
        continue;
      }
      inTable = true;
      List<String> cells = new ArrayList<>();
      for (String cell : line.substring(1, line.lastIndexOf('|')).split("\\|")) {
        cells.add(cell.strip());
      }
      if (!cells.get(0).equals("name") && !cells.get(0).startsWith("---")) {
        rows.add(cells);
      }
    }
    return rows;
  }

  /** The pinned names a table cell names: each {@code `name`} with its {@code {a,b}} groups and {@code *} expanded. */
  private static Set<String> names(String cell) throws IOException {
    Set<String> names = new TreeSet<>();
    java.util.regex.Matcher code = java.util.regex.Pattern.compile("`([^`]+)`").matcher(cell);
    while (code.find()) {
      for (String name : expandBraces(code.group(1))) {
        if (name.contains("*")) {
          String regex = java.util.regex.Pattern.quote(name).replace("*", "\\E.*\\Q");
          pinned().stream().filter(n -> n.matches(regex)).forEach(names::add);
        } else {
          names.add(name);
        }
      }
    }
    assertThat(names).as("names in %s", cell).isNotEmpty();
    return names;
  }

  private static List<String> expandBraces(String name) {
    int open = name.indexOf('{');
    if (open < 0) {
      return List.of(name);
    }
    int close = name.indexOf('}', open);
    List<String> expanded = new ArrayList<>();
    for (String choice : name.substring(open + 1, close).split(",")) {
      expanded.addAll(expandBraces(name.substring(0, open) + choice + name.substring(close + 1)));
    }
    return expanded;
  }

  /** Every series of the served names, for a node of {@code kind}. */
  private static List<MetricSnapshot> series(NodeKind kind, Path dir) throws Exception {
    Snapshot snapshot =
        kind.windows() ? windowsSnapshot(kind.windowsLine, dir).snapshot() : linuxSnapshot(kind.version);
    List<MetricSnapshot> all = new ArrayList<>();
    CadvisorSeriesCollector.series(snapshot, kind.windows() ? NodePlatform.WINDOWS : NodePlatform.LINUX)
        .forEach(all::add);
    CgroupSeriesCollector.series(snapshot).forEach(all::add);
    return all;
  }

  /**
   * The Windows series carry cAdvisor's labels and the runtime's figures: the pod's process count, commit as usage
   * (2.0+), the private working set, the writable layer on the snapshotter's filesystem, the endpoint's drops.
   */
  @ParameterizedTest
  @EnumSource(value = NodeKind.class, names = {"WINDOWS_CONTAINERD_2_2", "WINDOWS_CONTAINERD_1_7"})
  void windowsSeriesCarryCadvisorsLabelsAndTheRuntimesFigures(NodeKind kind, @TempDir Path dir) throws Exception {
    WindowsNode node = windowsSnapshot(kind.windowsLine, dir);
    List<MetricSnapshot> series = new ArrayList<>();
    CadvisorSeriesCollector.series(node.snapshot(), NodePlatform.WINDOWS).forEach(series::add);
    Labels web = CadvisorSeriesCollector.labels("", "/kubepods/poduid-sandbox-web", "", "", "shop", "web");
    Labels agent = CadvisorSeriesCollector.labels("", "/kubepods/poduid-sandbox-agent", "", "", "kube-system", "agent");
    Labels app =
        CadvisorSeriesCollector.labels(
            "app", "/kubepods/poduid-sandbox-web/c-app", WINDOWS_IMAGE, "c-app", "shop", "web");

    assertThat(value(series, "container_processes", web)).as("sandbox + 2 running containers").isEqualTo(3.0);
    assertThat(value(series, "container_processes", agent))
        .as("HostProcess: the faked sandbox task's one process (wcowPodSandboxTask.Pids) + its one container")
        .isEqualTo(2.0);
    assertThat(value(series, "container_memory_working_set_bytes", app)).isEqualTo(100.0 * MIB);
    assertThat(value(series, "container_memory_usage_bytes", app))
        .as("commit")
        .isEqualTo(kind.windowsLine.reportsCommit() ? Double.valueOf(150.0 * MIB) : null);
    assertThat(value(series, "container_fs_usage_bytes", app.add("device", node.layers().toString())))
        .isEqualTo(4096.0);
    assertThat(value(series, "container_fs_limit_bytes", app.add("device", node.layers().toString())))
        .isEqualTo((double) Files.getFileStore(node.layers()).getTotalSpace());
    Labels endpoint = web.add("interface", "ep-sandbox-web");
    assertThat(value(series, "container_network_receive_bytes_total", endpoint)).isEqualTo(1000.0);
    assertThat(value(series, "container_network_receive_packets_dropped_total", endpoint)).isEqualTo(1.0);
    assertThat(value(series, "container_network_transmit_packets_dropped_total", endpoint)).isEqualTo(2.0);

    Set<String> pinned = pinned();
    for (MetricSnapshot s : series) {
      if (!pinned.contains(wireName(s))) {
        continue;
      }
      for (DataPointSnapshot p : s.getDataPoints()) {
        Set<String> names = new TreeSet<>();
        p.getLabels().forEach(l -> names.add(l.getName()));
        assertThat(names)
            .as("labels of %s %s", wireName(s), p.getLabels())
            .containsAll(List.of("container", "id", "image", "name", "namespace", "pod"));
        names.removeAll(List.of("container", "id", "image", "name", "namespace", "pod"));
        assertThat(names).as("extra labels of %s", wireName(s)).isSubsetOf("cpu", "interface", "device");
      }
    }
  }

  /**
   * On Linux a pod's packets, and its drops (CRI's Linux interfaces have none), come from the pause process's net/dev
   * with the pod's labels; {@code lo} is left out as cAdvisor leaves it out.
   */
  @Test
  void linuxPodPacketsAndDropsComeFromThePodsNetDev() {
    Snapshot snapshot = linuxSnapshot(CgroupVersion.V2);
    List<MetricSnapshot> series = toList(CadvisorSeriesCollector.series(snapshot, NodePlatform.LINUX));
    PodSample burner = snapshot.runtime().pods().get(0);
    Labels eth0 =
        CadvisorSeriesCollector.labels(
                "", "/kubepods/pod" + burner.ref().uid(), "", "", burner.ref().namespace(), burner.ref().name())
            .add("interface", "eth0");

    assertThat(value(series, "container_network_receive_packets_total", eth0)).isEqualTo(13.0);
    assertThat(value(series, "container_network_transmit_packets_total", eth0)).isEqualTo(7.0);
    assertThat(value(series, "container_network_receive_packets_dropped_total", eth0)).isEqualTo(1.0);
    assertThat(value(series, "container_network_transmit_packets_dropped_total", eth0)).isEqualTo(2.0);
    for (MetricSnapshot s : series) {
      for (DataPointSnapshot p : s.getDataPoints()) {
        assertThat(p.getLabels().get("interface")).as(wireName(s)).isNotEqualTo("lo");
      }
    }
  }

  /**
   * The limits CRI does not carry and the huge pages, per cgroup, with cAdvisor's values: a reservation in bytes, an
   * unlimited swap limit (v1's 9223372036854771712, v2's max) as 0 (its specMemoryValue), usage and peak per page size.
   * Each of these four names was absent on every Linux node before issue 23.
   */
  @ParameterizedTest
  @EnumSource(value = NodeKind.class, names = {"LINUX_CGROUP_V1", "LINUX_CGROUP_V2"})
  void limitsAndHugePagesCarryCadvisorsValues(NodeKind kind) {
    Snapshot snapshot = linuxSnapshot(kind.version);
    List<MetricSnapshot> series = toList(CgroupSeriesCollector.series(snapshot));
    PodSample pod = snapshot.runtime().pods().get(0);
    ContainerSample c = pod.containers().get(0);
    Labels l =
        CadvisorSeriesCollector.labels(
            c.name(), CadvisorSeriesCollector.podCgroup(pod) + "/" + c.id(), c.image(), c.id(), pod.ref().namespace(),
            pod.ref().name());
    Labels podLabels =
        CadvisorSeriesCollector.labels(
            "", CadvisorSeriesCollector.podCgroup(pod), "", "", pod.ref().namespace(), pod.ref().name());

    assertThat(value(series, "container_spec_memory_reservation_limit_bytes", l)).isEqualTo(33_554_432.0);
    assertThat(value(series, "container_spec_memory_reservation_limit_bytes", podLabels)).isEqualTo(33_554_432.0);
    assertThat(value(series, "container_spec_memory_swap_limit_bytes", l)).isEqualTo(0.0);
    assertThat(value(series, "container_hugetlb_usage_bytes", l.add("pagesize", "2MB"))).isEqualTo(4_194_304.0);
    assertThat(value(series, "container_hugetlb_max_usage_bytes", l.add("pagesize", "2MB")))
        .isEqualTo(kind == NodeKind.LINUX_CGROUP_V1 ? Double.valueOf(8_388_608.0) : null);
  }

  /** A pod's process count is the pids cgroup's where cgroups are read; the runtime's never doubles the family. */
  @Test
  void withCgroupsThePodsProcessCountComesFromTheCgroupOnly() {
    Snapshot snapshot = linuxSnapshot(CgroupVersion.V2);
    Set<String> fromCri = new TreeSet<>();
    CadvisorSeriesCollector.series(snapshot, NodePlatform.LINUX).forEach(s -> fromCri.add(wireName(s)));
    assertThat(fromCri).doesNotContain("container_processes");
    Set<String> fromCgroups = containerNames(toList(CgroupSeriesCollector.series(snapshot)));
    assertThat(fromCgroups).contains("container_processes");
  }

  /**
   * The two collectors read the store one after the other: a cgroup sample published between the two reads must not
   * make both serve container_processes (Prometheus' writers refuse the duplicate and the whole render fails).
   */
  @Test
  void aCgroupSampleLandingBetweenTheTwoCollectorsNeverDoublesTheProcessCount() throws Exception {
    Snapshot withCgroups = linuxSnapshot(CgroupVersion.V2);
    Snapshot before =
        new Snapshot(
            withCgroups.version() - 1, withCgroups.node(), withCgroups.previousNode(), withCgroups.runtime(), null,
            null);
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(new CadvisorSeriesCollector(() -> before, NodePlatform.LINUX));
    registry.register(new CgroupSeriesCollector(() -> withCgroups));
    String text = render(registry.scrape());
    assertThat(
            text.lines()
                .filter(
                    l -> l.startsWith("container_processes{")
                        && l.contains("pod=\"burner\"")
                        && l.contains("container=\"\"")))
        .hasSize(1);
  }

  private static String render(MetricSnapshots snapshots) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    new PrometheusTextFormatWriter(false).write(out, snapshots);
    return out.toString(StandardCharsets.UTF_8);
  }

  private static List<MetricSnapshot> toList(MetricSnapshots snapshots) {
    List<MetricSnapshot> list = new ArrayList<>();
    snapshots.forEach(list::add);
    return list;
  }

  private static final long MIB = 1L << 20;
  private static final long SECOND = 1_000_000_000L;
  private static final String WINDOWS_IMAGE = "mcr.microsoft.com/windows/nanoserver:ltsc2022";

  /** A Windows node's snapshot and the directory its fake runtime reports the writable layers on. */
  private record WindowsNode(Snapshot snapshot, Path layers) {}

  /**
   * One round of a Windows node: a process-isolated pod (sandbox, two containers, one HNS endpoint) and a HostProcess
   * pod read through CRI as containerd of {@code line} serves them, and the first row of a real Windows counter log.
   */
  private static WindowsNode windowsSnapshot(ContainerdLine line, Path dir) throws Exception {
    Instant now = Instant.parse("2026-11-23T08:00:00Z");
    Clock clock = Clock.fixed(now, ZoneOffset.UTC);
    long t0 = now.toEpochMilli() * 1_000_000 - 5 * SECOND;
    Path layers = Files.createDirectories(dir.resolve("snapshots"));
    WindowsRuntimeFake runtime = new WindowsRuntimeFake(line, clock, layers.toString());
    runtime.put(
        WindowsPod.isolated(
            "sandbox-web",
            "web",
            "shop",
            t0 - 60 * SECOND,
            new HcsReading(t0, SECOND, 10 * MIB, 20 * MIB),
            List.of(
                WindowsContainer.running(
                    "c-app", "app", 0, t0 - 50 * SECOND, new HcsReading(t0, 5 * SECOND, 100 * MIB, 150 * MIB)),
                WindowsContainer.running(
                    "c-sidecar", "sidecar", 0, t0 - 50 * SECOND, new HcsReading(t0, 2 * SECOND, 30 * MIB, 40 * MIB)))));
    runtime.put(
        WindowsPod.hostProcess(
            "sandbox-agent",
            "agent",
            "kube-system",
            t0 - 60 * SECOND,
            List.of(
                WindowsContainer.running(
                    "c-agent", "agent", 0, t0 - 50 * SECOND, new HcsReading(t0, 3 * SECOND, 20 * MIB, 25 * MIB)))));
    RuntimeSample pods;
    try (WindowsRuntimeFake.Served served = runtime.start(dir.resolve("containerd.sock"));
        CriStatsReader reader =
            CriStatsReaders.open(
                CriEndpoint.parse(served.endpoint()), CriReaderOptions.of(Duration.ofSeconds(5), clock))) {
      pods = reader.sample();
    }
    NodeSample node;
    try (ReplayNodeSource replay =
        ReplayNodeSource.open(
            PERFMON.resolve(TIERRA_LOG),
            Double.POSITIVE_INFINITY,
            null,
            ReplayNodeSource.Timeline.RECORDED,
            clock)) {
      node = replay.sample();
    }
    return new WindowsNode(new Snapshot(1, node, null, pods, null), layers);
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

  /** Wire name: client_java keeps a counter's name without {@code _total}. */
  private static String wireName(MetricSnapshot s) {
    String name = s.getMetadata().getPrometheusName();
    return s instanceof CounterSnapshot ? name + "_total" : name;
  }

  /** The wire names with a point for a pod or container: not only the node root's ({@code id="/"}). */
  private static Set<String> containerNames(List<MetricSnapshot> series) {
    Set<String> names = new TreeSet<>();
    for (MetricSnapshot s : series) {
      for (DataPointSnapshot p : s.getDataPoints()) {
        String id = p.getLabels().get("id");
        if (id != null && !id.equals("/")) {
          names.add(wireName(s));
        }
      }
    }
    return names;
  }

  /** The value of the point of {@code name} with exactly {@code labels}, or {@code null} when there is none. */
  private static @Nullable Double value(List<MetricSnapshot> series, String name, Labels labels) {
    for (MetricSnapshot s : series) {
      if (!wireName(s).equals(name)) {
        continue;
      }
      for (DataPointSnapshot p : s.getDataPoints()) {
        if (p.getLabels().equals(labels)) {
          if (p instanceof GaugeSnapshot.GaugeDataPointSnapshot g) {
            return g.getValue();
          }
          return ((CounterSnapshot.CounterDataPointSnapshot) p).getValue();
        }
      }
    }
    return null;
  }

  /** The fixture runtime with a full cgroup read for every pod and container, as a Linux node of that version has. */
  static Snapshot linuxSnapshot(CgroupVersion version) {
    RuntimeSample runtime = SampleFixtures.runtime();
    Map<String, CgroupStats> containers = new HashMap<>();
    Map<String, CgroupStats> pods = new HashMap<>();
    Map<String, List<NetDevInterface>> networks = new HashMap<>();
    for (PodSample pod : runtime.pods()) {
      pods.put(pod.sandboxId(), stats("/kubepods/pod" + pod.ref().uid(), version));
      networks.put(
          pod.sandboxId(),
          List.of(
              NetDevInterface.builder("lo").build(),
              NetDevInterface.builder("eth0")
                  .rxBytes(1_166)
                  .rxPackets(13)
                  .rxDropped(1)
                  .txBytes(542)
                  .txPackets(7)
                  .txDropped(2)
                  .build()));
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
        CgroupSample.builder(SampleFixtures.T1, version, new NodePressure(null, null, null))
            .containers(containers)
            .pods(pods)
            .podNetworks(networks)
            .build());
  }

  private static CgroupStats stats(String path, CgroupVersion version) {
    @Nullable Pressure psi =
        version == CgroupVersion.V2
            ? new Pressure(new PressureLine(0.1, 0.2, 0.3, 1_500_000), new PressureLine(0, 0, 0, 500_000))
            : null;
    return CgroupStats.builder(path)
        .cpu(CgroupCpu.builder()
            .userNanos(3_000_000_000L)
            .systemNanos(1_000_000_000L)
            .periods(100)
            .throttledPeriods(40)
            .throttledNanos(2_000_000_000L)
            .build())
        .memory(CgroupMemory.builder()
            .cacheBytes(1_048_576)
            .rssBytes(2_097_152)
            .mappedFileBytes(4_096)
            .swapBytes(0L)
            .kernelBytes(65_536L)
            .failcnt(3L)
            .maxUsageBytes(5_242_880L)
            .pgfault(1_000)
            .pgmajfault(10)
            .oomKills(1L)
            .build())
        .io(List.of(BlockDeviceIo.builder("/dev/vda")
            .major(254)
            .readBytes(40_960)
            .writeBytes(1_048_576)
            .reads(10)
            .writes(256)
            .build()))
        .processes(CgroupProcesses.builder()
            .processes(2)
            .threads(3L)
            .threadsMax(0L)
            .fileDescriptors(7)
            .sockets(1)
            .maxOpenFilesSoft(1_048_576L)
            .build())
        .cpuPressure(psi)
        .memoryPressure(psi)
        .ioPressure(psi)
        .spec(new CgroupSpec(33_554_432L, version == CgroupVersion.V2 ? Long.MAX_VALUE : 9_223_372_036_854_771_712L))
        .hugetlb(List.of(new HugePages("2MB", 4_194_304, version == CgroupVersion.V2 ? null : 8_388_608L)))
        .build();
  }
}
