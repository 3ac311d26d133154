package io.winstats.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdLine;
import io.winstats.cri.testing.ContainerdExtension;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.HcsReading;
import io.winstats.cri.testing.PodHandle;
import io.winstats.cri.testing.WindowsContainer;
import io.winstats.cri.testing.WindowsPod;
import io.winstats.cri.testing.WindowsRuntimeFake;
import io.winstats.exporter.metrics.CgroupSeriesCollector;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.perfcounters.pdh.SyntheticPdhLog;
import io.winstats.testing.Requires;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every dashboard query, every rule, and the stock kube-prometheus-stack rules and dashboards, evaluated by a real
 * Prometheus that scrapes the real daemons the way the Helm chart's ServiceMonitors make the Prometheus Operator
 * scrape them: the chart is rendered with {@code presets/kube-prometheus-stack.yaml} (and the Linux DaemonSet on),
 * and each monitor's endpoints become the scrape configs the operator would generate ({@link OperatorScrapeConfigs}),
 * with the discovery labels of the rendered Service and DaemonSet pods.
 *
 * <ul>
 *   <li>Linux: a private containerd with two real pods (one burning half a core), the daemon sampling /proc and
 *       containerd every second, behind the chart's Linux monitor (job {@code winstats-exporter}).
 *   <li>Windows: three more daemons replaying counter logs. Two are the real Windows logs committed in
 *       collector-perfcounters' {@code src/test/resources/perfmon}: one has per-core CPU, the other network, and
 *       neither has the LogicalDisk and System objects or the physical memory size (no counter holds it). The third
 *       replays a log written by the daemon's own recorder ({@code --record}) from its PDH source reading the fake PDH
 *       with the synthetic fixture of collector-perfcounters ({@link SyntheticPdhLog}), which has every node part the
 *       PDH source builds, the physical memory size from {@code GlobalMemoryStatusEx} among them. The tierra daemon
 *       also reads Windows pods from {@link WindowsRuntimeFake} on a Unix socket, filled as containerd 2.2 fills them.
 *       Behind the chart's Windows monitor they are scraped three times: as {@code winstats-exporter} (everything, for the
 *       bundled rules and dashboards), as {@code windows-exporter} (the windows_* series, for the stack's
 *       windows.node.rules and windows.pod.rules) and as {@code job="kubelet", metrics_path="/metrics/cadvisor"} (the
 *       pods' cAdvisor series, for the stack's k8s.rules and Compute Resources dashboards).
 *   <li>kube-state-metrics: {@link KubeStateMetricsStandIn}, serving the requests and limits the pods really have,
 *       their phase, and {@code kube_pod_container_info} with the Windows containers' {@code container_id}, which the
 *       Windows rules join on.
 *   <li>The stock content: kube-prometheus-stack 88.5.3's recording rules and the queries of its Windows and Compute
 *       Resources dashboards ({@code stock-queries/kube-prometheus-stack-*.yml}), unedited.
 * </ul>
 *
 * <p>Queries are evaluated as Grafana would send them: each variable's "All" is resolved through the variable's
 * own query against this Prometheus (values joined as an escaped regex alternation, or the variable's allValue
 * when it has no values), {@code $__rate_interval} is {@value #RATE_INTERVAL}. Alert expressions are evaluated
 * without their threshold. Queries that cannot have data from these inputs are listed below with the reason, and
 * the test asserts that list exactly.
 */
@Tag("containerd")
@ExtendWith(ContainerdExtension.class)
@Requires(tools = "prometheus")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardsOnPrometheusIT {
  static final String RATE_INTERVAL = "15s";
  private static final Duration READY = Duration.ofSeconds(45);
  private static final Duration DATA = Duration.ofSeconds(75);
  private static final Path WORK = Path.of("target", "dash-it").toAbsolutePath();
  private static final Path PERFMON =
      Path.of("..", "collector-perfcounters", "src", "test", "resources", "perfmon").toAbsolutePath().normalize();
  private static final List<String> JVM = List.of("-XX:+UseSerialGC", "-Xss512k", "-XX:MaxRAM=256m", "-XX:MaxRAMPercentage=25");
  private static final long MIB = 1024 * 1024;
  private static final Path STOCK = Path.of("src", "test", "resources", "stock-queries");
  private static final Path STOCK_RULES = STOCK.resolve("kube-prometheus-stack-rules.yml");
  private static final Path STOCK_DASHBOARDS = STOCK.resolve("kube-prometheus-stack-dashboards.yml");

  /**
   * A Windows counter log, the replay speed that makes it outlast the test, the instance it becomes, and whether it
   * reads the Windows runtime fake's pods (otherwise its runtime endpoint has nothing behind it).
   */
  private record Replay(Path log, int speed, String instance, boolean pods) {}

  /** A daemon as the pod of its node. */
  private record NodeDaemon(DaemonProcess daemon, String node) {}

  /** The synthetic host's log, a row a second: longer than the test runs at speed 1. */
  private static final Path SYNTHETIC_LOG = WORK.resolve("synthetic-pdh.csv");

  private static final int SYNTHETIC_ROWS = 900;

  private static final List<Replay> REPLAYS =
      List.of(
          // 120 rows at 5 s: Processor(0..11) user/privileged/dpc/interrupt, System queue length; 120 s at speed 5.
          new Replay(PERFMON.resolve("desktop-5gtcqem-win-zh-processor-system-process.csv"), 5, "win-desktop", false),
          // 200 rows at 1 s: Network Interface (all counters), Processor(_Total) only, Memory without its size.
          new Replay(PERFMON.resolve("tierra-win10-ja-process-memory-network.first200.csv"), 2, "win-tierra", true),
          // Recorded by the daemon's recorder from the PDH source over the synthetic fixture: every node part.
          new Replay(SYNTHETIC_LOG, 1, "win-synthetic", false));

  /** The Windows nodes, as kube-state-metrics lists them. */
  private static final List<String> WINDOWS_NODES = REPLAYS.stream().map(Replay::instance).toList();

  /** The Windows pods' namespace, and their containers by pod: {pod, container, container id}. */
  static final String WINDOWS_NAMESPACE = "dash-win";

  private static final List<List<String>> WINDOWS_CONTAINERS =
      List.of(
          List.of("win-web", "web", "3f0c1e9a7b2d4c6e8f1a3b5c7d9e0f2a4b6c8d0e1f3a5b7c9d1e3f5a7b9c1d3e5f"),
          List.of("win-web", "logger", "9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b"),
          List.of("win-job", "worker", "1e2d3c4b5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e2d"));

  /** Panel queries that cannot have data here, by "dashboard uid / panel title / refId", with the reason. */
  static final Map<String, String> EXPECTED_EMPTY_PANELS = Map.of();

  /** Rule expressions (alerts without threshold) that cannot have data here, by rule key, with the reason. */
  static final Map<String, String> EXPECTED_EMPTY_RULES =
      Map.of(
          "WinstatsExporterNearMemoryLimit",
          "the daemons here run as processes, not as a pod's container named winstats-exporter, so none serves its"
              + " own container's memory and limit (RulesPromtoolTest's unit tests give the alert its inputs)");

  private static final String WIN_NO_RSS_CACHE_SWAP =
      "Windows containers have no RSS, page cache or swap: CRI's WindowsMemoryUsage carries working set, available"
          + " bytes, commit and page faults only, so no container_memory_rss/cache/swap is served for them (the kubelet"
          + " serves none either)";
  private static final String WIN_NO_CFS =
      "Windows has no CFS quota periods: no container_cpu_cfs_* for Windows containers";
  private static final String WIN_NO_PACKETS =
      "Windows packet counts come from HNS endpoint statistics (vmcompute.dll HNSCall), which this Linux test host"
          + " lacks: the replay daemons fall back to CRI's pod network (event=cri_hns_fallback), whose"
          + " WindowsNetworkInterfaceUsage has rx/tx bytes and dropped packets but no packet counts. The HNS path is"
          + " proven against the recorded reply shapes (CriStatsReaderTasksTest, HnsRepliesTest)";
  private static final String WIN_NO_BLOCK_IO =
      "Windows containers' storage I/O (containerd's task metrics: HCS counts a container's reads and writes over all"
          + " its volumes) is served without a device label, as no Windows volume is a block device; the stock query"
          + " keeps only Linux block device names (device=~\"(/dev/)?(mmcblk.p.+|nvme.+|rbd.+|sd.+|vd.+|xvd.+|dm-.+|md.+"
          + "|dasd.+)\"). The per-container panels without that filter have data";
  /** kube-prometheus-stack rules and dashboard queries that cannot have data for the Windows pods, with the reason. */
  static final Map<String, String> EXPECTED_EMPTY_STOCK =
      new TreeMap<>(
          Map.ofEntries(
              Map.entry("k8s.rules.container_memory_cache / node_namespace_pod_container:container_memory_cache", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("k8s.rules.container_memory_rss / node_namespace_pod_container:container_memory_rss", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("k8s.rules.container_memory_swap / node_namespace_pod_container:container_memory_swap", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Pod / Memory Quota / F", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Pod / Memory Quota / G", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Pod / Memory Quota / H", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Memory Quota / F", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Memory Quota / G", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Memory Quota / H", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Node (Pods) / Memory Usage (w/o cache) / C", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Node (Pods) / Memory Quota / F", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Node (Pods) / Memory Quota / G", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Node (Pods) / Memory Quota / H", WIN_NO_RSS_CACHE_SWAP),
              Map.entry("Kubernetes / Compute Resources / Pod / CPU Throttling / A", WIN_NO_CFS),
              Map.entry("Kubernetes / Compute Resources / Pod / Rate of Received Packets / A", WIN_NO_PACKETS),
              Map.entry("Kubernetes / Compute Resources / Pod / Rate of Transmitted Packets / A", WIN_NO_PACKETS),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Current Network Usage / C", WIN_NO_PACKETS),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Current Network Usage / D", WIN_NO_PACKETS),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Rate of Received Packets / A", WIN_NO_PACKETS),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Rate of Transmitted Packets / A", WIN_NO_PACKETS),
              Map.entry("Kubernetes / Compute Resources / Pod / IOPS (Pod) / A", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Pod / IOPS (Pod) / B", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Pod / ThroughPut (Pod) / A", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Pod / ThroughPut (Pod) / B", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Pod / Current Storage IO / A", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Pod / Current Storage IO / B", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Pod / Current Storage IO / C", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Pod / Current Storage IO / D", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Pod / Current Storage IO / E", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Pod / Current Storage IO / F", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / IOPS(Reads+Writes) / A", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / ThroughPut(Read+Write) / A", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Current Storage IO / A", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Current Storage IO / B", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Current Storage IO / C", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Current Storage IO / D", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Current Storage IO / E", WIN_NO_BLOCK_IO),
              Map.entry("Kubernetes / Compute Resources / Namespace (Pods) / Current Storage IO / F", WIN_NO_BLOCK_IO)));

  /** Variables without values here, which then take their allValue. */
  static final Set<String> EXPECTED_EMPTY_VARIABLES = Set.of("cluster");

  private PodHandle burner;
  private PodHandle sleeper;
  private DaemonProcess linux;
  private final List<DaemonProcess> windows = new ArrayList<>();
  private WindowsRuntimeFake windowsRuntime;
  private WindowsRuntimeFake.Served windowsRuntimeServed;
  private ScheduledExecutorService windowsWorkload;
  private KubeStateMetricsStandIn ksm;
  private PrometheusServer prometheus;
  private List<JsonNode> chart = List.of();
  private long linuxStartNanos;

  @BeforeAll
  void start(ContainerdHarness harness, CriTestClient client) throws IOException {
    Path prometheusBinary = Tools.path("prometheus");
    Tools.deleteRecursively(WORK);
    Files.createDirectories(WORK);
    burner =
        harness.defer(
            client.runPod("burner", "dash", List.of(ContainerSpec.burner("burn", 0.5).withMemoryLimit(64 * MIB))));
    sleeper =
        harness.defer(client.runPod("sleeper", "dash", List.of(ContainerSpec.sleeper("sleep").withMemoryLimit(32 * MIB))));
    linuxStartNanos = System.nanoTime();
    linux =
        DaemonProcess.start(
            WORK.resolve("daemon-linux.log"), JVM, "--cri.endpoint=" + harness.endpoint(), "--sampling.interval=1s",
            "--node.name=dash-linux");
    startWindowsRuntime();
    SyntheticPdhLog.write(SYNTHETIC_LOG, "WIN-SYNTHETIC", Instant.now(), SYNTHETIC_ROWS);
    for (Replay r : REPLAYS) {
      Path log = r.log();
      assertThat(log).as("counter log").isRegularFile();
      String runtime = r.pods() ? windowsRuntimeServed.endpoint() : "unix://" + WORK.resolve("no-runtime.sock");
      windows.add(
          DaemonProcess.start(
              WORK.resolve("daemon-" + r.instance() + ".log"), JVM,
              "--cri.endpoint=" + runtime, "--sampling.interval=1s",
              "--node.name=" + r.instance(),
              "--node.source=replay:" + log + ",speed=" + r.speed()));
    }
    ksm = KubeStateMetricsStandIn.serve(kubeStateMetrics());
    chart = HelmChart.objects(List.of(HelmChart.PRESET, Files.writeString(WORK.resolve("linux-values.yaml"), "linux:\n  enabled: true\n")));
    Path config = WORK.resolve("prometheus.yml");
    Rules.YAML.writeValue(config.toFile(), prometheusConfig());
    prometheus = PrometheusServer.start(prometheusBinary, config, WORK.resolve("prometheus"));
    Deadline.await("prometheus ready\n" + WORK.resolve("prometheus/prometheus.log"), READY, () -> {
      try {
        return prometheus.isReady();
      } catch (IllegalStateException e) {
        return false;
      }
    });
  }

  @AfterAll
  void stop() throws InterruptedException {
    try {
      if (prometheus != null) {
        prometheus.close();
      }
    } finally {
      if (ksm != null) {
        ksm.close();
      }
      for (DaemonProcess d : windows) {
        d.close();
      }
      if (windowsWorkload != null) {
        windowsWorkload.shutdownNow();
      }
      if (windowsRuntimeServed != null) {
        windowsRuntimeServed.close();
      }
      if (linux != null) {
        linux.close();
      }
    }
  }

  /**
   * The Windows pods, served as containerd 2.2 serves them; each second their containers use a quarter core more and
   * their working sets move, so rates and the mixin's {@code rate(windows_container_total_runtime[5m])} have data.
   */
  private void startWindowsRuntime() {
    windowsRuntime = new WindowsRuntimeFake(ContainerdLine.V2_2, Clock.systemUTC());
    long created = System.currentTimeMillis() * 1_000_000L - 60_000_000_000L;
    Map<String, List<WindowsContainer>> byPod = new LinkedHashMap<>();
    for (List<String> c : WINDOWS_CONTAINERS) {
      byPod.computeIfAbsent(c.get(0), k -> new ArrayList<>())
          .add(WindowsContainer.running(c.get(2), c.get(1), 0, created, windowsReading(0)));
    }
    byPod.forEach((pod, containers) ->
        windowsRuntime.put(WindowsPod.isolated("sandbox-" + pod, pod, WINDOWS_NAMESPACE, created, windowsReading(0), containers)));
    windowsRuntimeServed = windowsRuntime.start(WORK.resolve("windows-containerd.sock"));
    windowsWorkload = Executors.newSingleThreadScheduledExecutor();
    long[] tick = {0};
    windowsWorkload.scheduleAtFixedRate(() -> {
      long t = ++tick[0];
      for (String pod : byPod.keySet()) {
        WindowsPod p = windowsRuntime.pod("sandbox-" + pod);
        windowsRuntime.put(p.with(windowsReading(t), cs -> cs.stream().map(c -> c.withReading(windowsReading(t))).toList()));
      }
    }, 1, 1, TimeUnit.SECONDS);
  }

  private static HcsReading windowsReading(long seconds) {
    return new HcsReading(
        System.currentTimeMillis() * 1_000_000L, 5_000_000_000L + seconds * 250_000_000L,
        (40 + seconds % 8) * MIB, (60 + seconds % 8) * MIB);
  }

  /** The chart's monitors really produce targets named after the node, with the pods' labels intact. */
  @Test
  @Order(1)
  void theChartsMonitorsScrapeTheDaemonsWithTheirPodsLabelsIntact() {
    JsonNode up =
        Deadline.poll("burner CPU scraped by job winstats-exporter\n" + prometheus.log(), DATA, () -> {
          JsonNode r =
              prometheus.query(
                  "container_cpu_usage_seconds_total{job=\"winstats-exporter\", instance=\"dash-linux\", os=\"linux\","
                      + " namespace=\"dash\", pod=\"burner\", container=\"burn\"}");
          return r.isEmpty() ? null : r;
        });
    assertThat(up).hasSize(1);
    assertThat(prometheus.query("up{job=\"winstats-exporter\", instance=\"dash-linux\"} == 1")).hasSize(1);
    assertThat(prometheus.query("count({exported_namespace!=\"\"} or {exported_pod!=\"\"} or {exported_instance!=\"\"})"))
        .as("no label renamed by a clash with target labels")
        .isEmpty();
    for (String job : List.of("winstats-exporter\", os=\"windows", "windows-exporter", "kubelet\", metrics_path=\"/metrics/cadvisor")) {
      Deadline.await("both Windows replay daemons up as job=\"" + job + "\"", DATA,
          () -> prometheus.query("up{job=\"" + job + "\"} == 1").size() == REPLAYS.size());
    }
    assertThat(prometheus.query("count by (job) ({instance=\"dash-linux\"})")).as("the Linux daemon keeps its own job")
        .extracting(r -> r.at("/metric/job").asText()).containsExactly("winstats-exporter");
    // Recording rules without an aggregation (the stock node:windows_node_memory_totalCached_bytes:sum,
    // node:windows_node_memory_swap_io_pages:irate) keep the job label; their names hold a colon, no scraped name does.
    assertThat(prometheus.query("count({job=\"windows-exporter\", __name__!~\"windows_.+|up|scrape_.+|.*:.*\"})"))
        .as("only windows_* series scraped under the Windows job").isEmpty();
    assertThat(prometheus.query("count({job=\"kubelet\", __name__=~\"machine_.+|container_scrape_error\"})"))
        .as("nothing the kubelet's own /metrics/cadvisor serves on Windows is served twice").isEmpty();
    // The dashboards' $pod variable is resolved once, from the pods scraped by then: a Windows pod found later would be
    // left out of every panel, so the tests below start only when every Windows pod has been scraped.
    long windowsPods = WINDOWS_CONTAINERS.stream().map(c -> c.get(0)).distinct().count();
    Deadline.await("every Windows pod scraped", DATA, () -> prometheus.query(
            "count by (pod) (container_cpu_usage_seconds_total{namespace=\"" + WINDOWS_NAMESPACE + "\", pod!=\"\"})")
        .size() == windowsPods);
  }

  @Test
  @Order(2)
  void everyPanelQueryReturnsDataExceptTheListedOnes() {
    Map<String, String> expected = EXPECTED_EMPTY_PANELS;
    Map<String, String> queries = new LinkedHashMap<>();
    Map<String, Set<String>> variablesWithoutValues = new TreeMap<>();
    for (String file : Dashboards.files()) {
      JsonNode dashboard = Dashboards.read(file);
      Map<String, String> values = resolveVariables(dashboard, variablesWithoutValues);
      for (Dashboards.PanelQuery q : Dashboards.queries(file)) {
        queries.put(q.key(), substitute(q.expr(), values));
      }
    }
    Set<String> empty = awaitData(queries, expected.keySet());
    report("panel queries", queries, empty, expected);
    assertThat(empty).as("panel queries without data (other than the expected)").isEqualTo(expected.keySet());
    variablesWithoutValues.values().forEach(v -> assertThat(v).isEqualTo(EXPECTED_EMPTY_VARIABLES));

    // rate() divides by the whole window, so the figure is right once the window holds RATE_INTERVAL of samples.
    String burnQuery =
        substitute(
            "sum(rate(container_cpu_usage_seconds_total{job=\"winstats-exporter\", pod=\"burner\","
                + " container=\"burn\"}[$__rate_interval]))",
            Map.of());
    Deadline.await("a full " + RATE_INTERVAL + " window of burner samples", DATA, () -> !prometheus.query(
            "count_over_time(container_cpu_usage_seconds_total{job=\"winstats-exporter\", pod=\"burner\","
                + " container=\"burn\"}[" + RATE_INTERVAL + "] offset 2s) >= 12").isEmpty());
    double burn = prometheus.query(burnQuery).at("/0/value/1").asDouble();
    // The CFS quota caps the burner at 0.5 core; on a small CI machine starting three JVMs and Prometheus at the
    // same time it gets less, so only the cap and "burning" are checked (at load average 45 it ran at 0.14 core, as
    // ExporterEndToEndIT's burner ran at 0.25 at load average 20).
    assertThat(burn).as("burner CPU over a full window").isBetween(0.02, 0.6);
    System.out.printf("dash-it: burner CPU over %s = %.3f cores (CFS quota 0.5)%n", RATE_INTERVAL, burn);
  }

  @Test
  @Order(3)
  void everyRuleExpressionReturnsDataExceptTheListedOnes() {
    Map<String, String> expected = EXPECTED_EMPTY_RULES;
    Map<String, String> queries = new LinkedHashMap<>();
    for (Rules.Rule r : Rules.all()) {
      queries.put(ruleKey(r), r.isAlert() ? PromQl.withoutThreshold(r.expr()) : r.expr());
    }
    Set<String> empty = awaitData(queries, expected.keySet());
    report("rule expressions", queries, empty, expected);
    assertThat(empty).isEqualTo(expected.keySet());
    // Prometheus itself evaluates the rule files: the recorded series exist, and alerts whose condition holds
    // here (the replay daemons have no runtime) are pending.
    for (Rules.Rule r : Rules.all()) {
      if (!r.isAlert() && !expected.containsKey(ruleKey(r))) {
        Deadline.await("recorded " + r.record(), DATA, () -> !prometheus.query(r.record()).isEmpty());
      }
    }
    long withoutRuntime = REPLAYS.stream().filter(r -> !r.pods()).count();
    Deadline.await("WinstatsRuntimeUnreachable pending for the replay daemons without a runtime", DATA,
        () -> prometheus.query("ALERTS{alertname=\"WinstatsRuntimeUnreachable\", alertstate=\"pending\","
            + " job=\"winstats-exporter\", os=\"windows\"}").size() == withoutRuntime);
  }

  /**
   * kube-prometheus-stack's own recording rules (loaded as the stack ships them) have data from the Windows daemons,
   * and every query of its Windows and Compute Resources dashboards has data for the Windows pods, as Grafana would
   * send it with the Windows pods' namespace, pod and node selected ($cluster empty: one cluster, no cluster label),
   * except the listed ones, each with its reason. USE Method / Node(Windows) is evaluated for each Windows node (the
   * real logs each hold some objects, the synthetic one all that the PDH source reads); a query counts as having data
   * when it has it for one of them.
   */
  @Test
  @Order(4)
  void stockKubePrometheusStackRulesAndDashboardsShowTheWindowsPods() throws IOException {
    Map<String, String> rules = new LinkedHashMap<>();
    for (JsonNode g : Rules.YAML.readTree(STOCK_RULES.toFile()).path("groups")) {
      for (JsonNode r : g.path("rules")) {
        rules.put(g.path("name").asText() + " / " + r.path("record").asText(), r.path("expr").asText());
      }
    }
    Map<String, String> expected = EXPECTED_EMPTY_STOCK;
    Set<String> emptyRules = awaitData(rules, expected.keySet());
    report("kube-prometheus-stack recording rules", rules, emptyRules, expected);

    Map<String, List<String>> queries = new LinkedHashMap<>();
    for (JsonNode d : Rules.YAML.readTree(STOCK_DASHBOARDS.toFile()).path("dashboards")) {
      for (JsonNode q : d.path("queries")) {
        String key = d.path("title").asText() + " / " + q.path("panel").asText() + " / " + q.path("refId").asText();
        List<String> variants = new ArrayList<>();
        for (String instance : WINDOWS_NODES) {
          variants.add(substitute(q.path("expr").asText(), Map.of("cluster", "", "namespace", WINDOWS_NAMESPACE,
              "pod", "win-web", "node", "win-tierra", "instance", instance)));
        }
        queries.put(key, variants.stream().distinct().toList());
      }
    }
    Map<String, String> anyVariant = new LinkedHashMap<>();
    queries.forEach((key, variants) -> anyVariant.put(key, String.join(" or ", variants.stream().map(v -> "(" + v + ")").toList())));
    Set<String> emptyPanels = awaitData(anyVariant, expected.keySet());
    report("kube-prometheus-stack dashboard queries", anyVariant, emptyPanels, expected);

    Set<String> empty = new TreeSet<>(emptyRules);
    empty.addAll(emptyPanels);
    assertThat(empty).as("stock rules and queries without data (other than the expected)")
        .isEqualTo(expected.keySet());
  }

  /**
   * Cgroup series the daemon serves only where the kernel has the files, as its cgroup tables declare them
   * ({@link CgroupSeriesCollector#SERVED_WHERE_THE_KERNEL_HAS_THE_FILES}): this host may or may not serve them, so
   * they are neither required by the list nor refused when served.
   */
  static final Set<String> SERVED_WHERE_THE_KERNEL_HAS_THE_FILES =
      CgroupSeriesCollector.SERVED_WHERE_THE_KERNEL_HAS_THE_FILES.stream()
          .map(d -> d.getType().name().equals("COUNTER") ? d.getPrometheusName() + "_total" : d.getPrometheusName())
          .collect(Collectors.toUnmodifiableSet());

  /**
   * The committed list of live names ({@link EmittedSeries}) is exactly what the real daemons serve beyond the golden
   * scrapes: a listed name no longer served fails, and so does a served name nobody listed (the static dashboard checks
   * would refuse a panel on it, and the list would drift unseen, as it did with the two memory limit names).
   */
  @Test
  @Order(5)
  void theCommittedLiveNameListMatchesTheRealDaemons() throws IOException {
    Set<String> live = new TreeSet<>(EmittedSeries.namesInScrape(linux.get("/metrics").body()));
    for (DaemonProcess d : windows) {
      live.addAll(EmittedSeries.namesInScrape(d.get("/metrics").body()));
    }
    Files.writeString(WORK.getParent().resolve("live-metric-names.txt"), String.join("\n", live) + "\n");
    Set<String> listed = new TreeSet<>(EmittedSeries.liveList());
    Set<String> unlisted = new TreeSet<>(live);
    unlisted.removeAll(EmittedSeries.all());
    unlisted.removeAll(SERVED_WHERE_THE_KERNEL_HAS_THE_FILES);
    assertThat(live).as("names listed in " + EmittedSeries.LIVE_LIST + " and served").containsAll(listed);
    assertThat(listed).as("names that depend on the kernel cannot be required").doesNotContainAnyElementsOf(
        SERVED_WHERE_THE_KERNEL_HAS_THE_FILES);
    assertThat(unlisted)
        .as("served but neither golden nor listed: add them to %s (target/live-metric-names.txt has the live list)",
            EmittedSeries.LIVE_LIST)
        .isEmpty();
  }

  /** RSS and CPU of the Linux daemon (2 pods, 1 s sampling, scraped every second) over a 30 s window. */
  @Test
  @Order(6)
  void footprintOfTheLinuxDaemon() throws IOException {
    long t0 = System.nanoTime();
    long ticks0 = cpuTicks(linux.pid());
    sleep(Duration.ofSeconds(30));
    long ticks = cpuTicks(linux.pid()) - ticks0;
    double seconds = (System.nanoTime() - t0) / 1e9;
    String status = Files.readString(Path.of("/proc", Long.toString(linux.pid()), "status"));
    Matcher rss = Pattern.compile("VmRSS:\\s+(\\d+) kB").matcher(status);
    Matcher hwm = Pattern.compile("VmHWM:\\s+(\\d+) kB").matcher(status);
    assertThat(rss.find() && hwm.find()).isTrue();
    System.out.printf(
        "dash-it footprint: daemon with 2 pods, 1 s sampling, scraped every 1 s, JVM %s: RSS %d MB (peak %d MB),"
            + " CPU %.0f mCPU over %.0f s (clock ticks at 100 Hz)%n",
        JVM, Long.parseLong(rss.group(1)) / 1024, Long.parseLong(hwm.group(1)) / 1024, ticks / 100.0 / seconds * 1000,
        seconds);
    assertThat(linux.isAlive()).isTrue();
    assertThat(Long.parseLong(rss.group(1))).isPositive();
  }

  private static long cpuTicks(long pid) throws IOException {
    String[] stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat")).split("\\) ", 2)[1].split(" ");
    return Long.parseLong(stat[11]) + Long.parseLong(stat[12]);
  }

  // ---- helpers -------------------------------------------------------------------------------------------------

  private static String ruleKey(Rules.Rule r) {
    String os = r.node().at("/labels/os").asText();
    return r.name() + (os.isEmpty() ? "" : "[" + os + "]");
  }

  /**
   * Polls until every query outside {@code mayBeEmpty} has data, or the deadline; then returns the queries without
   * data (evaluated once more, so the expected-empty ones are also checked).
   */
  private Set<String> awaitData(Map<String, String> queries, Set<String> mayBeEmpty) {
    long end = System.nanoTime() + DATA.toNanos();
    while (true) {
      Set<String> empty = new TreeSet<>();
      queries.forEach((key, expr) -> {
        if (prometheus.query(expr).isEmpty()) {
          empty.add(key);
        }
      });
      Set<String> missing = new TreeSet<>(empty);
      missing.removeAll(mayBeEmpty);
      if (missing.isEmpty() || System.nanoTime() - end > 0) {
        return empty;
      }
      sleep(Duration.ofSeconds(2));
    }
  }

  private static void report(String what, Map<String, String> queries, Set<String> empty, Map<String, String> expected) {
    StringBuilder out = new StringBuilder("dash-it: " + what + ": " + queries.size() + " evaluated, "
        + (queries.size() - empty.size()) + " with data, " + empty.size() + " empty\n");
    queries.forEach((key, expr) -> {
      String state = empty.contains(key) ? "EMPTY" : "data ";
      out.append("  ").append(state).append("  ").append(key);
      if (empty.contains(key)) {
        out.append("\n           ").append(expected.getOrDefault(key, "UNEXPECTED; query: " + expr));
      }
      out.append('\n');
    });
    System.out.print(out);
  }

  /**
   * Each variable's "All", as Grafana builds it: the values its query finds (the selector's variables resolved
   * first), regex-escaped and joined as {@code (a|b)}; its allValue when it has one; {@code .*} when no value.
   */
  private Map<String, String> resolveVariables(JsonNode dashboard, Map<String, Set<String>> withoutValues) {
    Map<String, String> values = new LinkedHashMap<>();
    Pattern labelValues = Pattern.compile("label_values\\((.*),\\s*(\\w+)\\)", Pattern.DOTALL);
    for (JsonNode v : Dashboards.queryVariables(dashboard)) {
      Matcher m = labelValues.matcher(Dashboards.variableQuery(v));
      assertThat(m.matches()).isTrue();
      Set<String> found = prometheus.labelValues(substitute(m.group(1), values), m.group(2));
      String name = v.path("name").asText();
      if (found.isEmpty()) {
        withoutValues.computeIfAbsent(dashboard.path("uid").asText(), k -> new TreeSet<>()).add(name);
      }
      if (v.has("allValue")) {
        values.put(name, v.path("allValue").asText());
      } else if (found.isEmpty()) {
        values.put(name, ".*");
      } else {
        List<String> escaped = new ArrayList<>();
        found.forEach(f -> escaped.add(f.replaceAll("([\\\\.+*?^$()\\[\\]{}|])", "\\\\\\\\$1")));
        values.put(name, "(" + String.join("|", escaped) + ")");
      }
    }
    return values;
  }

  static String substitute(String expr, Map<String, String> values) {
    String s = expr.replace("$__rate_interval", RATE_INTERVAL);
    Matcher m = Pattern.compile("\\$\\{(\\w+)}|\\$(\\w+)").matcher(s);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2);
      String value = values.get(name);
      if (value == null) {
        throw new AssertionError("no value for variable $" + name + " in " + expr);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  private ObjectNode prometheusConfig() {
    ObjectNode root = Rules.YAML.createObjectNode();
    ObjectNode global = root.putObject("global");
    global.put("scrape_interval", "1s");
    global.put("scrape_timeout", "1s");
    global.put("evaluation_interval", "1s");
    ArrayNode ruleFiles = root.putArray("rule_files");
    Rules.files().forEach(f -> ruleFiles.add(f.toAbsolutePath().toString()));
    ruleFiles.add(STOCK_RULES.toAbsolutePath().toString());
    ArrayNode jobs = root.putArray("scrape_configs");
    jobs.addAll(monitorJobs("linux", List.of(new NodeDaemon(linux, "dash-linux"))));
    List<NodeDaemon> windowsTargets = new ArrayList<>();
    for (int i = 0; i < windows.size(); i++) {
      windowsTargets.add(new NodeDaemon(windows.get(i), REPLAYS.get(i).instance()));
    }
    jobs.addAll(monitorJobs("windows", windowsTargets));
    ObjectNode ksmJob = jobs.addObject();
    ksmJob.put("job_name", "kube-state-metrics");
    ksmJob.putArray("static_configs").addObject().putArray("targets").add(ksm.address());
    return root;
  }

  /**
   * The scrape configs the operator generates from the chart's ServiceMonitor for {@code os}, with each daemon as a
   * pod of the chart's DaemonSet on its node.
   */
  private List<ObjectNode> monitorJobs(String os, List<NodeDaemon> daemons) {
    JsonNode service = chartObject("Service", os);
    JsonNode daemonSet = chartObject("DaemonSet", os);
    List<OperatorScrapeConfigs.Target> targets = new ArrayList<>();
    for (NodeDaemon d : daemons) {
      targets.add(new OperatorScrapeConfigs.Target(d.daemon().address(),
          OperatorScrapeConfigs.discoveredPod(service, daemonSet, d.node(), service.at("/spec/ports/0/name").asText())));
    }
    List<ObjectNode> jobs = OperatorScrapeConfigs.serviceMonitor(chartObject("ServiceMonitor", os), targets);
    // The chart's 30 s interval and 10 s timeout, shortened to this test's pace.
    jobs.forEach(j -> j.put("scrape_interval", "1s").put("scrape_timeout", "1s"));
    return jobs;
  }

  private JsonNode chartObject(String kind, String os) {
    return HelmChart.ofKind(chart, kind).stream()
        .filter(o -> o.at("/metadata/name").asText().equals("winstats-exporter-" + os))
        .findFirst()
        .orElseThrow(() -> new AssertionError("the chart renders no " + kind + " for " + os));
  }

  /** kube-state-metrics v2 series for the test's pods, with the requests and limits they were created with. */
  private String kubeStateMetrics() {
    StringBuilder s = new StringBuilder();
    s.append("# TYPE kube_pod_info gauge\n");
    for (PodHandle p : List.of(burner, sleeper)) {
      s.append(String.format(
          "kube_pod_info{namespace=\"%s\",pod=\"%s\",uid=\"%s\",node=\"dash-linux\",host_ip=\"127.0.0.1\","
              + "pod_ip=\"\",created_by_kind=\"<none>\",created_by_name=\"<none>\",priority_class=\"\","
              + "host_network=\"false\"} 1%n",
          p.namespace(), p.name(), p.uid()));
    }
    for (String pod : List.of("win-web", "win-job")) {
      s.append(String.format(
          "kube_pod_info{namespace=\"%s\",pod=\"%s\",uid=\"uid-sandbox-%s\",node=\"win-tierra\",host_ip=\"127.0.0.1\","
              + "pod_ip=\"\",created_by_kind=\"<none>\",created_by_name=\"<none>\",priority_class=\"\","
              + "host_network=\"false\"} 1%n",
          WINDOWS_NAMESPACE, pod, pod));
    }
    s.append("# TYPE kube_pod_status_phase gauge\n");
    for (PodHandle p : List.of(burner, sleeper)) {
      s.append(String.format("kube_pod_status_phase{namespace=\"%s\",pod=\"%s\",uid=\"%s\",phase=\"Running\"} 1%n",
          p.namespace(), p.name(), p.uid()));
    }
    for (String pod : List.of("win-web", "win-job")) {
      s.append(String.format("kube_pod_status_phase{namespace=\"%s\",pod=\"%s\",uid=\"uid-sandbox-%s\",phase=\"Running\"} 1%n",
          WINDOWS_NAMESPACE, pod, pod));
    }
    s.append("# TYPE kube_node_info gauge\n");
    List<String> nodes = new ArrayList<>(List.of("dash-linux"));
    nodes.addAll(WINDOWS_NODES);
    for (String node : nodes) {
      s.append(String.format("kube_node_info{node=\"%s\"} 1%n", node));
    }
    s.append("# TYPE kube_node_status_capacity gauge\n# TYPE kube_node_status_allocatable gauge\n");
    for (String kind : List.of("capacity", "allocatable")) {
      for (String node : nodes) {
        s.append(String.format("kube_node_status_%s{node=\"%s\",resource=\"cpu\",unit=\"core\"} 4%n", kind, node));
        s.append(String.format("kube_node_status_%s{node=\"%s\",resource=\"memory\",unit=\"byte\"} %d%n", kind, node, 8192 * MIB));
      }
    }
    s.append("# TYPE kube_namespace_status_phase gauge\n");
    for (String ns : List.of("dash", WINDOWS_NAMESPACE)) {
      s.append(String.format("kube_namespace_status_phase{namespace=\"%s\",phase=\"Active\"} 1%n", ns));
    }
    // The runtime's "<type>://<id>", as kube-state-metrics copies it from the pod's containerStatuses.
    s.append("# TYPE kube_pod_container_info gauge\n");
    for (List<String> c : WINDOWS_CONTAINERS) {
      s.append(String.format(
          "kube_pod_container_info{namespace=\"%s\",pod=\"%s\",uid=\"uid-sandbox-%s\",container=\"%s\","
              + "image_spec=\"mcr.microsoft.com/windows/nanoserver:ltsc2022\","
              + "image=\"mcr.microsoft.com/windows/nanoserver:ltsc2022\",image_id=\"\","
              + "container_id=\"containerd://%s\"} 1%n",
          WINDOWS_NAMESPACE, c.get(0), c.get(0), c.get(1), c.get(2)));
    }
    s.append("# TYPE kube_pod_container_resource_requests gauge\n");
    s.append(resource("requests", burner, "burn", "cpu", "core", 0.5));
    s.append(resource("requests", burner, "burn", "memory", "byte", 32 * MIB));
    s.append(resource("requests", sleeper, "sleep", "cpu", "core", 0.01));
    s.append(resource("requests", sleeper, "sleep", "memory", "byte", 16 * MIB));
    for (List<String> c : WINDOWS_CONTAINERS) {
      s.append(windowsResource("requests", c, "cpu", "core", 0.5));
      s.append(windowsResource("requests", c, "memory", "byte", 64 * MIB));
    }
    s.append("# TYPE kube_pod_container_resource_limits gauge\n");
    s.append(resource("limits", burner, "burn", "cpu", "core", 0.5));
    s.append(resource("limits", burner, "burn", "memory", "byte", 64 * MIB));
    s.append(resource("limits", sleeper, "sleep", "memory", "byte", 32 * MIB));
    // The kubelet enforces ephemeral-storage limits itself; they never reach the runtime, so the pod spec (and
    // kube-state-metrics) is the only place one exists: the burner's spec sets one.
    s.append(resource("limits", burner, "burn", "ephemeral_storage", "byte", 1024 * MIB));
    for (List<String> c : WINDOWS_CONTAINERS) {
      s.append(windowsResource("limits", c, "cpu", "core", 1.0));
      s.append(windowsResource("limits", c, "memory", "byte", 128 * MIB));
    }
    return s.toString();
  }

  private static String windowsResource(String kind, List<String> container, String resource, String unit, double v) {
    return String.format(
        "kube_pod_container_resource_%s{namespace=\"%s\",pod=\"%s\",container=\"%s\",node=\"win-tierra\","
            + "resource=\"%s\",unit=\"%s\"} %s%n",
        kind, WINDOWS_NAMESPACE, container.get(0), container.get(1), resource, unit, Double.toString(v));
  }

  private static String resource(String kind, PodHandle pod, String container, String resource, String unit, double v) {
    return String.format(
        "kube_pod_container_resource_%s{namespace=\"%s\",pod=\"%s\",container=\"%s\",node=\"dash-linux\","
            + "resource=\"%s\",unit=\"%s\"} %s%n",
        kind, pod.namespace(), pod.name(), container, resource, unit, Double.toString(v));
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

}
