package io.winstats.exporter.metrics;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeSample;
import io.winstats.cri.cgroups.BlockDeviceIo;
import io.winstats.cri.cgroups.CgroupCpu;
import io.winstats.cri.cgroups.CgroupMemory;
import io.winstats.cri.cgroups.CgroupProcesses;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupSpec;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.cri.cgroups.HugePages;
import io.winstats.cri.cgroups.Pressure;
import io.winstats.exporter.sampling.Snapshot;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The cAdvisor {@code container_*} series that come from a Linux container's or pod's cgroup rather than from CRI:
 * CFS throttling, user/system CPU, page cache and the other memory figures, block IO, processes and open files,
 * OOM kills, pressure stall information, huge pages, and the memory reservation and swap limits. Names, help, label sets and units are cAdvisor's
 * (google/cadvisor lib/metrics/prometheus.go); labels match {@link CadvisorSeriesCollector}'s for the same container,
 * so the two join. Each point carries the cgroup read's timestamp. A part absent from the cgroup (v1 PSI, swap without
 * swap accounting) adds no series, never a zero. Nothing on Windows nodes, whose snapshots have no cgroups.
 */
public final class CgroupSeriesCollector extends PerVersionCollector {
  // Label pairs every cgroup repeats, made once: Labels.add validates its new name on every call (a UTF-8 encoder
  // each), merge of two valid label sets does not.
  private static final Labels PGFAULT_CONTAINER = Labels.of("failure_type", "pgfault", "scope", "container");
  private static final Labels PGMAJFAULT_CONTAINER = Labels.of("failure_type", "pgmajfault", "scope", "container");
  private static final Labels PGFAULT_HIERARCHY = Labels.of("failure_type", "pgfault", "scope", "hierarchy");
  private static final Labels PGMAJFAULT_HIERARCHY = Labels.of("failure_type", "pgmajfault", "scope", "hierarchy");
  private static final Labels READ = Labels.of("operation", "Read");
  private static final Labels WRITE = Labels.of("operation", "Write");
  private static final Labels MAX_OPEN_FILES = Labels.of("ulimit", "max_open_files");

  public CgroupSeriesCollector(Supplier<Snapshot> snapshots) {
    super(snapshots);
  }

  @Override
  MetricSnapshots build(Snapshot snapshot) {
    return series(snapshot);
  }

  /** The series of {@code snapshot}, for tests. */
  static MetricSnapshots series(Snapshot snapshot) {
    MetricFamilies f = new MetricFamilies();
    RuntimeSample runtime = snapshot.runtime();
    CgroupSample cgroups = snapshot.cgroups();
    if (runtime == null || cgroups == null) {
      return f.build();
    }
    Instant at = cgroups.timestamp();
    for (PodSample pod : runtime.pods()) {
      CgroupStats podStats = cgroups.pods().get(pod.sandboxId());
      if (podStats != null) {
        Labels l =
            CadvisorSeriesCollector.labels(
                "", CadvisorSeriesCollector.podCgroup(pod), "", "", pod.ref().namespace(), pod.ref().name());
        add(f, l, podStats, false, at);
      }
      for (ContainerSample c : pod.containers()) {
        CgroupStats stats = cgroups.containers().get(c.id());
        if (stats != null) {
          Labels l =
              CadvisorSeriesCollector.labels(
                  c.name(),
                  CadvisorSeriesCollector.podCgroup(pod) + "/" + c.id(),
                  c.image(),
                  c.id(),
                  pod.ref().namespace(),
                  pod.ref().name());
          boolean quota = c.resources() != null && c.resources().cpuQuotaMicros() != null;
          add(f, l, stats, quota, at);
        }
      }
    }
    return f.build();
  }

  private static void add(MetricFamilies f, Labels l, CgroupStats s, boolean quota, Instant at) {
    cpu(f, l, s.cpu(), quota, at);
    memory(f, l, s.memory(), at);
    io(f, l, s, at);
    processes(f, l, s.processes(), at);
    pressure(f, l, "cpu", "CPU", s.cpuPressure(), at);
    pressure(f, l, "memory", "memory", s.memoryPressure(), at);
    pressure(f, l, "io", "IO", s.ioPressure(), at);
    spec(f, l, s.spec(), at);
    hugetlb(f, l, s.hugetlb(), at);
  }

  /** cAdvisor's {@code specMemoryValue}: a limit above 2^62 bytes is no limit, served as 0. */
  private static @Nullable Long specMemory(@Nullable Long bytes) {
    return bytes == null ? null : bytes > 1L << 62 ? 0L : bytes;
  }

  private static void spec(MetricFamilies f, Labels l, CgroupSpec spec, Instant at) {
    f.gaugeIfPresent(
        "container_spec_memory_reservation_limit_bytes",
        "Memory reservation limit for the container.",
        specMemory(spec.memoryReservationBytes()),
        l,
        at);
    f.gaugeIfPresent(
        "container_spec_memory_swap_limit_bytes",
        "Memory swap limit for the container.",
        specMemory(spec.memorySwapLimitBytes()),
        l,
        at);
  }

  private static void hugetlb(MetricFamilies f, Labels l, List<HugePages> sizes, Instant at) {
    for (HugePages h : sizes) {
      Labels pl = l.add("pagesize", h.pageSize());
      f.gauge("container_hugetlb_usage_bytes", "Current hugepage usage in bytes", h.usageBytes(), pl, at);
      f.gaugeIfPresent(
          "container_hugetlb_max_usage_bytes", "Maximum hugepage usage recorded in bytes", h.maxUsageBytes(), pl, at);
    }
  }

  private static void cpu(MetricFamilies f, Labels l, @Nullable CgroupCpu cpu, boolean quota, Instant at) {
    if (cpu == null) {
      return;
    }
    f.counter(
        "container_cpu_user_seconds_total", "Cumulative user cpu time consumed in seconds.", cpu.userNanos() / 1e9, l, at);
    f.counter(
        "container_cpu_system_seconds_total",
        "Cumulative system cpu time consumed in seconds.",
        cpu.systemNanos() / 1e9,
        l,
        at);
    // cAdvisor serves the CFS series only for a cgroup with a quota; a pod's quota is not in CRI, but a cgroup that
    // ever had one has counted periods.
    if (quota || cpu.periods() > 0) {
      f.counter(
          "container_cpu_cfs_periods_total", "Number of elapsed enforcement period intervals.", cpu.periods(), l, at);
      f.counter(
          "container_cpu_cfs_throttled_periods_total",
          "Number of throttled period intervals.",
          cpu.throttledPeriods(),
          l,
          at);
      f.counter(
          "container_cpu_cfs_throttled_seconds_total",
          "Total time duration the container has been throttled.",
          cpu.throttledNanos() / 1e9,
          l,
          at);
    }
  }

  private static void memory(MetricFamilies f, Labels l, @Nullable CgroupMemory m, Instant at) {
    if (m == null) {
      return;
    }
    f.gauge("container_memory_cache", "Number of bytes of page cache memory.", m.cacheBytes(), l, at);
    f.gauge("container_memory_mapped_file", "Size of memory mapped files in bytes.", m.mappedFileBytes(), l, at);
    f.gaugeIfPresent("container_memory_swap", "Container swap usage in bytes.", m.swapBytes(), l, at);
    f.gaugeIfPresent(
        "container_memory_kernel_usage", "Size of kernel memory allocated in bytes.", m.kernelBytes(), l, at);
    // A counter in cAdvisor, but its name has no _total, which client_java 1.x would append to a counter: served as
    // a gauge so that the name stays cAdvisor's.
    f.gaugeIfPresent("container_memory_failcnt", "Number of memory usage hits limits", m.failcnt(), l, at);
    f.gaugeIfPresent(
        "container_memory_max_usage_bytes", "Maximum memory usage recorded in bytes", m.maxUsageBytes(), l, at);
    // cAdvisor sets the container and hierarchy figures both from memory.stat's own pgfault/pgmajfault.
    String failures = "container_memory_failures_total";
    String failuresHelp = "Cumulative count of memory allocation failures.";
    f.counter(failures, failuresHelp, m.pgfault(), l.merge(PGFAULT_CONTAINER), at);
    f.counter(failures, failuresHelp, m.pgmajfault(), l.merge(PGMAJFAULT_CONTAINER), at);
    f.counter(failures, failuresHelp, m.pgfault(), l.merge(PGFAULT_HIERARCHY), at);
    f.counter(failures, failuresHelp, m.pgmajfault(), l.merge(PGMAJFAULT_HIERARCHY), at);
    if (m.oomKills() != null) {
      f.counter(
          "container_oom_events_total",
          "Count of out of memory events observed for the container",
          m.oomKills(),
          l,
          at);
    }
  }

  private static void io(MetricFamilies f, Labels l, CgroupStats s, Instant at) {
    for (BlockDeviceIo d : s.io()) {
      Labels dl = l.add("device", d.device());
      f.counter("container_fs_reads_bytes_total", "Cumulative count of bytes read", d.readBytes(), dl, at);
      f.counter("container_fs_writes_bytes_total", "Cumulative count of bytes written", d.writeBytes(), dl, at);
      f.counter("container_fs_reads_total", "Cumulative count of reads completed", d.reads(), dl, at);
      f.counter("container_fs_writes_total", "Cumulative count of writes completed", d.writes(), dl, at);
      Labels numbers = dl.add("major", Integer.toString(d.major())).add("minor", Integer.toString(d.minor()));
      f.counter("container_blkio_device_usage_total", "Blkio Device bytes usage", d.readBytes(),
          numbers.merge(READ), at);
      f.counter("container_blkio_device_usage_total", "Blkio Device bytes usage", d.writeBytes(),
          numbers.merge(WRITE), at);
    }
  }

  private static void processes(MetricFamilies f, Labels l, @Nullable CgroupProcesses p, Instant at) {
    if (p == null) {
      return;
    }
    f.gauge("container_processes", "Number of processes running inside the container.", p.processes(), l, at);
    f.gauge(
        "container_file_descriptors", "Number of open file descriptors for the container.", p.fileDescriptors(), l, at);
    f.gauge("container_sockets", "Number of open sockets for the container.", p.sockets(), l, at);
    f.gaugeIfPresent("container_threads", "Number of threads running inside the container", p.threads(), l, at);
    f.gaugeIfPresent(
        "container_threads_max",
        "Maximum number of threads allowed inside the container, infinity if value is zero",
        p.threadsMax(),
        l,
        at);
    f.gaugeIfPresent(
        "container_ulimits_soft",
        "Soft ulimit values for the container root process. Unlimited if -1, except priority and nice",
        p.maxOpenFilesSoft(),
        l.merge(MAX_OPEN_FILES),
        at);
  }

  /** {@code stalled} is PSI's {@code full} total, {@code waiting} its {@code some} total, as cAdvisor maps them. */
  private static void pressure(
      MetricFamilies f, Labels l, String resource, String word, @Nullable Pressure p, Instant at) {
    if (p == null) {
      return;
    }
    if (p.full() != null) {
      f.counter(
          "container_pressure_" + resource + "_stalled_seconds_total",
          "Total time duration no tasks in the container could make progress due to " + word + " congestion.",
          p.full().totalMicros() / 1e6,
          l,
          at);
    }
    f.counter(
        "container_pressure_" + resource + "_waiting_seconds_total",
        "Total time duration tasks in the container have waited due to " + word + " congestion.",
        p.some().totalMicros() / 1e6,
        l,
        at);
  }
}
