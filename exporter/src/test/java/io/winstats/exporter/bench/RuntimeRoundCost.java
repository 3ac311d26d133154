package io.winstats.exporter.bench;

import io.winstats.cri.CriEndpoint;
import io.winstats.cri.CriStatsReader;
import io.winstats.cri.InodeCounter;
import io.winstats.cri.rounds.CriStatsReaders;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.StatsCall;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupSampler;
import io.winstats.cri.testing.ContainerSpec;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.condition.OS;

/**
 * What one sampling round costs the whole machine — containerd, its shims and whatever they start — for each {@link
 * StatsCall}, with N real pods of two containers each on a private containerd.
 *
 * <p>The cost is the machine's busy CPU time ({@code /proc/stat}: user, nice, system, irq, softirq) over a window with
 * rounds, minus the same window's length without rounds (the pods' own idle noise), divided by the rounds. Calls
 * alternate between the two choices so that drift in the background hits both.
 *
 * <p>Run with {@code bench/cri-cost [pods=110] [rounds=5] [repeats=2] [cgroup-rounds=30]
 * [calls=ListPodSandboxStats,ListContainerStats]}. The cgroup read is timed after the first call's rounds, over
 * {@code cgroup-rounds} rounds (enough for the JIT to finish with it), and reported per round and per cgroup. Needs
 * root and containerd runc containernetworking-plugins busybox-static.
 */
public final class RuntimeRoundCost {
  private static final Duration SPACING = Duration.ofSeconds(2);

  private RuntimeRoundCost() {}

  public static void main(String[] args) throws Exception {
    int pods = 110;
    int rounds = 5;
    int repeats = 2;
    int cgroupRounds = 30;
    List<StatsCall> calls = List.of(StatsCall.values());
    for (String a : args) {
      String[] kv = a.split("=", 2);
      switch (kv[0]) {
        case "pods" -> pods = Integer.parseInt(kv[1]);
        case "rounds" -> rounds = Integer.parseInt(kv[1]);
        case "repeats" -> repeats = Integer.parseInt(kv[1]);
        case "cgroup-rounds" -> cgroupRounds = Integer.parseInt(kv[1]);
        case "calls" ->
            calls =
                java.util.Arrays.stream(kv[1].split(","))
                    .map(name -> java.util.Arrays.stream(StatsCall.values())
                        .filter(c -> c.rpcName().equals(name))
                        .findFirst()
                        .orElseThrow(() -> new IllegalArgumentException("unknown call " + name)))
                    .toList();
        default ->
            throw new IllegalArgumentException(
                "expected pods=, rounds=, repeats=, cgroup-rounds= or calls=, got " + a);
      }
    }
    Path work =
        Files.createTempDirectory(
            Path.of("target"), "cri-cost-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    List<String> rows = new ArrayList<>();
    String cgroupRound = "";
    try (ContainerdHarness harness = ContainerdHarness.start(work.resolve("ctrd"))) {
      CriTestClient client = harness.client();
      for (int i = 0; i < pods; i++) {
        client.runPod("cost-" + i, "bench", List.of(ContainerSpec.sleeper("app"), ContainerSpec.sleeper("sidecar")));
      }
      System.out.printf("%d pods (%d containers) running on %s%n", pods, 2 * pods, harness.endpoint());
      int n = rounds;
      for (int r = 0; r < repeats; r++) {
        double idle = busySeconds(() -> sleep(SPACING.multipliedBy(n)));
        for (StatsCall call : calls) {
          try (CriStatsReader reader =
              CriStatsReaders.open(
                  CriEndpoint.parse(harness.endpoint()),
                  Duration.ofSeconds(60),
                  Clock.systemUTC(),
                  call,
                  InodeCounter.NONE,
                  OS.WINDOWS.isCurrentOs())) {
            reader.sample(); // connect, Version, identity caches
            sleep(SPACING);
            long[] wallNanos = {0};
            double busy =
                busySeconds(
                    () -> {
                      for (int i = 0; i < n; i++) {
                        long t0 = System.nanoTime();
                        reader.sample();
                        long took = System.nanoTime() - t0;
                        wallNanos[0] += took;
                        sleep(SPACING.minusNanos(took));
                      }
                    });
            rows.add(
                String.format(
                    Locale.ROOT, "| %s | %d | %d | %.0f | %.2f | %.2f |",
                    call.rpcName(), pods, rounds, wallNanos[0] / 1e6 / rounds, (busy - idle) / rounds, idle / rounds));
            if (call == calls.get(0) && r == 0) {
              cgroupRound = cgroupRoundCost(reader.sample(), pods, cgroupRounds, idle / n);
            }
          }
        }
      }
    }
    System.out.printf(
        "%n| call | pods | rounds | wall per round ms | machine CPU per round s (minus idle) | idle CPU per %d s |%n"
            + "|---|---|---|---|---|---|%n",
        SPACING.toSeconds());
    rows.forEach(System.out::println);
    System.out.printf(
        "%nThe daemon's cgroup read of the same round (CgroupSampler: every container's cgroup, every pod's cgroup and"
            + " net/dev), on the calling thread:%n| pods | cgroups | rounds | thread CPU per round ms (median) | thread CPU"
            + " per cgroup µs | wall per round ms (median) | machine CPU per round s (minus idle) |%n"
            + "|---|---|---|---|---|---|---|%n%s%n",
        cgroupRound);
  }

  /** The cgroup read the daemon makes after each round ({@link CgroupSampler#sample(RuntimeSample)}), timed. */
  private static String cgroupRoundCost(RuntimeSample round, int pods, int rounds, double idlePerRound)
      throws Exception {
    CgroupSampler sampler = CgroupSampler.host(Clock.systemUTC());
    sampler.sample(round); // the first walk of the hierarchy, which later rounds do not repeat
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    List<Double> cpuMs = new ArrayList<>();
    List<Double> wallMs = new ArrayList<>();
    double busy =
        busySeconds(
            () -> {
              for (int i = 0; i < rounds; i++) {
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                CgroupSample sample = sampler.sample(round);
                long took = System.nanoTime() - t0;
                cpuMs.add((threads.getCurrentThreadCpuTime() - c0) / 1e6);
                wallMs.add(took / 1e6);
                if (!sample.missing().isEmpty()) {
                  throw new IllegalStateException("cgroups missing: " + sample.missing());
                }
                sleep(SPACING.minusNanos(took));
              }
            });
    Collections.sort(cpuMs);
    Collections.sort(wallMs);
    int cgroups = round.pods().size() + round.pods().stream().mapToInt(p -> p.containers().size()).sum();
    double medianCpuMs = cpuMs.get(cpuMs.size() / 2);
    return String.format(
        Locale.ROOT, "| %d | %d | %d | %.1f | %.0f | %.1f | %.2f |",
        pods, cgroups, rounds, medianCpuMs, medianCpuMs * 1000 / cgroups, wallMs.get(wallMs.size() / 2),
        busy / rounds - idlePerRound);
  }

  private static double busySeconds(Runnable during) throws Exception {
    long before = busyTicks();
    during.run();
    return (busyTicks() - before) / 100.0; // USER_HZ
  }

  /** user + nice + system + irq + softirq of the machine, in clock ticks. */
  private static long busyTicks() throws Exception {
    String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
    return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6]) + Long.parseLong(f[7]);
  }

  private static void sleep(Duration d) {
    if (d.isNegative() || d.isZero()) {
      return;
    }
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
