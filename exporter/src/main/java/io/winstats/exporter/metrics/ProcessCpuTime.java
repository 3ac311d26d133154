package io.winstats.exporter.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/** {@code process_cpu_seconds_total}, the daemon's own CPU time under the name every Prometheus client uses. */
public final class ProcessCpuTime {
  private ProcessCpuTime() {}

  /** Registers the counter where the JVM can tell its CPU time (HotSpot and OpenJ9 on Linux and Windows). */
  public static void bindTo(MeterRegistry registry) {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean hotspot && hotspot.getProcessCpuTime() >= 0) {
      FunctionCounter.builder("process.cpu", hotspot, b -> b.getProcessCpuTime() / 1e9)
          .description("Total user and system CPU time spent in seconds.")
          .baseUnit("seconds")
          .register(registry);
    }
  }
}
