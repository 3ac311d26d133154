package io.winstats.exporter.bench;

import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import io.winstats.cri.testing.Deadline;
import io.winstats.exporter.testing.DaemonProcess;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * End-to-end serving load at N real pods (2 containers each) on a private containerd: {@code wrk} against the running
 * daemon's {@code /stats/summary} and {@code /metrics} with 1 and 10 connections, and against nginx serving a static
 * copy of the same {@code /metrics} body in the same run (the machine's limit for that body). Run with
 * {@code bench/serving [PODS] [SECONDS]}; needs root, containerd, runc, the CNI plugins, busybox-static, wrk and nginx.
 */
public final class ServingBenchmark {
  private record WrkResult(String target, int connections, double requestsPerSecond, String p50, String p90, String p99, long bytes) {}

  private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
  private static final Pattern PCT = Pattern.compile("^\\s+(50|90|99)%\\s+(\\S+)", Pattern.MULTILINE);

  private ServingBenchmark() {}

  public static void main(String[] args) throws Exception {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 110;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    // nginx's worker runs unprivileged: the directories it serves from must be readable by others.
    Path work =
        Files.createTempDirectory(
            Path.of("target"), "bench-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    List<WrkResult> results = new ArrayList<>();
    try (ContainerdHarness harness = ContainerdHarness.start(work.resolve("ctrd"))) {
      CriTestClient client = harness.client();
      Instant t0 = Instant.now();
      for (int p = 0; p < pods; p++) {
        client.runPod("bench-" + p, "bench", List.of(ContainerSpec.sleeper("app"), ContainerSpec.sleeper("sidecar")));
      }
      System.out.printf("created %d pods in %s%n", pods, Duration.between(t0, Instant.now()));
      try (DaemonProcess daemon =
          DaemonProcess.start(work.resolve("daemon.log"), "--cri.endpoint=" + harness.endpoint(), "--sampling.interval=10s")) {
        Deadline.await(
            pods + " pods in /stats/summary",
            Duration.ofSeconds(120),
            () -> countOccurrences(daemon.get("/stats/summary").body(), "\"podRef\"") == pods);
        String base = "http://127.0.0.1:" + daemon.port();
        Path metricsCopy = work.resolve("static/metrics");
        Files.createDirectories(metricsCopy.getParent());
        Files.writeString(metricsCopy, daemon.get("/metrics").body());
        try (Nginx nginx = Nginx.start(work.resolve("nginx"), metricsCopy.getParent())) {
          for (int c : new int[] {1, 10}) {
            results.add(wrk(base + "/stats/summary", c, seconds));
            results.add(wrk(base + "/metrics", c, seconds));
            results.add(wrk("http://127.0.0.1:" + nginx.port + "/metrics", c, seconds));
          }
          results.add(wrk(base + "/metrics/resource", 10, seconds));
        }
        System.out.printf("daemon rss=%s%n", rss(daemon.pid()));
      }
    }
    System.out.println();
    System.out.printf("| target | connections | req/s | p50 | p90 | p99 | body bytes |%n|---|---|---|---|---|---|---|%n");
    for (WrkResult r : results) {
      System.out.printf(
          Locale.ROOT, "| %s | %d | %.0f | %s | %s | %s | %d |%n",
          r.target(), r.connections(), r.requestsPerSecond(), r.p50(), r.p90(), r.p99(), r.bytes());
    }
  }

  private static WrkResult wrk(String url, int connections, int seconds) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(
                "wrk", "-t", String.valueOf(Math.min(2, connections)), "-c", String.valueOf(connections),
                "-d", seconds + "s", "--latency", url)
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(seconds + 30L, TimeUnit.SECONDS);
    Matcher rps = RPS.matcher(out);
    if (!rps.find() || out.contains("Non-2xx")) {
      throw new IllegalStateException("wrk failed for " + url + ":\n" + out);
    }
    String[] pct = new String[3];
    Matcher m = PCT.matcher(out);
    while (m.find()) {
      pct[switch (m.group(1)) { case "50" -> 0; case "90" -> 1; default -> 2; }] = m.group(2);
    }
    long bytes = bodyBytes(url);
    String target = url.replaceFirst("http://127\\.0\\.0\\.1:\\d+", url.contains(":" + Nginx.lastPort + "/") ? "nginx static" : "daemon");
    return new WrkResult(target, connections, Double.parseDouble(rps.group(1)), pct[0], pct[1], pct[2], bytes);
  }

  private static long bodyBytes(String url) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("curl", "-s", "-o", "/dev/null", "-w", "%{size_download}", url).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    p.waitFor();
    return Long.parseLong(out);
  }

  private static String rss(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return line.substring("VmRSS:".length()).trim();
      }
    }
    return "?";
  }

  private static int countOccurrences(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }

  /** nginx on a free loopback port serving one directory, as the reference for a static body. */
  private static final class Nginx implements AutoCloseable {
    static volatile int lastPort;
    final int port;
    private final Process process;

    private Nginx(int port, Process process) {
      this.port = port;
      this.process = process;
    }

    static Nginx start(Path dir, Path root) throws IOException {
      Files.createDirectories(dir);
      int port;
      try (ServerSocket s = new ServerSocket(0)) {
        port = s.getLocalPort();
      }
      lastPort = port;
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
                server {
                  listen 127.0.0.1:%2$d;
                  root %3$s;
                }
              }
              """,
              dir.toAbsolutePath(), port, root.toAbsolutePath()));
      Process p = new ProcessBuilder("nginx", "-c", conf.toAbsolutePath().toString()).redirectErrorStream(true).start();
      Deadline.await("nginx up", Duration.ofSeconds(10), () -> {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
          return true;
        } catch (IOException e) {
          return false;
        }
      });
      return new Nginx(port, p);
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      process.waitFor(5, TimeUnit.SECONDS);
    }
  }
}
