package io.winstats.exporter.bench;

import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.cri.testing.PodHandle;
import io.winstats.exporter.testing.DaemonProcess;
import io.winstats.exporter.testing.DaemonVitals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The soak (issue 34): N real pods on a private containerd with a tenth of them (or {@code replace}) replaced every
 * minute, the daemon scraped by a real Prometheus every 15 s and its summary polled every 10 s, for a bounded time; it
 * stops by itself.
 * At the start (after a warm-up), every {@code every} minutes and at the end it reads the daemon's heap after a full GC
 * ({@code jcmd GC.class_histogram}), RSS, the live series of {@code /metrics}, its open descriptors and threads, and
 * the entries of the CRI reader's caches; then prints what changed, per hour (end minus start, and the least-squares
 * slope over every checkpoint). All traffic goes to 127.0.0.1.
 *
 * <p>Run with {@code bench/soak [pods=110] [minutes=30] [every=5] [warmup=120] [replace=pods/10] [jvm="..."]
 * [daemon="--flag ..."]}.
 * Needs root and containerd runc containernetworking-plugins busybox-static prometheus, and jcmd.
 */
public final class SoakBenchmark {
  private record Options(
      int pods, int minutes, int everyMinutes, int warmupSeconds, int replacePerMinute, List<String> jvm,
      List<String> daemonFlags) {
    static Options parse(String[] args) {
      Map<String, String> kv = new LinkedHashMap<>();
      for (String a : args) {
        int eq = a.indexOf('=');
        if (eq < 0) {
          throw new IllegalArgumentException("expected key=value, got " + a);
        }
        kv.put(a.substring(0, eq), a.substring(eq + 1));
      }
      String deployed =
          "@" + Path.of("..", "deploy", "jvm.options").toAbsolutePath().normalize()
              + " -XX:SharedArchiveFile=" + Path.of("target", "winstats-exporter.jsa").toAbsolutePath();
      int pods = Integer.parseInt(kv.getOrDefault("pods", "110"));
      Options o =
          new Options(
              pods,
              Integer.parseInt(kv.getOrDefault("minutes", "30")),
              Integer.parseInt(kv.getOrDefault("every", "5")),
              Integer.parseInt(kv.getOrDefault("warmup", "120")),
              Integer.parseInt(kv.getOrDefault("replace", String.valueOf(Math.max(1, pods / 10)))),
              words(kv.getOrDefault("jvm", deployed)),
              words(kv.getOrDefault("daemon", "")));
      kv.keySet().removeAll(List.of("pods", "minutes", "every", "warmup", "replace", "jvm", "daemon"));
      if (!kv.isEmpty()) {
        throw new IllegalArgumentException("unknown options " + kv.keySet());
      }
      return o;
    }

    private static List<String> words(String s) {
      return Arrays.stream(s.split(" ")).filter(w -> !w.isBlank()).toList();
    }
  }

  /** One reading of the daemon. */
  private record Checkpoint(
      double minute, double heapMiB, double rssMiB, long series, int descriptors, int threads, long cacheEntries,
      int pods, String load) {}

  private SoakBenchmark() {}

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    Path work =
        Files.createTempDirectory(
            Path.of("target"),
            "soak-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    System.out.printf(
        "soak: %d pods, %d replaced every minute, %d min, checkpoints every %d min%njvm flags: %s%n"
            + "daemon flags: %s%nload before: %s%n",
        o.pods(), o.replacePerMinute(), o.minutes(), o.everyMinutes(), String.join(" ", o.jvm()),
        String.join(" ", o.daemonFlags()),
        Files.readString(Path.of("/proc/loadavg")).strip());
    List<Checkpoint> checkpoints = new ArrayList<>();
    int replaced = 0;
    try (ContainerdHarness harness = ContainerdHarness.start(work.resolve("ctrd"))) {
      CriTestClient client = harness.client();
      Deque<PodHandle> pods = new ArrayDeque<>();
      int created = 0;
      for (; created < o.pods(); created++) {
        pods.add(client.runPod("soak-" + created, "bench", sleepers()));
      }
      List<String> flags = new ArrayList<>(List.of("--cri.endpoint=" + harness.endpoint(), "--sampling.interval=10s"));
      flags.addAll(o.daemonFlags());
      try (DaemonProcess daemon =
              DaemonProcess.start(work.resolve("daemon.log"), o.jvm(), flags.toArray(String[]::new));
          NodeBenchmark.Reference prometheus =
              NodeBenchmark.Reference.prometheus(work.resolve("prometheus"), "127.0.0.1:" + daemon.port())) {
        Deadline.await("/healthz 200", Duration.ofSeconds(60), () -> daemon.get("/healthz").status() == 200);
        Thread poller = summaryPoller(daemon);
        try {
          Thread.sleep(TimeUnit.SECONDS.toMillis(o.warmupSeconds()));
          long start = System.nanoTime();
          checkpoints.add(checkpoint(daemon, 0, pods.size()));
          System.out.println(row(checkpoints.get(0)));
          for (int minute = 1; minute <= o.minutes(); minute++) {
            long due = start + TimeUnit.MINUTES.toNanos(minute);
            for (int i = 0; i < o.replacePerMinute(); i++) {
              client.removePod(pods.removeFirst());
              pods.add(client.runPod("soak-" + created++, "bench", sleepers()));
              replaced++;
            }
            long wait = due - System.nanoTime();
            if (wait > 0) {
              TimeUnit.NANOSECONDS.sleep(wait);
            }
            if (minute % o.everyMinutes() == 0 || minute == o.minutes()) {
              Checkpoint c = checkpoint(daemon, (System.nanoTime() - start) / 6e10, pods.size());
              checkpoints.add(c);
              System.out.println(row(c));
            }
          }
        } finally {
          poller.interrupt();
        }
        if (!daemon.isAlive()) {
          throw new IllegalStateException("the daemon exited during the soak:\n" + daemon.log());
        }
      }
    }
    System.out.printf(
        "%n%d pods replaced in all.%n| minute | heap after GC MiB | RSS MiB | live series | open descriptors | threads"
            + " | CRI cache entries | pods | load |%n|---|---|---|---|---|---|---|---|---|%n",
        replaced);
    checkpoints.forEach(c -> System.out.printf(Locale.ROOT, "| %.1f | %.1f | %.1f | %d | %d | %d | %d | %d | %s |%n",
        c.minute(), c.heapMiB(), c.rssMiB(), c.series(), c.descriptors(), c.threads(), c.cacheEntries(), c.pods(),
        c.load()));
    Checkpoint first = checkpoints.get(0);
    Checkpoint last = checkpoints.get(checkpoints.size() - 1);
    double hours = (last.minute() - first.minute()) / 60;
    System.out.printf(
        "%n| figure | start | end | end - start, per hour | least-squares slope, per hour |%n|---|---|---|---|---|%n");
    growth("heap after GC MiB", checkpoints, Checkpoint::heapMiB, hours);
    growth("RSS MiB", checkpoints, Checkpoint::rssMiB, hours);
    growth("live series", checkpoints, Checkpoint::series, hours);
    growth("open descriptors", checkpoints, Checkpoint::descriptors, hours);
    growth("threads", checkpoints, Checkpoint::threads, hours);
    growth("CRI cache entries", checkpoints, Checkpoint::cacheEntries, hours);
    System.out.printf("%nload after: %s%n", Files.readString(Path.of("/proc/loadavg")).strip());
  }

  private static List<ContainerSpec> sleepers() {
    return List.of(ContainerSpec.sleeper("app"), ContainerSpec.sleeper("sidecar"));
  }

  private static void growth(String name, List<Checkpoint> cs, ToDoubleFunction<Checkpoint> f, double hours) {
    double first = f.applyAsDouble(cs.get(0));
    double last = f.applyAsDouble(cs.get(cs.size() - 1));
    double mx = cs.stream().mapToDouble(Checkpoint::minute).average().orElse(0);
    double my = cs.stream().mapToDouble(f).average().orElse(0);
    double sxy = 0;
    double sxx = 0;
    for (Checkpoint c : cs) {
      sxy += (c.minute() - mx) * (f.applyAsDouble(c) - my);
      sxx += (c.minute() - mx) * (c.minute() - mx);
    }
    double slopePerHour = sxx == 0 ? 0 : sxy / sxx * 60;
    System.out.printf(
        Locale.ROOT, "| %s | %.1f | %.1f | %+.1f | %+.1f |%n", name, first, last, (last - first) / hours, slopePerHour);
  }

  private static Checkpoint checkpoint(DaemonProcess daemon, double minute, int pods) throws Exception {
    String metrics = daemon.get("/metrics").body();
    long series = metrics.lines().filter(l -> !l.isEmpty() && !l.startsWith("#")).count();
    long cacheEntries =
        metrics.lines()
            .filter(l -> l.startsWith("winstats_exporter_cri_cache_entries{"))
            .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
            .sum();
    double rss = DaemonVitals.residentBytes(daemon.pid()) / 1048576.0;
    int fds = DaemonVitals.fileDescriptors(daemon.pid());
    int threads = DaemonVitals.threads(daemon.pid());
    double heap = DaemonVitals.heapAfterGc(daemon.pid()).liveBytes() / 1048576.0;
    return new Checkpoint(
        minute, heap, rss, series, fds, threads, cacheEntries, pods,
        Files.readString(Path.of("/proc/loadavg")).strip().split(" ", 4)[0]);
  }

  private static String row(Checkpoint c) {
    return String.format(
        Locale.ROOT,
        "minute %.1f: heap %.1f MiB, RSS %.1f MiB, %d series, %d fds, %d threads, %d cache entries, %d pods, load %s",
        c.minute(), c.heapMiB(), c.rssMiB(), c.series(), c.descriptors(), c.threads(), c.cacheEntries(), c.pods(),
        c.load());
  }

  /** Polls {@code /stats/summary} every 10 s, as a kubelet-summary reader would, until interrupted. */
  private static Thread summaryPoller(DaemonProcess daemon) {
    Thread t =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                try {
                  daemon.get("/stats/summary");
                  Thread.sleep(10_000);
                } catch (InterruptedException e) {
                  return;
                } catch (RuntimeException e) {
                  // the daemon busy or restarting: the next poll tries again
                }
              }
            },
            "summary-poller");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
