package io.winstats.exporter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@code /proc/stat} and {@code /proc/meminfo} every ~2 ms on a background thread, each reading stamped with the
 * wall clock, so that a sample the daemon took at a known millisecond can be bracketed by the readings around it (the
 * same idea as {@link CgroupCpuTrace}). A reading is kept only when both files were read within one wall-clock
 * millisecond, so its stamp is exact to the millisecond.
 */
final class ProcTrace implements AutoCloseable {
  /** The /proc/stat columns in file order, under node_exporter's mode names. */
  static final List<String> MODES = List.of("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal");

  /**
   * One reading.
   *
   * @param wallMillis wall-clock millisecond in which both files were read
   * @param aggregateTicks the aggregate {@code cpu} line by mode, in clock ticks
   * @param coreTicks the {@code cpuN} lines by core name ({@code "0"}) and mode, in clock ticks
   * @param meminfoBytes every {@code kB} line of {@code /proc/meminfo}, in bytes
   */
  record Reading(
      long wallMillis, Map<String, Long> aggregateTicks, Map<String, Map<String, Long>> coreTicks, Map<String, Long> meminfoBytes) {

    /** Busy ticks as the daemon defines them: every mode except idle and iowait. */
    long busyTicks() {
      long busy = 0;
      for (String mode : MODES) {
        if (!mode.equals("idle") && !mode.equals("iowait")) {
          busy += aggregateTicks.getOrDefault(mode, 0L);
        }
      }
      return busy;
    }

    long meminfo(String key) {
      Long v = meminfoBytes.get(key);
      if (v == null) {
        throw new AssertionError("/proc/meminfo has no " + key);
      }
      return v;
    }

    /** The daemon's node working set: MemTotal − MemFree − Inactive(file), floored at 0. */
    long workingSetBytes() {
      return Math.max(0, Math.max(0, meminfo("MemTotal") - meminfo("MemFree")) - meminfo("Inactive(file)"));
    }
  }

  /**
   * The readings around a moment, and every reading between them.
   *
   * @param before the last reading stamped at least 1 ms before the moment
   * @param after the first reading stamped at least {@code afterMillis} after it
   * @param span before, after and every reading in between, in time order
   */
  record Bracket(Reading before, Reading after, List<Reading> span) {
    double min(ToDoubleFunction<Reading> f) {
      return span.stream().mapToDouble(f).min().orElseThrow();
    }

    double max(ToDoubleFunction<Reading> f) {
      return span.stream().mapToDouble(f).max().orElseThrow();
    }
  }

  private final Path procRoot;
  private final List<Reading> readings = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;
  private volatile @Nullable RuntimeException failure;

  ProcTrace(Path procRoot) {
    this.procRoot = procRoot;
    this.thread = new Thread(this::run, "proc-trace");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    try {
      while (running) {
        long before = System.currentTimeMillis();
        String stat = read("stat");
        String meminfo = read("meminfo");
        long after = System.currentTimeMillis();
        if (before == after) {
          Reading r = parse(before, stat, meminfo);
          synchronized (readings) {
            readings.add(r);
          }
        }
        LockSupport.parkNanos(2_000_000);
      }
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  private String read(String relative) {
    try {
      return Files.readString(procRoot.resolve(relative), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Reading parse(long wallMillis, String stat, String meminfo) {
    Map<String, Long> aggregate = null;
    Map<String, Map<String, Long>> cores = new LinkedHashMap<>();
    for (String line : stat.split("\n")) {
      String[] f = line.strip().split("\\s+");
      if (f.length < 2 || !f[0].startsWith("cpu")) {
        continue;
      }
      Map<String, Long> ticks = new LinkedHashMap<>();
      for (int i = 0; i < MODES.size() && i + 1 < f.length; i++) {
        ticks.put(MODES.get(i), Long.parseLong(f[i + 1]));
      }
      if (f[0].equals("cpu")) {
        aggregate = ticks;
      } else {
        cores.put(f[0].substring(3), ticks);
      }
    }
    if (aggregate == null) {
      throw new IllegalStateException("/proc/stat has no aggregate cpu line");
    }
    Map<String, Long> mem = new LinkedHashMap<>();
    for (String line : meminfo.split("\n")) {
      int colon = line.indexOf(':');
      String[] f = colon < 0 ? new String[0] : line.substring(colon + 1).strip().split("\\s+");
      if (f.length == 2 && f[1].equals("kB")) {
        mem.put(line.substring(0, colon), Long.parseLong(f[0]) * 1024);
      }
    }
    return new Reading(wallMillis, aggregate, cores, mem);
  }

  /**
   * The readings around {@code sampleMillis}, a timestamp truncated to the millisecond: the last stamped at or before
   * {@code sampleMillis − 1}, the first stamped at or after {@code sampleMillis + afterMillis}, and all in between;
   * {@code null} until such readings exist.
   */
  @Nullable Bracket bracket(long sampleMillis, long afterMillis) {
    RuntimeException f = failure;
    if (f != null) {
      throw new IllegalStateException("proc trace failed", f);
    }
    synchronized (readings) {
      int before = -1;
      for (int i = 0; i < readings.size(); i++) {
        Reading r = readings.get(i);
        if (r.wallMillis() <= sampleMillis - 1) {
          before = i;
        } else if (before >= 0 && r.wallMillis() >= sampleMillis + afterMillis) {
          return new Bracket(readings.get(before), r, List.copyOf(readings.subList(before, i + 1)));
        }
      }
      return null;
    }
  }

  /** Drops readings older than {@code wallMillis}, so a long test does not hold them all. */
  void forgetBefore(long wallMillis) {
    synchronized (readings) {
      readings.removeIf(r -> r.wallMillis() < wallMillis);
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(1_000);
  }
}
