package io.winstats.exporter.bench;

import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.testing.ChildProcess;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.DaemonVitals;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The node benchmark: for each pod count N (real pods, two containers each, on a private containerd) it starts the
 * daemon and, in the same run, the references — nginx serving static copies of the daemon's {@code /metrics} and
 * {@code /stats/summary} bodies (the machine's limit for those bodies) and Debian's {@code prometheus-node-exporter} —
 * and reports, in this order: start-up to the first 200 of {@code /healthz} without a runtime (before any pod
 * exists, several starts), the steady footprint (the daemon's CPU and RSS and node_exporter's CPU and RSS over a window
 * after a warm-up, while a real Prometheus scrapes both every 15 s), then the {@code wrk} burst (medians over repeated
 * runs, ratios against the references) with the daemon's largest RSS through it. The steady window comes first because
 * a burst leaves the heap grown and a window after it measures the burst's residue.
 *
 * <p>Summary latency is measured twice with 10 clients: flat out (each client sends its next request as soon as the
 * answer is in, so wrk and the daemon saturate the machine together) and polling (each client waits 10 ms after every
 * answer, about 1 000 requests/s in all: the daemon is measured rather than the machine's scheduler).
 *
 * <p>The steady window also reads the runtime's CPU (containerd, its shims and the {@code runc} they reaped, {@link
 * RuntimeCpu}), against a window of {@code idle} seconds over the same pods before the daemon starts: what the daemon
 * makes the runtime spend, added to its own CPU, is its bill to the node.
 *
 * <p>Run with {@code bench/node [pods=10,50,110] [runs=3] [seconds=10] [warmup=60] [window=300] [starts=5] [idle=60]
 * [jvm="-XX:+UseSerialGC ..."]
 * [daemon="--cri.stats-call=ListContainerStats"] [viewers=0,1,5 [rounds=3]] [after=60] [curve=target/node-cost-curve.svg]}. With two or more pod counts it prints the
 * marginal cost per pod against the smallest and draws the curve ({@link CostCurve}) as an SVG at {@code curve}
 * (relative to exporter/). After the burst it waits
 * {@code after} seconds, Prometheus still scraping, and reads the daemon's RSS again: what the burst left behind. With {@code viewers}, after the warm-up it
 * runs only the node page's cost ({@link PageCost}): {@code rounds} of interleaved {@code window}-second windows with
 * that many {@link PageViewer}s each, no Prometheus and no wrk. Without {@code jvm} the daemon runs with {@code deploy/jvm.options}
 * and the class-data-sharing archive {@code bench/node} writes beside the jar ({@code deploy/cds-archive}), as the
 * Linux image runs it.
 * Needs root and: containerd runc containernetworking-plugins busybox-static wrk nginx-light prometheus
 * prometheus-node-exporter.
 */
public final class NodeBenchmark {
  private record Options(
      List<Integer> pods,
      int runs,
      int seconds,
      int warmupSeconds,
      int windowSeconds,
      int starts,
      int idleSeconds,
      List<String> jvm,
      List<String> daemonFlags,
      List<Integer> viewers,
      int viewerRounds,
      int afterSeconds,
      Path curve) {
    static Options parse(String[] args) {
      Map<String, String> kv = new LinkedHashMap<>();
      for (String a : args) {
        int eq = a.indexOf('=');
        if (eq < 0) {
          throw new IllegalArgumentException("expected key=value, got " + a);
        }
        kv.put(a.substring(0, eq), a.substring(eq + 1));
      }
      List<Integer> pods = Arrays.stream(kv.getOrDefault("pods", "10,50,110").split(",")).map(Integer::valueOf).toList();
      // By default the daemon's own options file and its class-data archive, as the Linux DaemonSet runs them.
      String deployed =
          "@" + Path.of("..", "deploy", "jvm.options").toAbsolutePath().normalize()
              + " -XX:SharedArchiveFile=" + Path.of("target", "winstats-exporter.jsa").toAbsolutePath();
      List<String> jvm =
          Arrays.stream(kv.getOrDefault("jvm", deployed).split(" "))
              .filter(s -> !s.isBlank())
              .toList();
      return new Options(
          pods,
          Integer.parseInt(kv.getOrDefault("runs", "3")),
          Integer.parseInt(kv.getOrDefault("seconds", "10")),
          Integer.parseInt(kv.getOrDefault("warmup", "60")),
          Integer.parseInt(kv.getOrDefault("window", "300")),
          Integer.parseInt(kv.getOrDefault("starts", "5")),
          Integer.parseInt(kv.getOrDefault("idle", "60")),
          jvm,
          Arrays.stream(kv.getOrDefault("daemon", "").split(" ")).filter(s -> !s.isBlank()).toList(),
          Arrays.stream(kv.getOrDefault("viewers", "").split(",")).filter(s -> !s.isBlank()).map(Integer::valueOf).toList(),
          Integer.parseInt(kv.getOrDefault("rounds", "3")),
          Integer.parseInt(kv.getOrDefault("after", "60")),
          Path.of(kv.getOrDefault("curve", "target/node-cost-curve.svg")));
    }
  }

  /** One wrk run: requests per second and latency percentiles in milliseconds. */
  private record Wrk(double rps, double p50Ms, double p99Ms, double maxMs) {}

  /** wrk's hook for a pause before each request: every connection polls once per 10 ms. */
  private static final String POLLING_SCRIPT = "function delay()\n  return 10\nend\n";

  private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern PCT = Pattern.compile("^\\s+(50|99)%\\s+([0-9.]+)(us|ms|s)", Pattern.MULTILINE);
  private static final Pattern MAX =
      Pattern.compile("^\\s+Latency\\s+\\S+\\s+\\S+\\s+([0-9.]+)(us|ms|s)", Pattern.MULTILINE);

  private NodeBenchmark() {}

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    Path work =
        Files.createTempDirectory(
            Path.of("target"), "bench-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    List<String> rows = new ArrayList<>();
    List<String> polling = new ArrayList<>();
    List<String> footprint = new ArrayList<>();
    List<String> startups = new ArrayList<>();
    List<String> burstMemory = new ArrayList<>();
    List<CostCurve.Point> curve = new ArrayList<>();
    List<PageCost.Row> viewed = new ArrayList<>();
    Path pollingScript = Files.writeString(work.resolve("polling.lua"), POLLING_SCRIPT);
    System.out.printf(
        "java: %s%njvm flags: %s%ndaemon flags: %s%nload before: %s%n",
        System.getProperty("winstats.java", "the bench's own JVM"),
        String.join(" ", o.jvm()), String.join(" ", o.daemonFlags()), Files.readString(Path.of("/proc/loadavg")).strip());
    List<Double> bareStarts = startsWithoutRuntime(work, o);
    try (ContainerdHarness harness = ContainerdHarness.start(work.resolve("ctrd"));
        Reference nodeExporter = Reference.nodeExporter(work.resolve("node-exporter"))) {
      CriTestClient client = harness.client();
      int created = 0;
      for (int n : o.pods()) {
        long t0 = System.nanoTime();
        for (; created < n; created++) {
          client.runPod("bench-" + created, "bench", List.of(ContainerSpec.sleeper("app"), ContainerSpec.sleeper("sidecar")));
        }
        System.out.printf("%d pods (%d containers) ready, +%.1f s to create%n", n, 2 * n, (System.nanoTime() - t0) / 1e9);
        // The runtime without the daemon, for the bill: containerd and its shims idle over the pods.
        RuntimeCpu runtime = new RuntimeCpu(harness.workDir());
        double runtimeIdleMillis = runtimeMillis(runtime, o.idleSeconds());
        long started = System.nanoTime();
        List<String> flags = new ArrayList<>(List.of("--cri.endpoint=" + harness.endpoint(), "--sampling.interval=10s"));
        flags.addAll(o.daemonFlags());
        try (DaemonProcess daemon = DaemonProcess.start(work.resolve("daemon-" + n + ".log"), o.jvm(), flags.toArray(String[]::new))) {
          Deadline.await("/healthz 200", Duration.ofSeconds(60), () -> daemon.get("/healthz").status() == 200);
          double startupMs = (System.nanoTime() - started) / 1e6;
          int pods = n;
          Deadline.await(n + " pods served", Duration.ofSeconds(120), () -> count(daemon.get("/stats/summary").body(), "\"podRef\"") == pods);
          // The cgroup figures join a round after the CRI ones: without this wait the copy nginx serves was 225 KB
          // in some runs and 379 KB in others, and the summary ratios compared unlike bodies. A pod's process count
          // is one on every host (its "io" holds only PSI, which a cgroup v1 host no longer reads).
          Deadline.await(n + " pods with cgroup figures", Duration.ofSeconds(60),
              () -> count(daemon.get("/stats/summary").body(), "\"process_count\"") >= pods);
          String base = "http://127.0.0.1:" + daemon.port();
          if (!o.viewers().isEmpty()) {
            Thread.sleep(TimeUnit.SECONDS.toMillis(o.warmupSeconds()));
            viewed.addAll(PageCost.windows(n, o.viewers(), o.viewerRounds(),
                () -> footprint(daemon, nodeExporter, runtime, o.windowSeconds()), base, daemon));
            continue;
          }
          Path staticDir = Files.createDirectories(work.resolve("static-" + n));
          Files.writeString(staticDir.resolve("metrics"), daemon.get("/metrics").body());
          Files.writeString(staticDir.resolve("summary"), daemon.get("/stats/summary").body());
          long summaryBytes = Files.size(staticDir.resolve("summary"));
          long metricsBytes = Files.size(staticDir.resolve("metrics"));
          // Steady state first, then the scrape burst: a burst leaves the heap grown, and a window after it measured
          // the residue of the burst rather than the node's steady cost.
          try (Reference prometheus =
              Reference.prometheus(work.resolve("prometheus-" + n), daemon.address(), nodeExporter.address())) {
            Thread.sleep(TimeUnit.SECONDS.toMillis(o.warmupSeconds()));
            Footprint steady = footprint(daemon, nodeExporter, runtime, o.windowSeconds());
            double burstRssMaxMiB;
            double rssBeforeMiB = DaemonVitals.residentBytes(daemon.pid()) / 1048576.0;
            String loadBefore = loadAverage();
            try (RssPeak burst = RssPeak.watch(daemon.pid())) {
            try (Reference nginx = Reference.nginx(work.resolve("nginx-" + n), staticDir)) {
              Map<String, List<Wrk>> results = new LinkedHashMap<>();
              for (int r = 0; r < o.runs(); r++) {
                results.computeIfAbsent("summary polling", k -> new ArrayList<>())
                    .add(wrk(base + "/stats/summary", 10, o.seconds(), pollingScript));
                results.computeIfAbsent("nginx summary polling", k -> new ArrayList<>())
                    .add(wrk(nginx.url("/summary"), 10, o.seconds(), pollingScript));
                results.computeIfAbsent("nginx summary c10", k -> new ArrayList<>()).add(wrk(nginx.url("/summary"), 10, o.seconds()));
                for (int c : new int[] {1, 10}) {
                  results.computeIfAbsent("summary c" + c, k -> new ArrayList<>()).add(wrk(base + "/stats/summary", c, o.seconds()));
                  results.computeIfAbsent("metrics c" + c, k -> new ArrayList<>()).add(wrk(base + "/metrics", c, o.seconds()));
                  results.computeIfAbsent("nginx c" + c, k -> new ArrayList<>()).add(wrk(nginx.url("/metrics"), c, o.seconds()));
                  results.computeIfAbsent("node_exporter c" + c, k -> new ArrayList<>()).add(wrk(nodeExporter.url("/metrics"), c, o.seconds()));
                }
              }
              Wrk summaryPolling = medianP99(results.get("summary polling"));
              Wrk nginxPolling = medianP99(results.get("nginx summary polling"));
              polling.add(
                  String.format(
                      Locale.ROOT, "| %d | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | **%.2f** |",
                      n, summaryPolling.rps(), summaryPolling.p50Ms(), summaryPolling.p99Ms(), summaryPolling.maxMs(),
                      nginxPolling.p50Ms(), nginxPolling.p99Ms(), summaryPolling.p99Ms() / nginxPolling.p99Ms()));
              Wrk nginxSummary = medianP99(results.get("nginx summary c10"));
              for (int c : new int[] {1, 10}) {
                Wrk summary = median(results.get("summary c" + c));
                Wrk summaryTail = medianP99(results.get("summary c" + c));
                Wrk metrics = median(results.get("metrics c" + c));
                Wrk nginxRun = median(results.get("nginx c" + c));
                Wrk ne = median(results.get("node_exporter c" + c));
                rows.add(
                    String.format(
                        Locale.ROOT,
                        "| %d | %d | %.0f | %.2f | %.2f | %s | %.0f | %.0f | **%.2f** | %.2f | %.2f | **%.2f** |",
                        n, c, summary.rps(), summary.p50Ms(), summaryTail.p99Ms(),
                        c == 10 ? String.format(Locale.ROOT, "%.2f", nginxSummary.p99Ms()) : "",
                        metrics.rps(), nginxRun.rps(),
                        metrics.rps() / nginxRun.rps(), metrics.p50Ms(), ne.p50Ms(), metrics.p50Ms() / ne.p50Ms()));
              }
            }
              burstRssMaxMiB = burst.maxMiB();
            }
            // What the burst leaves behind once Prometheus alone scrapes again (issue 45: within 5 MiB of before).
            String loadAtEnd = loadAverage();
            Thread.sleep(TimeUnit.SECONDS.toMillis(o.afterSeconds()));
            double rssAfterMiB = DaemonVitals.residentBytes(daemon.pid()) / 1048576.0;
            burstMemory.add(
                String.format(
                    Locale.ROOT, "| %d | %.1f | %s | %.1f | %s | %.1f | %s | **%+.1f** |",
                    n, rssBeforeMiB, loadBefore, burstRssMaxMiB, loadAtEnd, rssAfterMiB, loadAverage(),
                    rssAfterMiB - rssBeforeMiB));
            footprint.add(
                String.format(
                    Locale.ROOT,
                    "| %d | %d | %.1f | %.1f | **%.2f** | %.1f | %.1f | %.1f | **%.1f** | %.1f | %.1f | **%.1f** | %.1f | %d | %d | %.0f |",
                    n, 2 * n, steady.cpuMillis(), steady.nodeExporterCpuMillis(),
                    steady.cpuMillis() / steady.nodeExporterCpuMillis(), steady.runtimeMillis(), runtimeIdleMillis,
                    steady.runtimeMillis() - runtimeIdleMillis, steady.cpuMillis() + steady.runtimeMillis() - runtimeIdleMillis,
                    steady.rssAvgMiB(), steady.rssMaxMiB(),
                    burstRssMaxMiB, steady.nodeExporterRssAvgMiB(), summaryBytes, metricsBytes,
                    failedCriRounds(daemon.get("/metrics").body())));
            curve.add(new CostCurve.Point(n, steady.cpuMillis(), steady.runtimeMillis() - runtimeIdleMillis,
                steady.rssAvgMiB()));
            startups.add(String.format(Locale.ROOT, "| %d | %.0f |", n, startupMs));
          }
        }
      }
    }
    System.out.printf("%nload after: %s%n", Files.readString(Path.of("/proc/loadavg")).strip());
    if (!o.viewers().isEmpty()) {
      PageCost.print(viewed, o.windowSeconds(), o.warmupSeconds());
      return;
    }
    System.out.printf(
        "%n| pods | conns | summary req/s | summary p50 ms | summary p99 ms | nginx summary p99 ms | metrics req/s | nginx static req/s | metrics/nginx | metrics p50 ms | node_exporter p50 ms | metrics/node_exporter latency |%n"
            + "|---|---|---|---|---|---|---|---|---|---|---|---|%n");
    rows.forEach(System.out::println);
    System.out.printf(
        "%n10 clients polling every 10 ms:%n| pods | summary req/s | summary p50 ms | summary p99 ms | summary max ms | nginx summary p50 ms | nginx summary p99 ms | p99/nginx |%n"
            + "|---|---|---|---|---|---|---|---|%n");
    polling.forEach(System.out::println);
    System.out.printf(
        "%n%d s window after %d s of warm-up (Prometheus scraping both every 15 s), then the wrk phase above:%n"
            + "runtime = containerd + its shims + the runc they reaped, per process; idle = over %d s before the daemon started%n"
            + "| pods | containers | CPU mCPU | node_exporter mCPU | CPU/node_exporter | runtime mCPU | runtime idle mCPU | runtime caused mCPU | the bill: CPU + caused mCPU | RSS MiB avg | RSS MiB max | RSS MiB max through the wrk burst | node_exporter RSS MiB avg | summary bytes | metrics bytes | failed CRI rounds |%n"
            + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|%n",
        o.windowSeconds(), o.warmupSeconds(), o.idleSeconds());
    footprint.forEach(System.out::println);
    CostCurve costCurve = new CostCurve(curve);
    System.out.print(costCurve.marginalTable());
    if (curve.size() > 1) {
      Files.writeString(o.curve(), costCurve.svg(String.format(Locale.ROOT,
          "The node's steady cost over its pods, drawn by bench/node (%d s window, load after %s)", o.windowSeconds(),
          loadAverage())));
      System.out.println("wrote the cost curve to " + o.curve().toAbsolutePath().normalize());
    }
    System.out.printf(
        "%nRSS around the wrk burst: just before it, its peak, and %d s after its end (load: 1, 5, 15 min)%n"
            + "| pods | RSS MiB before | load | RSS MiB max through the burst | load at its end | RSS MiB %d s after | load |"
            + " after - before MiB |%n|---|---|---|---|---|---|---|---|%n",
        o.afterSeconds(), o.afterSeconds());
    burstMemory.forEach(System.out::println);
    if (!bareStarts.isEmpty()) {
      System.out.printf(
          "%nStart-up to the first 200 of /healthz without a runtime (%d starts before any pod): median %.0f ms, all %s%n",
          bareStarts.size(), bareStarts.stream().sorted().toList().get(bareStarts.size() / 2),
          bareStarts.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList());
    }
    System.out.printf("%n| pods | start-up to ready /healthz ms, with the pods just created |%n|---|---|%n");
    startups.forEach(System.out::println);
  }

  /**
   * CRI rounds the daemon lost since it started, by every reason: a lost round does less work, so a run with some
   * is not comparable on CPU with one without (a 5 s deadline lost 4 rounds at 110 pods in one run).
   */
  static double failedCriRounds(String metrics) {
    return metrics
        .lines()
        .filter(l -> l.startsWith("winstats_exporter_collector_errors_total{") && l.contains("collector=\"cri\""))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  /**
   * The daemon's CPU and RSS over a window, and node_exporter's CPU over the same window: the machine's speed varies
   * from day to day by a factor of three here, the ratio to a peer doing a node agent's work on the same machine
   * much less.
   */
  record Footprint(
      double cpuMillis,
      double nodeExporterCpuMillis,
      double runtimeMillis,
      double rssAvgMiB,
      double rssMaxMiB,
      double nodeExporterRssAvgMiB) {}

  /** The runtime's CPU (millicores) over {@code seconds} of nothing else from the bench. */
  private static double runtimeMillis(RuntimeCpu runtime, int seconds) throws Exception {
    if (seconds == 0) {
      return Double.NaN; // not asked for (bench/ab hosts its pods on this bench)
    }
    long r0 = runtime.ticks().ticks();
    long t0 = System.nanoTime();
    Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
    long r1 = runtime.ticks().ticks();
    return (r1 - r0) / (double) clockTicks() / ((System.nanoTime() - t0) / 1e9) * 1000;
  }

  /**
   * CPU (millicores) and RSS (MiB, average and maximum) over {@code seconds} while the running Prometheus scrapes the
   * daemon and node_exporter every 15 s, with the runtime's CPU over the same window.
   */
  private static Footprint footprint(DaemonProcess daemon, Reference nodeExporter, RuntimeCpu runtime, int seconds)
      throws Exception {
    long runtime0 = runtime.ticks().ticks();
    long cpu0 = cpuTicks(daemon.pid());
    long nodeExporterCpu0 = cpuTicks(nodeExporter.pid());
    long t0 = System.nanoTime();
    double rssSum = 0;
    double rssMax = 0;
    double nodeExporterRssSum = 0;
    int samples = 0;
    long end = t0 + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < end) {
      double rss = DaemonVitals.residentBytes(daemon.pid()) / 1048576.0;
      rssSum += rss;
      rssMax = Math.max(rssMax, rss);
      nodeExporterRssSum += DaemonVitals.residentBytes(nodeExporter.pid()) / 1048576.0;
      samples++;
      Thread.sleep(Math.min(5_000, Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
    }
    double elapsed = (System.nanoTime() - t0) / 1e9;
    double ticksPerSecond = clockTicks();
    double cpuSeconds = (cpuTicks(daemon.pid()) - cpu0) / ticksPerSecond;
    double nodeExporterCpuSeconds = (cpuTicks(nodeExporter.pid()) - nodeExporterCpu0) / ticksPerSecond;
    double runtimeSeconds = (runtime.ticks().ticks() - runtime0) / ticksPerSecond;
    return new Footprint(
        cpuSeconds / elapsed * 1000, nodeExporterCpuSeconds / elapsed * 1000, runtimeSeconds / elapsed * 1000,
        rssSum / samples, rssMax,
        nodeExporterRssSum / samples);
  }

  /**
   * Start-up as the issue counts it: JVM launch to the first 200 of {@code /healthz}, with no runtime at the endpoint
   * (the daemon makes no CRI call before it serves), on a machine before any pod exists.
   */
  private static List<Double> startsWithoutRuntime(Path work, Options o) throws Exception {
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < o.starts(); i++) {
      long started = System.nanoTime();
      String endpoint = "--cri.endpoint=unix://" + work.toAbsolutePath().resolve("no-runtime.sock");
      try (DaemonProcess daemon = DaemonProcess.start(work.resolve("bare-" + i + ".log"), o.jvm(), endpoint)) {
        Deadline.await("/healthz 200", Duration.ofSeconds(60), () -> daemon.get("/healthz").status() == 200);
        millis.add((System.nanoTime() - started) / 1e6);
      }
    }
    return millis;
  }

  /** The largest RSS of a process, sampled every 100 ms on a daemon thread until closed. */
  private static final class RssPeak implements AutoCloseable {
    private final Thread sampler;
    private volatile long maxBytes;
    private volatile boolean stopped;

    private RssPeak(long pid) {
      sampler =
          new Thread(
              () -> {
                while (!stopped) {
                  maxBytes = Math.max(maxBytes, DaemonVitals.residentBytes(pid));
                  try {
                    Thread.sleep(100);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "rss-peak");
      sampler.setDaemon(true);
    }

    static RssPeak watch(long pid) {
      RssPeak peak = new RssPeak(pid);
      peak.sampler.start();
      return peak;
    }

    double maxMiB() {
      return maxBytes / 1048576.0;
    }

    @Override
    public void close() throws InterruptedException {
      stopped = true;
      sampler.join();
    }
  }

  private static Wrk wrk(String url, int connections, int seconds) throws IOException, InterruptedException {
    return wrk(url, connections, seconds, null);
  }

  /** A wrk run; with a {@code script}, wrk runs it (its {@code delay} hook paces each connection). */
  private static Wrk wrk(String url, int connections, int seconds, @Nullable Path script)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "wrk", "-t", String.valueOf(Math.min(2, connections)), "-c", String.valueOf(connections),
                "-d", seconds + "s", "--latency"));
    if (script != null) {
      command.addAll(List.of("-s", script.toString()));
    }
    command.add(url);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(seconds + 30L, TimeUnit.SECONDS);
    Matcher rps = RPS.matcher(out);
    if (!rps.find() || out.contains("Non-2xx")) {
      throw new IllegalStateException("wrk failed for " + url + ":\n" + out);
    }
    double p50 = 0;
    double p99 = 0;
    Matcher m = PCT.matcher(out);
    while (m.find()) {
      double v = millis(m.group(2), m.group(3));
      if (m.group(1).equals("50")) {
        p50 = v;
      } else {
        p99 = v;
      }
    }
    Matcher max = MAX.matcher(out);
    return new Wrk(Double.parseDouble(rps.group(1)), p50, p99, max.find() ? millis(max.group(1), max.group(2)) : Double.NaN);
  }

  private static double millis(String value, String unit) {
    return Double.parseDouble(value) * switch (unit) {
      case "us" -> 1e-3;
      case "ms" -> 1;
      default -> 1e3;
    };
  }

  /** The run with the median p99. */
  private static Wrk medianP99(List<Wrk> runs) {
    List<Wrk> sorted = new ArrayList<>(runs);
    sorted.sort((a, b) -> Double.compare(a.p99Ms(), b.p99Ms()));
    return sorted.get(sorted.size() / 2);
  }

  /** The run with the median throughput (its latencies stay consistent with it). */
  private static Wrk median(List<Wrk> runs) {
    List<Wrk> sorted = new ArrayList<>(runs);
    sorted.sort((a, b) -> Double.compare(a.rps(), b.rps()));
    return sorted.get(sorted.size() / 2);
  }

  /** The machine's load averages over 1, 5 and 15 minutes: the machine is shared, every figure carries its load. */
  private static String loadAverage() throws IOException {
    String[] f = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
    return f[0] + " " + f[1] + " " + f[2];
  }

  private static long cpuTicks(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
  }

  private static long clockTicks() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("getconf", "CLK_TCK").start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    p.waitFor();
    return Long.parseLong(out);
  }

  private static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }

  /** A reference server started for the benchmark on a free loopback port, stopped with it. */
  static final class Reference implements AutoCloseable {
    private final ChildProcess process;
    private final int port;

    private Reference(ChildProcess process, int port) {
      this.process = process;
      this.port = port;
    }

    String url(String path) {
      return "http://127.0.0.1:" + port + path;
    }

    String address() {
      return "127.0.0.1:" + port;
    }

    long pid() {
      return process.pid();
    }

    static Reference nodeExporter(Path dir) throws IOException {
      Files.createDirectories(dir);
      int port = DaemonProcess.freePort();
      return started(
          ChildProcess.start(List.of("prometheus-node-exporter", "--web.listen-address=127.0.0.1:" + port), dir.resolve("log")),
          port);
    }

    static Reference nginx(Path dir, Path root) throws IOException {
      Files.createDirectories(dir);
      int port = DaemonProcess.freePort();
      Path conf = dir.resolve("nginx.conf");
      Files.writeString(
          conf,
          String.format(
              """
              daemon off;
              worker_processes 1;
              pid %1$s/nginx.pid;
              error_log %1$s/error.log;
              events { worker_connections 256; }
              http {
                access_log off;
                client_body_temp_path %1$s/tmp;
                default_type text/plain;
                server { listen 127.0.0.1:%2$d; root %3$s; }
              }
              """,
              dir.toAbsolutePath(), port, root.toAbsolutePath()));
      return started(ChildProcess.start(List.of("nginx", "-c", conf.toAbsolutePath().toString()), dir.resolve("log")), port);
    }

    /** A Prometheus scraping only the daemon every 15 s. */
    static Reference prometheus(Path dir, String daemon) throws IOException {
      Files.createDirectories(dir);
      int port = DaemonProcess.freePort();
      Path conf = dir.resolve("prometheus.yml");
      Files.writeString(
          conf,
          "global: {scrape_interval: 15s}\nscrape_configs:\n  - job_name: winstats-exporter\n"
              + "    static_configs: [{targets: ['" + daemon + "']}]\n");
      return started(
          ChildProcess.start(
              List.of(
                  "prometheus", "--config.file=" + conf, "--storage.tsdb.path=" + dir.resolve("data"),
                  "--web.listen-address=127.0.0.1:" + port),
              dir.resolve("log")),
          port);
    }

    static Reference prometheus(Path dir, String daemon, String nodeExporter) throws IOException {
      Files.createDirectories(dir);
      int port = DaemonProcess.freePort();
      Path conf = dir.resolve("prometheus.yml");
      Files.writeString(
          conf,
          "global: {scrape_interval: 15s}\nscrape_configs:\n  - job_name: winstats-exporter\n"
              + "    static_configs: [{targets: ['" + daemon + "']}]\n  - job_name: node-exporter\n"
              + "    static_configs: [{targets: ['" + nodeExporter + "']}]\n");
      return started(
          ChildProcess.start(
              List.of(
                  "prometheus", "--config.file=" + conf, "--storage.tsdb.path=" + dir.resolve("data"),
                  "--web.listen-address=127.0.0.1:" + port),
              dir.resolve("log")),
          port);
    }

    private static Reference started(ChildProcess p, int port) {
      Deadline.await("a server on port " + port, Duration.ofSeconds(30), () -> {
        try (Socket s = new Socket("127.0.0.1", port)) {
          return true;
        } catch (IOException e) {
          return false;
        }
      });
      return new Reference(p, port);
    }

    @Override
    public void close() throws InterruptedException {
      process.close();
    }
  }
}
