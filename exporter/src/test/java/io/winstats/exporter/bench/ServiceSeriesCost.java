package io.winstats.exporter.bench;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.winstats.exporter.metrics.MetricsRenderer;
import io.winstats.exporter.metrics.WindowsExporterCollector;
import io.winstats.exporter.metrics.WindowsExporterSeries;
import io.winstats.exporter.sampling.Snapshot;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.WindowsService;
import io.winstats.perfcounters.win32.FakeServiceControlManager;
import io.winstats.perfcounters.win32.ServiceFilter;
import io.winstats.perfcounters.win32.ServiceReader;
import io.winstats.summary.SampleFixtures;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.helpers.NOPLogger;

/**
 * What the service series cost (issue 41): a new snapshot's windows_exporter body (every {@link
 * WindowsExporterCollector}'s {@link WindowsExporterSeries} through {@link MetricsRenderer}, text 0.0.4, as for each
 * new sample) and the service part of a sample ({@link
 * ServiceReader} over {@link FakeServiceControlManager}: the Java side only, not the Win32 calls), each with 0, 6 (the
 * default filter on a node with kubelet, kube-proxy, containerd, hns, vmcompute and csi-proxy) and 250 services
 * (windows_exporter's default of every service, on a node with 250 Win32 services): thread CPU ({@code ThreadMXBean})
 * per round, median and range, after a warm-up; series and bytes of the body.
 *
 * <p>Run with the exporter's test classpath (as {@code bench/jmh} builds it): {@code java -XX:TieredStopAtLevel=1
 * -XX:+UseSerialGC -cp ... io.winstats.exporter.bench.ServiceSeriesCost [warmup=300] [rounds=300]}.
 */
public final class ServiceSeriesCost {
  private ServiceSeriesCost() {}

  public static void main(String[] args) {
    int warmup = 300;
    int rounds = 300;
    for (String a : args) {
      if (a.startsWith("warmup=")) {
        warmup = Integer.parseInt(a.substring(7));
      } else if (a.startsWith("rounds=")) {
        rounds = Integer.parseInt(a.substring(7));
      }
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    System.out.println("services  series  body_bytes  render_cpu_ms(median, min-max)  read_cpu_ms(median, min-max)");
    for (int count : new int[] {0, 6, 250}) {
      FakeServiceControlManager scm = services(count);
      ServiceReader reader = new ServiceReader(scm, ServiceFilter.ALL, NOPLogger.NOP_LOGGER);
      List<WindowsService> read = reader.read(new EnumMap<>(NodePart.class));
      NodeSample node =
          SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L)
              .toBuilder()
              .services(read)
              .build();
      AtomicLong version = new AtomicLong();
      PrometheusRegistry registry = new PrometheusRegistry();
      for (WindowsExporterCollector c : WindowsExporterCollector.values()) {
        registry.register(new WindowsExporterSeries(() -> new Snapshot(version.get(), node, null, null, null), c));
      }
      MetricsRenderer renderer =
          new MetricsRenderer(
              registry, new PrometheusRegistry(), version::incrementAndGet, Duration.ZERO, System::nanoTime);
      List<Long> renderNanos = new ArrayList<>();
      List<Long> readNanos = new ArrayList<>();
      MetricsRenderer.Rendered body = renderer.render(null, false);
      for (int i = 0; i < warmup + rounds; i++) {
        long t0 = threads.getCurrentThreadCpuTime();
        body = renderer.render(null, false);
        long t1 = threads.getCurrentThreadCpuTime();
        reader.read(new EnumMap<>(NodePart.class));
        long t2 = threads.getCurrentThreadCpuTime();
        if (i >= warmup) {
          renderNanos.add(t1 - t0);
          readNanos.add(t2 - t1);
        }
      }
      String text = text(body);
      long series = text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).count();
      System.out.printf(
          Locale.ROOT,
          "%8d  %6d  %10d  %s  %s%n",
          count,
          series,
          body.length(),
          summary(renderNanos),
          summary(readNanos));
    }
  }

  /** {@code count} services of a node, named and configured as real ones are, a third of them stopped. */
  static FakeServiceControlManager services(int count) {
    FakeServiceControlManager scm = new FakeServiceControlManager();
    for (int i = 0; i < count; i++) {
      boolean running = i % 3 != 0;
      int pid = running ? 1000 + 4 * i : 0;
      scm.service(
          String.format(Locale.ROOT, "Service%03d", i),
          i % 2 == 0 ? FakeServiceControlManager.OWN_PROCESS : FakeServiceControlManager.SHARE_PROCESS,
          running ? 4 : 1,
          pid,
          2 + i % 3,
          "C:\\Windows\\system32\\svchost.exe -k LocalServiceNetworkRestricted -p",
          "NT AUTHORITY\\LocalService",
          String.format(Locale.ROOT, "Windows Service Number %03d", i));
      if (running) {
        scm.process(pid, FakeServiceControlManager.BOOT_FILETIME + i * 10_000_000L);
      }
    }
    return scm;
  }

  private static String text(MetricsRenderer.Rendered body) {
    StringBuilder s = new StringBuilder();
    for (ByteBuffer part : body.parts()) {
      s.append(StandardCharsets.UTF_8.decode(part.duplicate()));
    }
    return s.toString();
  }

  private static String summary(List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    return String.format(
        Locale.ROOT,
        "%.3f (%.3f-%.3f)",
        sorted.get(sorted.size() / 2) / 1e6,
        sorted.get(0) / 1e6,
        sorted.get(sorted.size() - 1) / 1e6);
  }
}
