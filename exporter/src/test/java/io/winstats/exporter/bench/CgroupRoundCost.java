package io.winstats.exporter.bench;

import io.winstats.cri.cgroups.CgroupSampler;
import io.winstats.cri.testing.ContainerdHarness;
import io.winstats.cri.testing.CriTestClient;
import java.io.FileInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What the daemon's cgroup round ({@link CgroupSampler#sample(Collection, Collection)}: every container's cgroup,
 * every pod's cgroup and {@code net/dev}) costs its sampling thread, with N real pods of two containers each on a
 * private containerd: thread CPU ({@code ThreadMXBean}) and bytes allocated ({@code
 * com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}) per round.
 *
 * <p>Each side is a classpath entry (a jar or a classes directory) from which the {@code io.winstats.cri.cgroups}
 * package is loaded in a loader of its own; everything else comes from this classpath. With two sides the rounds
 * alternate, so that this VM's drift in speed hits both alike. The rounds run on this thread, as the daemon runs them
 * on its sampling thread after each CRI round, one second apart (the JIT's compilations are done after the warm-up).
 *
 * <p>Run with {@code bench/cgroup-round [pods=110] [warmup=30] [rounds=40] [a=JAR] [b=JAR]} (the JVM gets {@code
 * deploy/jvm.options}, as the daemon); without {@code a}/{@code b}, the collector-cri classes of this build. Needs root
 * and containerd runc containernetworking-plugins busybox-static.
 */
public final class CgroupRoundCost {
  private static final String PACKAGE = "io.winstats.cri.cgroups.";

  private CgroupRoundCost() {}

  /** One side: the cgroup package of {@code source}, its sampler and the rounds measured. */
  private static final class Side {
    final String name;
    final Object sampler;
    final Method sample;
    final Method missing;
    /** {@code CgroupSampler.recordOpens}, or null in a build that has none. */
    final @Nullable Method recordOpens;
    final List<Long> cpuNanos = new ArrayList<>();
    final List<Long> allocated = new ArrayList<>();
    /** The files the last measured round opened, in its order; empty without {@link #recordOpens}. */
    List<String> opened = List.of();
    final List<Long> floorNanos = new ArrayList<>();
    final List<Long> filesOnlyNanos = new ArrayList<>();

    Side(String name, Path source) throws Exception {
      this.name = name;
      ClassLoader loader = new PackageFirst(source.toUri().toURL(), CgroupRoundCost.class.getClassLoader());
      Class<?> samplerClass = loader.loadClass(PACKAGE + "CgroupSampler");
      if (samplerClass.getClassLoader() != loader) {
        throw new IllegalStateException(samplerClass + " not from " + source);
      }
      this.sampler = samplerClass.getMethod("host", Clock.class).invoke(null, Clock.systemUTC());
      this.sample = samplerClass.getMethod("sample", Collection.class, Collection.class);
      this.missing = loader.loadClass(PACKAGE + "CgroupSample").getMethod("missing");
      Method record;
      try {
        record = samplerClass.getMethod("recordOpens", List.class);
      } catch (NoSuchMethodException e) {
        record = null;
      }
      this.recordOpens = record;
    }

    void round(List<String> sandboxes, List<String> containers, boolean keep) throws Exception {
      com.sun.management.ThreadMXBean threads =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long a0 = threads.getCurrentThreadAllocatedBytes();
      long c0 = threads.getCurrentThreadCpuTime();
      Object sample = this.sample.invoke(sampler, sandboxes, containers);
      long c1 = threads.getCurrentThreadCpuTime();
      long a1 = threads.getCurrentThreadAllocatedBytes();
      List<?> gone = (List<?>) missing.invoke(sample);
      if (!gone.isEmpty()) {
        throw new IllegalStateException(name + ": cgroups missing: " + gone);
      }
      if (keep) {
        cpuNanos.add(c1 - c0);
        allocated.add(a1 - a0);
      }
    }

    /**
     * The files of one round, recorded in a round of their own after the measured ones (recording adds a name per
     * open, so it is not on in the measured rounds).
     */
    void recordOneRound(List<String> sandboxes, List<String> containers) throws Exception {
      if (recordOpens == null) {
        return;
      }
      List<String> names = new ArrayList<>();
      recordOpens.invoke(null, names);
      try {
        sample.invoke(sampler, sandboxes, containers);
      } finally {
        recordOpens.invoke(null, (Object) null);
      }
      opened = List.copyOf(names);
    }

    /** Kernel files among {@link #opened}: all but the processes' {@code fd} directories. */
    long files() {
      return opened.stream().filter(n -> !n.endsWith("/fd")).count();
    }
  }

  /**
   * The kernel's floor of a round: the thread CPU of opening, reading and closing each of its files again with nothing
   * else done (the round's own read: {@code FileInputStream}, an 8 KiB buffer, a first read short of 2 KiB is the
   * whole file) and listing each {@code fd} directory with its links, as the round does; {@code filesOnly} times the
   * kernel files alone, for the cost of one file.
   */
  private static long replay(List<String> names, boolean filesOnly, byte[] buffer) throws IOException {
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long c0 = threads.getCurrentThreadCpuTime();
    for (String name : names) {
      if (name.endsWith("/fd")) {
        if (!filesOnly) {
          try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of(name))) {
            for (Path fd : entries) {
              try {
                Files.readSymbolicLink(fd);
              } catch (IOException e) {
                // Closed meanwhile, as in the round.
              }
            }
          } catch (IOException e) {
            // The process exited, as in the round.
          }
        }
        continue;
      }
      try (FileInputStream in = new FileInputStream(name)) {
        int n = 0;
        int r;
        while ((r = in.read(buffer, n, buffer.length - n)) > 0 && !(n == 0 && r < 2048)) {
          n += r;
          if (n == buffer.length) {
            n = 0;
          }
        }
      } catch (IOException e) {
        // A file that cannot be opened costs its open, as in the round.
      }
    }
    return threads.getCurrentThreadCpuTime() - c0;
  }

  /** Loads the cgroup package from its own URL first; everything else from the parent. */
  private static final class PackageFirst extends URLClassLoader {
    PackageFirst(URL source, ClassLoader parent) {
      super(new URL[] {source}, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.startsWith(PACKAGE)) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }

  public static void main(String[] args) throws Exception {
    int pods = 110;
    int warmup = 30;
    int rounds = 40;
    List<String[]> sources = new ArrayList<>();
    for (String arg : args) {
      String[] kv = arg.split("=", 2);
      switch (kv[0]) {
        case "pods" -> pods = Integer.parseInt(kv[1]);
        case "warmup" -> warmup = Integer.parseInt(kv[1]);
        case "rounds" -> rounds = Integer.parseInt(kv[1]);
        case "a", "b" -> sources.add(kv);
        default -> throw new IllegalArgumentException("expected pods=, warmup=, rounds=, a= or b=, got " + arg);
      }
    }
    if (sources.isEmpty()) {
      sources.add(
          new String[] {
            "this build", CgroupSampler.class.getProtectionDomain().getCodeSource().getLocation().getPath()
          });
    }
    Path work =
        Files.createTempDirectory(
            Path.of("target"),
            "cgroup-round-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    List<Side> sides = new ArrayList<>();
    for (String[] s : sources) {
      sides.add(new Side(s[0] + "=" + s[1], Path.of(s[1])));
    }
    try (ContainerdHarness harness = ContainerdHarness.start(work.resolve("ctrd"))) {
      CriTestClient client = harness.client();
      BenchPods created = BenchPods.create(client, "cgroup", pods, 5);
      List<String> sandboxes = created.sandboxes();
      List<String> containers = created.containers();
      System.out.printf(
          "%d pods, %d cgroups per round (pod and container cgroups), on %s%n",
          pods, sandboxes.size() + containers.size(), harness.endpoint());
      for (int i = 0; i < warmup + rounds; i++) {
        for (Side side : sides) {
          side.round(sandboxes, containers, i >= warmup);
          Thread.sleep(1000);
        }
      }
      // The kernel's floor: each side's files of one round, replayed alternately, 5 warm-up passes then 20.
      byte[] buffer = new byte[8192];
      for (Side side : sides) {
        side.recordOneRound(sandboxes, containers);
      }
      for (int i = 0; i < 25; i++) {
        for (Side side : sides) {
          if (side.opened.isEmpty()) {
            continue;
          }
          long all = replay(side.opened, false, buffer);
          long files = replay(side.opened, true, buffer);
          if (i >= 5) {
            side.floorNanos.add(all);
            side.filesOnlyNanos.add(files);
          }
        }
      }
      StringBuilder table = new StringBuilder();
      table.append(
          String.format(
              Locale.ROOT,
              "%n%d pods, %d cgroups, %d rounds per side after %d warm-up rounds, alternating, load %s%n"
                  + "| side | thread CPU per round ms (median) | p10–p90 | per cgroup µs | allocated per round KiB"
                  + " (median) | per cgroup bytes |%n|---|---|---|---|---|---|%n",
              pods, sandboxes.size() + containers.size(), rounds, warmup,
              Files.readString(Path.of("/proc/loadavg")).strip()));
      int cgroups = sandboxes.size() + containers.size();
      for (Side side : sides) {
        double cpu = percentile(side.cpuNanos, 50) / 1e6;
        double alloc = percentile(side.allocated, 50);
        table.append(
            String.format(
                Locale.ROOT,
                "| %s | %.1f | %.1f–%.1f | %.0f | %.0f | %.0f |%n",
                side.name, cpu, percentile(side.cpuNanos, 10) / 1e6, percentile(side.cpuNanos, 90) / 1e6,
                cpu * 1000 / cgroups, alloc / 1024, alloc / cgroups));
      }
      table.append(
          String.format(
              Locale.ROOT,
              "%nThe kernel's floor: each side's files of one round opened, read and closed again with nothing else"
                  + " done, 20 passes after 5%n"
                  + "| side | kernel files per round | fd directories | per cgroup | one file's open+read+close µs"
                  + " (median) | floor per round ms (median) | round CPU / floor |%n|---|---|---|---|---|---|---|%n"));
      for (Side side : sides) {
        if (side.opened.isEmpty()) {
          table.append("| ").append(side.name).append(" | not counted: this build has no recordOpens | | | | | |\n");
          continue;
        }
        long files = side.files();
        double perFile = percentile(side.filesOnlyNanos, 50) / 1e3 / files;
        double floor = percentile(side.floorNanos, 50) / 1e6;
        table.append(
            String.format(
                Locale.ROOT,
                "| %s | %d | %d | %.1f | %.2f | %.1f | %.2f |%n",
                side.name, files, side.opened.size() - files, side.opened.size() / (double) cgroups, perFile, floor,
                percentile(side.cpuNanos, 50) / 1e6 / floor));
      }
      System.out.print(table);
    }
  }

  /** Nearest rank. */
  private static long percentile(List<Long> values, int p) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }
}
