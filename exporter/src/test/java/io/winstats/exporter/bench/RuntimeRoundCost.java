package io.winstats.exporter.bench;

import io.winstats.cri.StatsCall;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.testing.DaemonProcess;
import java.io.IOException;
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
import org.jspecify.annotations.Nullable;

/**
 * The whole bill of the daemon on a node: its own CPU plus the CPU it makes the runtime spend, for each {@link
 * StatsCall}, with N real pods of two containers each on a private containerd.
 *
 * <p>Windows of equal length alternate: one without any daemon (the runtime's own idle cost: containerd's
 * housekeeping, the shims' timers), then one per call with the real daemon jar running as the DaemonSet runs it
 * ({@code deploy/jvm.options}, {@code --sampling.interval=10s}, scraped every 15 s), each after a warm-up. The runtime's
 * CPU is containerd's and its shims', each with the {@code runc} runs it reaped ({@link RuntimeCpu}), per process, so
 * the other work on a shared machine stays out of it. The bill of a call is the daemon's CPU plus the runtime's CPU
 * over the window minus the runtime's CPU without the daemon; medians over the repeats.
 *
 * <p>Run with {@code bench/cri-cost [pods=110] [window=60] [warmup=30] [repeats=3]
 * [calls=ListPodSandboxStats,ListContainerStats] [daemon="--cri.timeout=2m"]}. Needs root and containerd runc containernetworking-plugins
 * busybox-static.
 */
public final class RuntimeRoundCost {
  private static final String NONE = "none";

  private record Options(
      int pods, int windowSeconds, int warmupSeconds, int repeats, List<StatsCall> calls, List<String> daemonFlags) {
    static Options parse(String[] args) {
      Map<String, String> kv = new LinkedHashMap<>();
      for (String a : args) {
        String[] pair = a.split("=", 2);
        if (pair.length != 2) {
          throw new IllegalArgumentException("expected key=value, got " + a);
        }
        kv.put(pair[0], pair[1]);
      }
      List<StatsCall> calls =
          kv.containsKey("calls")
              ? Arrays.stream(kv.remove("calls").split(",")).map(StatsCall::parse).toList()
              : List.of(StatsCall.values());
      Options o =
          new Options(
              Integer.parseInt(kv.getOrDefault("pods", "110")),
              Integer.parseInt(kv.getOrDefault("window", "60")),
              Integer.parseInt(kv.getOrDefault("warmup", "30")),
              Integer.parseInt(kv.getOrDefault("repeats", "3")),
              calls,
              Arrays.stream(kv.getOrDefault("daemon", "").split(" ")).filter(w -> !w.isBlank()).toList());
      kv.keySet().removeAll(List.of("pods", "window", "warmup", "repeats", "daemon"));
      if (!kv.isEmpty()) {
        throw new IllegalArgumentException("expected pods=, window=, warmup=, repeats=, calls= or daemon=, got " + kv.keySet());
      }
      return o;
    }
  }

  /** One window: the runtime's and the daemon's CPU in millicores (the daemon's 0 without one). */
  private record Window(String side, double runtimeMillis, double daemonMillis, int runtimeProcesses, String load) {}

  private RuntimeRoundCost() {}

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    Path work =
        Files.createTempDirectory(
            Path.of("target"), "cri-cost-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    List<String> jvm =
        List.of(
            "@" + Path.of("..", "deploy", "jvm.options").toAbsolutePath().normalize(),
            "-XX:SharedArchiveFile=" + Path.of("target", "winstats-exporter.jsa").toAbsolutePath());
    System.out.printf("load before: %s%n", load());
    List<Window> windows = new ArrayList<>();
    try (ContainerdHarness harness = ContainerdHarness.start(work.resolve("ctrd"))) {
      CriTestClient client = harness.client();
      long t0 = System.nanoTime();
      for (int i = 0; i < o.pods(); i++) {
        client.runPod("cost-" + i, "bench", List.of(ContainerSpec.sleeper("app"), ContainerSpec.sleeper("sidecar")));
      }
      System.out.printf(
          "%d pods (%d containers) running on %s, +%.1f s%n",
          o.pods(), 2 * o.pods(), harness.endpoint(), (System.nanoTime() - t0) / 1e9);
      RuntimeCpu runtime = new RuntimeCpu(harness.workDir());
      Thread.sleep(TimeUnit.SECONDS.toMillis(o.warmupSeconds())); // the creation's aftermath settles
      for (int r = 0; r < o.repeats(); r++) {
        Window idle = measure(NONE, runtime, null, o.windowSeconds());
        windows.add(idle);
        System.out.println(row(idle));
        for (StatsCall call : o.calls()) {
          List<String> flags =
              new ArrayList<>(
                  List.of(
                      "--cri.endpoint=" + harness.endpoint(),
                      "--sampling.interval=10s",
                      "--cri.stats-call=" + call.rpcName()));
          flags.addAll(o.daemonFlags());
          try (DaemonProcess daemon =
              DaemonProcess.start(
                  work.resolve("daemon-" + call.rpcName() + "-" + r + ".log"), jvm, flags.toArray(String[]::new));
              Scraper scraper = Scraper.every(Duration.ofSeconds(15), daemon)) {
            Deadline.await("/healthz 200", Duration.ofSeconds(60), () -> daemon.get("/healthz").status() == 200);
            int pods = o.pods();
            Deadline.await(
                pods + " pods served", Duration.ofSeconds(300),
                () -> count(daemon.get("/stats/summary").body(), "\"podRef\"") == pods);
            Thread.sleep(TimeUnit.SECONDS.toMillis(o.warmupSeconds()));
            Window w = measure(call.rpcName(), runtime, daemon, o.windowSeconds());
            windows.add(w);
            System.out.println(row(w));
          }
        }
      }
    }
    System.out.printf(
        "%nEach window %d s after %d s of warm-up; runtime = containerd + shims + the runc they reaped (per process)."
            + "%n| side | window | runtime mCPU | daemon mCPU | runtime processes | load average at its end |%n"
            + "|---|---|---|---|---|---|%n",
        o.windowSeconds(), o.warmupSeconds());
    for (int i = 0; i < windows.size(); i++) {
      Window w = windows.get(i);
      System.out.printf(
          Locale.ROOT, "| %s | %d | %.1f | %.1f | %d | %s |%n",
          w.side(), i + 1, w.runtimeMillis(), w.daemonMillis(), w.runtimeProcesses(), w.load());
    }
    double idle = median(windows, NONE, Window::runtimeMillis);
    System.out.printf(
        "%nMedians over %d repeats; the runtime without the daemon: %.1f mCPU.%n"
            + "| --cri.stats-call | daemon mCPU | runtime mCPU | runtime caused by the daemon mCPU | the bill: daemon + caused mCPU |%n"
            + "|---|---|---|---|---|%n",
        o.repeats(), idle);
    for (StatsCall call : o.calls()) {
      double daemon = median(windows, call.rpcName(), Window::daemonMillis);
      double rt = median(windows, call.rpcName(), Window::runtimeMillis);
      System.out.printf(
          Locale.ROOT, "| %s | %.1f | %.1f | %.1f | **%.1f** |%n", call.rpcName(), daemon, rt, rt - idle, daemon + rt - idle);
    }
    System.out.printf("%nload after: %s%n", load());
  }

  private static Window measure(String side, RuntimeCpu runtime, @Nullable DaemonProcess daemon, int seconds)
      throws Exception {
    RuntimeCpu.Ticks r0 = runtime.ticks();
    long d0 = daemon == null ? 0 : cpuTicks(daemon.pid());
    long t0 = System.nanoTime();
    Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
    RuntimeCpu.Ticks r1 = runtime.ticks();
    long d1 = daemon == null ? 0 : cpuTicks(daemon.pid());
    double elapsed = (System.nanoTime() - t0) / 1e9;
    double hz = 100; // USER_HZ, as /proc reports ticks on Linux
    return new Window(
        side, (r1.ticks() - r0.ticks()) / hz / elapsed * 1000, (d1 - d0) / hz / elapsed * 1000, r1.processes(), load());
  }

  private static String row(Window w) {
    return String.format(
        Locale.ROOT, "%s: runtime %.1f mCPU (%d processes), daemon %.1f mCPU, load %s",
        w.side(), w.runtimeMillis(), w.runtimeProcesses(), w.daemonMillis(), w.load());
  }

  private static double median(List<Window> windows, String side, java.util.function.ToDoubleFunction<Window> f) {
    double[] v = windows.stream().filter(w -> w.side().equals(side)).mapToDouble(f).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static String load() throws IOException {
    String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return f[0] + " " + f[1] + " " + f[2];
  }

  private static long cpuTicks(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  private static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }

  /** Fetches {@code /metrics} and {@code /stats/summary} on a daemon thread at a fixed rate, as a scraper would. */
  private static final class Scraper implements AutoCloseable {
    private final Thread thread;

    private Scraper(Thread thread) {
      this.thread = thread;
    }

    static Scraper every(Duration period, DaemonProcess daemon) {
      Thread t =
          new Thread(
              () -> {
                while (!Thread.currentThread().isInterrupted()) {
                  try {
                    daemon.get("/metrics");
                    daemon.get("/stats/summary");
                    Thread.sleep(period.toMillis());
                  } catch (InterruptedException e) {
                    return;
                  } catch (RuntimeException e) {
                    // not up yet, or stopping: the next period tries again
                  }
                }
              },
              "scraper");
      t.setDaemon(true);
      t.start();
      return new Scraper(t);
    }

    @Override
    public void close() throws InterruptedException {
      thread.interrupt();
      thread.join(TimeUnit.SECONDS.toMillis(10));
    }
  }
}
