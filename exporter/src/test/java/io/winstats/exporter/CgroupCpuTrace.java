package io.winstats.exporter;

import io.winstats.cri.testing.Cgroups;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads a container's {@code cpuacct.usage} every ~2 ms on a background thread, each reading stamped with the wall
 * clock, so that a sample the daemon took at a known time can be bracketed by the two readings around that time.
 */
final class CgroupCpuTrace implements AutoCloseable {
  /** One reading: wall-clock milliseconds, cumulative CPU nanoseconds. */
  record Reading(long wallMillis, long cpuNanos) {}

  /** The readings just before and just after a moment. */
  record Bracket(Reading before, Reading after) {
    double widthPercent() {
      return 100.0 * (after.cpuNanos() - before.cpuNanos()) / before.cpuNanos();
    }
  }

  private final Path cpuacct;
  private final List<Reading> readings = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  CgroupCpuTrace(Path cpuacct) {
    this.cpuacct = cpuacct;
    this.thread = new Thread(this::run, "cgroup-cpu-trace");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (running) {
      long before = System.currentTimeMillis();
      long cpu = Cgroups.cpuUsageNanos(cpuacct);
      long after = System.currentTimeMillis();
      if (before == after) {
        synchronized (readings) {
          readings.add(new Reading(before, cpu));
        }
      }
      LockSupport.parkNanos(2_000_000);
    }
  }

  /**
   * The readings around {@code sampleMillis}, a timestamp truncated to the millisecond: the last taken at least 1 ms
   * before it and the first taken at least 2 ms after it; {@code null} until such readings exist.
   */
  Bracket bracket(long sampleMillis) {
    synchronized (readings) {
      Reading before = null;
      for (Reading r : readings) {
        if (r.wallMillis() <= sampleMillis - 1) {
          before = r;
        } else if (before != null && r.wallMillis() >= sampleMillis + 2) {
          return new Bracket(before, r);
        }
      }
      return null;
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join(1_000);
  }
}
