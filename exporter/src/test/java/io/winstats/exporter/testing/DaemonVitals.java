package io.winstats.exporter.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the daemon process holds, read from outside: threads and file descriptors from {@code /proc/<pid>}, live heap
 * and live instances per class from {@code jcmd <pid> GC.class_histogram} (which runs a full GC first, so the figures
 * are what survives a collection). Linux only; the daemon must run as the test's user.
 */
public final class DaemonVitals {
  /**
   * The heap after a full GC.
   *
   * @param liveBytes bytes of all live objects
   * @param instances live instances of each class, by the JVM's class name ({@code io.winstats.cri.CpuRateCache$Key})
   */
  public record Heap(long liveBytes, Map<String, Long> instances) {
    public long count(String className) {
      return instances.getOrDefault(className, 0L);
    }
  }

  private DaemonVitals() {}

  /** {@code Threads:} of {@code /proc/<pid>/status}. */
  public static int threads(long pid) {
    return Integer.parseInt(statusField(pid, "Threads:"));
  }

  /**
   * Threads of {@code /proc/<pid>/task} less the ones HotSpot starts and stops by itself as load comes and goes: JIT
   * compiler threads ({@code UseDynamicNumberOfCompilerThreads}), parallel and concurrent GC workers
   * ({@code UseDynamicNumberOfGCThreads}) and the attach listener a {@code jcmd} starts. What is left is the
   * daemon's own threads and the JVM's fixed ones.
   */
  public static int applicationThreads(long pid) {
    return threadsByName(pid).values().stream().mapToInt(Integer::intValue).sum();
  }

  /**
   * The threads {@link #applicationThreads} counts, by name less its trailing number ({@code winstats-cri-}, {@code
   * XNIO-1 task-}, {@code VM Thread}), so a check can hold a fixed thread to its count and an on-demand pool to a
   * bound, and name the one that grew.
   */
  public static SortedMap<String, Integer> threadsByName(long pid) {
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      SortedMap<String, Integer> byName = new TreeMap<>();
      tasks
          .map(DaemonVitals::threadName)
          .filter(name -> !isElasticJvmThread(name))
          .forEach(name -> byName.merge(TRAILING_NUMBER.matcher(name).replaceFirst(""), 1, Integer::sum));
      return byName;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final Pattern TRAILING_NUMBER = Pattern.compile("[0-9]+$");

  static boolean isElasticJvmThread(String name) {
    return ELASTIC_JVM_THREADS.stream().anyMatch(name::startsWith);
  }

  // Thread names as the kernel keeps them (15 bytes), from HotSpot's CompileBroker, WorkerThreads and G1.
  private static final List<String> ELASTIC_JVM_THREADS =
      List.of("C1 CompilerThre", "C2 CompilerThre", "GC Thread#", "G1 Conc#", "G1 Refine#", "Attach Listener");

  private static String threadName(Path task) {
    try {
      return Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      // The thread ended between the listing and the read: it is not there.
      return "GC Thread#gone";
    }
  }

  /** {@code VmRSS:} of {@code /proc/<pid>/status}, in bytes (the kernel writes it in kB). */
  public static long residentBytes(long pid) {
    return Long.parseLong(statusField(pid, "VmRSS:").replace(" kB", "")) * 1024;
  }

  /** The value of one {@code Name:} line of {@code /proc/<pid>/status}, stripped. */
  private static String statusField(long pid, String name) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith(name)) {
          return line.substring(name.length()).strip();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("no " + name + " line for pid " + pid);
  }

  /** Entries of {@code /proc/<pid>/fd}. */
  public static int fileDescriptors(long pid) {
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      return (int) fds.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code jcmd <pid> GC.class_histogram} (a full GC, then a histogram of what is live). */
  public static Heap heapAfterGc(long pid) {
    String out = jcmd(pid, "GC.class_histogram");
    Map<String, Long> instances = new HashMap<>();
    long total = -1;
    for (String line : out.lines().toList()) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":") && f[1].matches("\\d+")) {
        instances.merge(f[3], Long.parseLong(f[1]), Long::sum);
      } else if (f.length == 3 && f[0].equals("Total")) {
        total = Long.parseLong(f[2]);
      }
    }
    if (total < 0) {
      throw new IllegalStateException("no Total line in jcmd GC.class_histogram output:\n" + out);
    }
    return new Heap(total, instances);
  }

  /** {@code jcmd <pid> VM.native_memory <what>}; the daemon must run with {@code -XX:NativeMemoryTracking}. */
  public static String nativeMemory(long pid, String what) {
    return jcmd(pid, "VM.native_memory " + what);
  }

  private static String jcmd(long pid, String command) {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Path output = Files.createTempFile("jcmd", ".txt");
      try {
        Process p =
            new ProcessBuilder(List.of(jcmd.toString(), Long.toString(pid), command))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          throw new IllegalStateException("jcmd " + command + " did not finish within 60 s");
        }
        String text = Files.readString(output, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
          throw new IllegalStateException("jcmd " + command + " exited with " + p.exitValue() + ": " + text);
        }
        return text;
      } finally {
        Files.deleteIfExists(output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
