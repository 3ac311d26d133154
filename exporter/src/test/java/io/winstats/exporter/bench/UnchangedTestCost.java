package io.winstats.exporter.bench;

import io.winstats.cri.cgroups.CgroupReader;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupSampler;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.CgroupVersion;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import java.io.FileInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the candidate tests of "this container is unchanged" cost against reading the container, with N real pods of
 * two idle containers each on a private containerd (issue 45: unchanged containers read less often). Per round, on
 * this thread, alternating: every container's full read ({@link CgroupReader#read}, what the round does now), every
 * container's one-file test (v1 {@code cpuacct.usage}, v2 {@code cpu.stat}: opened, read, parsed, compared), and every
 * container's {@code stat()} of that file (its mtime), and every container's memory usage file (v1 {@code
 * memory.usage_in_bytes}, v2 {@code memory.current}), a second file of a test. Thread CPU per round, median of the
 * measured rounds.
 *
 * <p>It also counts, between rounds {@code gap} seconds apart, the containers whose full read was equal to the one
 * before ({@link CgroupStats#equals}, cAdvisor's {@code StatsEq} test), whose one file was unchanged, and whose mtime
 * moved: a test that cannot see a change is no test.
 *
 * <p>Run with {@code bench/cgroup-unchanged [pods=110] [warmup=20] [rounds=20] [gap=10]}. Needs root and containerd
 * runc containernetworking-plugins busybox-static.
 */
public final class UnchangedTestCost {
  private UnchangedTestCost() {}

  public static void main(String[] args) throws Exception {
    int pods = 110;
    int warmup = 20;
    int rounds = 20;
    int gap = 10;
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "pods" -> pods = Integer.parseInt(kv[1]);
        case "warmup" -> warmup = Integer.parseInt(kv[1]);
        case "rounds" -> rounds = Integer.parseInt(kv[1]);
        case "gap" -> gap = Integer.parseInt(kv[1]);
        default -> throw new IllegalArgumentException("expected pods=, warmup=, rounds= or gap=, got " + arg);
      }
    }
    Path work =
        Files.createTempDirectory(
            Path.of("target"),
            "cgroup-unchanged-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    try (ContainerdHarness harness = ContainerdHarness.start(work.resolve("ctrd"))) {
      CriTestClient client = harness.client();
      BenchPods created = BenchPods.create(client, "unchanged", pods, 10);
      List<String> sandboxes = created.sandboxes();
      List<String> containers = created.containers();
      CgroupSampler sampler = CgroupSampler.host(Clock.systemUTC());
      CgroupSample located = sampler.sample(sandboxes, containers);
      if (!located.missing().isEmpty()) {
        throw new IllegalStateException("cgroups missing: " + located.missing());
      }
      List<String> paths = new ArrayList<>();
      located.containers().values().forEach(s -> paths.add(s.path()));
      Collections.sort(paths);
      boolean v2 = sampler.version() == CgroupVersion.V2;
      List<String> testFiles = new ArrayList<>();
      List<String> memoryFiles = new ArrayList<>();
      for (String p : paths) {
        memoryFiles.add(v2 ? "/sys/fs/cgroup" + p + "/memory.current" : "/sys/fs/cgroup/memory" + p
            + "/memory.usage_in_bytes");
        testFiles.add(v2 ? "/sys/fs/cgroup" + p + "/cpu.stat" : "/sys/fs/cgroup/cpuacct" + p + "/cpuacct.usage");
      }
      System.out.printf(
          Locale.ROOT, "%d pods, %d containers, %s, on %s%n", pods, paths.size(), sampler.version(),
          harness.endpoint());
      CgroupReader reader = CgroupReader.host();
      com.sun.management.ThreadMXBean threads =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      List<Long> full = new ArrayList<>();
      List<Long> oneFile = new ArrayList<>();
      List<Long> mtime = new ArrayList<>();
      Map<String, CgroupStats> lastStats = new HashMap<>();
      Map<String, Long> lastUsage = new HashMap<>();
      Map<String, Long> lastMtime = new HashMap<>();
      Map<String, Long> lastMemoryUsage = new HashMap<>();
      List<Long> memoryFile = new ArrayList<>();
      long twoFilesMissed = 0;
      long comparisons = 0;
      long statsEqual = 0;
      long usageEqual = 0;
      long usageMoved = 0;
      long mtimeMoved = 0;
      long usageEqualStatsDiffer = 0;
      Map<String, Integer> differing = new java.util.TreeMap<>();
      byte[] buffer = new byte[8192];
      for (int i = 0; i < warmup + rounds; i++) {
        boolean keep = i >= warmup;
        long c0 = threads.getCurrentThreadCpuTime();
        Map<String, CgroupStats> stats = new HashMap<>();
        for (String p : paths) {
          stats.put(p, reader.read(p));
        }
        long c1 = threads.getCurrentThreadCpuTime();
        Map<String, Long> usage = new HashMap<>();
        for (int k = 0; k < paths.size(); k++) {
          usage.put(paths.get(k), usage(testFiles.get(k), buffer, v2));
        }
        long c2 = threads.getCurrentThreadCpuTime();
        Map<String, Long> mtimes = new HashMap<>();
        for (int k = 0; k < paths.size(); k++) {
          mtimes.put(paths.get(k), Files.getLastModifiedTime(Path.of(testFiles.get(k))).toMillis());
        }
        long c3 = threads.getCurrentThreadCpuTime();
        Map<String, Long> memoryUsage = new HashMap<>();
        for (int k = 0; k < paths.size(); k++) {
          memoryUsage.put(paths.get(k), single(memoryFiles.get(k), buffer));
        }
        long c4 = threads.getCurrentThreadCpuTime();
        if (keep) {
          full.add(c1 - c0);
          oneFile.add(c2 - c1);
          mtime.add(c3 - c2);
          memoryFile.add(c4 - c3);
          for (String p : paths) {
            comparisons++;
            boolean same = stats.get(p).equals(lastStats.get(p));
            boolean usageSame = usage.get(p).equals(lastUsage.get(p));
            statsEqual += same ? 1 : 0;
            usageEqual += usageSame ? 1 : 0;
            usageMoved += usageSame ? 0 : 1;
            usageEqualStatsDiffer += usageSame && !same ? 1 : 0;
            if (usageSame && !same && lastStats.get(p) != null) {
              differing.merge(differences(lastStats.get(p), stats.get(p)), 1, Integer::sum);
            }
            mtimeMoved += mtimes.get(p).equals(lastMtime.get(p)) ? 0 : 1;
            boolean bothSame = usageSame && memoryUsage.get(p).equals(lastMemoryUsage.get(p));
            twoFilesMissed += bothSame && !same ? 1 : 0;
          }
        }
        lastStats = stats;
        lastUsage = usage;
        lastMtime = mtimes;
        lastMemoryUsage = memoryUsage;
        Thread.sleep(keep ? gap * 1000L : 1000L);
      }
      System.out.printf(
          Locale.ROOT,
          "%n%d pods, %d containers, %d rounds %d s apart after %d warm-up rounds 1 s apart, load %s%n"
              + "| per round, all containers | thread CPU ms (median) | p10–p90 | per container µs |%n"
              + "|---|---|---|---|%n",
          pods, paths.size(), rounds, gap, warmup, Files.readString(Path.of("/proc/loadavg")).strip());
      row("full read (CgroupReader.read)", full, paths.size());
      row("one-file test (" + (v2 ? "cpu.stat" : "cpuacct.usage") + ")", oneFile, paths.size());
      row("stat() mtime", mtime, paths.size());
      row("the memory usage file, a second file of a test", memoryFile, paths.size());
      System.out.printf(
          Locale.ROOT,
          "%ncontainer comparisons, each with the round before: %d; full read equal to the one before: %d;"
              + " one file unchanged: %d (of which the full read differed: %d); one file moved: %d; mtime moved: %d%n",
          comparisons, statsEqual, usageEqual, usageEqualStatsDiffer, usageMoved, mtimeMoved);
      System.out.printf(Locale.ROOT, "what differed where the one file did not: %s%n", differing);
      System.out.printf(
          Locale.ROOT, "full read changed where both the CPU and the memory usage file were unchanged: %d%n",
          twoFilesMissed);
    }
  }

  private static void row(String name, List<Long> nanos, int containers) {
    double median = percentile(nanos, 50) / 1e6;
    System.out.printf(
        Locale.ROOT, "| %s | %.2f | %.2f–%.2f | %.1f |%n", name, median, percentile(nanos, 10) / 1e6,
        percentile(nanos, 90) / 1e6, median * 1000 / containers);
  }

  /** The file's usage: v1 {@code cpuacct.usage}'s one number, v2 {@code cpu.stat}'s {@code usage_usec}. */
  private static Long usage(String file, byte[] buffer, boolean v2) throws IOException {
    int n;
    try (FileInputStream in = new FileInputStream(file)) {
      n = in.read(buffer, 0, buffer.length);
    }
    String text = new String(buffer, 0, Math.max(n, 0), StandardCharsets.ISO_8859_1);
    if (v2) {
      int at = text.indexOf("usage_usec ");
      int end = text.indexOf('\n', at);
      return Long.parseLong(text.substring(at + "usage_usec ".length(), end));
    }
    return Long.parseLong(text.strip());
  }

  /** The parts of two reads of one cgroup that differ, by name (memory's by component). */
  private static String differences(CgroupStats a, CgroupStats b) {
    List<String> parts = new ArrayList<>();
    if (!java.util.Objects.equals(a.cpu(), b.cpu())) {
      parts.add("cpu");
    }
    if (!java.util.Objects.equals(a.memory(), b.memory())) {
      var x = a.memory();
      var y = b.memory();
      if (x == null || y == null) {
        parts.add("memory");
      } else {
        for (var c : x.getClass().getRecordComponents()) {
          try {
            if (!java.util.Objects.equals(c.getAccessor().invoke(x), c.getAccessor().invoke(y))) {
              parts.add("memory." + c.getName());
            }
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
          }
        }
      }
    }
    if (!a.io().equals(b.io())) {
      parts.add("io");
    }
    if (!java.util.Objects.equals(a.processes(), b.processes())) {
      parts.add("processes");
    }
    if (!a.spec().equals(b.spec())) {
      parts.add("spec");
    }
    if (!a.hugetlb().equals(b.hugetlb())) {
      parts.add("hugetlb");
    }
    return String.join("+", parts);
  }

  /** A file of one number. */
  private static Long single(String file, byte[] buffer) throws IOException {
    int n;
    try (FileInputStream in = new FileInputStream(file)) {
      n = in.read(buffer, 0, buffer.length);
    }
    return Long.parseLong(new String(buffer, 0, Math.max(n, 0), StandardCharsets.ISO_8859_1).strip());
  }

  /** Nearest rank. */
  private static long percentile(List<Long> values, int p) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }
}
