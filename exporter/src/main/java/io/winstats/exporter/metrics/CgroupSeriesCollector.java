package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.counter;
import static io.winstats.exporter.metrics.FamiliesBuilder.labelNames;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
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
import io.winstats.cri.cgroups.PressureLine;
import io.winstats.exporter.sampling.Snapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The cAdvisor {@code container_*} series that come from a Linux container's or pod's cgroup rather than from CRI: CFS
 * throttling, user/system CPU, page cache and the other memory figures, block IO, processes and open files, OOM kills,
 * pressure stall information, huge pages, and the memory reservation and swap limits. Names, help, label sets and units
 * are cAdvisor's (google/cadvisor lib/metrics/prometheus.go); labels match {@link CadvisorSeriesCollector}'s for the
 * same container, so the two join. Each point carries the cgroup read's timestamp. A part absent from the cgroup (v1
 * PSI, swap without swap accounting) adds no series, never a zero. Nothing on Windows nodes, whose snapshots have no
 * cgroups. Each series is one row of a {@link SeriesTable} of the cgroup record it reads; a figure of those records
 * that is not served is listed in {@link #UNSERVED} with the reason.
 */
public final class CgroupSeriesCollector extends PerVersionCollector {
  public CgroupSeriesCollector(Supplier<Snapshot> snapshots) {
    super(snapshots);
  }

  @Override
  MetricSnapshots build(Snapshot snapshot) {
    return series(snapshot);
  }

  @Override
  public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
    return FAMILIES;
  }

  /** The series of {@code snapshot}, for tests. */
  static MetricSnapshots series(Snapshot snapshot) {
    FamiliesBuilder f = new FamiliesBuilder();
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

  private static void add(FamiliesBuilder f, Labels l, CgroupStats s, boolean quota, Instant at) {
    CgroupCpu cpu = s.cpu();
    if (cpu != null) {
      CPU.add(f, cpu, l, at);
      // cAdvisor serves the CFS series only for a cgroup with a quota; a pod's quota is not in CRI, but a cgroup that
      // ever had one has counted periods.
      if (quota || cpu.periods() > 0) {
        CFS.add(f, cpu, l, at);
      }
    }
    if (s.memory() != null) {
      MEMORY.add(f, s.memory(), l, at);
    }
    for (BlockDeviceIo d : s.io()) {
      IO.add(f, d, l.add("device", d.device()), at);
    }
    if (s.processes() != null) {
      PROCESSES.add(f, s.processes(), l, at);
    }
    if (s.cpuPressure() != null) {
      CPU_PRESSURE.add(f, s.cpuPressure(), l, at);
    }
    if (s.memoryPressure() != null) {
      MEMORY_PRESSURE.add(f, s.memoryPressure(), l, at);
    }
    if (s.ioPressure() != null) {
      IO_PRESSURE.add(f, s.ioPressure(), l, at);
    }
    SPEC.add(f, s.spec(), l, at);
    for (HugePages h : s.hugetlb()) {
      HUGETLB.add(f, h, l.add("pagesize", h.pageSize()), at);
    }
  }

  /** cAdvisor's {@code specMemoryValue}: a limit above 2^62 bytes is no limit, served as 0. */
  private static @Nullable Long specMemory(@Nullable Long bytes) {
    return bytes == null ? null : bytes > 1L << 62 ? 0L : bytes;
  }

  private static final List<String> CONTAINER_LABELS = CadvisorSeriesCollector.CONTAINER_LABELS;

  static final SeriesTable<CgroupCpu> CPU =
      SeriesTable.<CgroupCpu>labelled(CONTAINER_LABELS)
          .counter(
              "container_cpu_user_seconds_total",
              "Cumulative user cpu time consumed in seconds.",
              c -> c.userNanos() / 1e9)
          .counter(
              "container_cpu_system_seconds_total",
              "Cumulative system cpu time consumed in seconds.",
              c -> c.systemNanos() / 1e9)
          .build();

  static final SeriesTable<CgroupCpu> CFS =
      SeriesTable.<CgroupCpu>labelled(CONTAINER_LABELS)
          .counter(
              "container_cpu_cfs_periods_total", "Number of elapsed enforcement period intervals.", CgroupCpu::periods)
          .counter(
              "container_cpu_cfs_throttled_periods_total",
              "Number of throttled period intervals.",
              CgroupCpu::throttledPeriods)
          .counter(
              "container_cpu_cfs_throttled_seconds_total",
              "Total time duration the container has been throttled.",
              c -> c.throttledNanos() / 1e9)
          .build();

  // Label pairs every cgroup repeats, made once: Labels.add validates its new name on every call (a UTF-8 encoder
  // each), merge of two valid label sets does not.
  private static final Labels PGFAULT_CONTAINER = Labels.of("failure_type", "pgfault", "scope", "container");
  private static final Labels PGMAJFAULT_CONTAINER = Labels.of("failure_type", "pgmajfault", "scope", "container");
  private static final Labels PGFAULT_HIERARCHY = Labels.of("failure_type", "pgfault", "scope", "hierarchy");
  private static final Labels PGMAJFAULT_HIERARCHY = Labels.of("failure_type", "pgmajfault", "scope", "hierarchy");
  private static final Labels READ = Labels.of("operation", "Read");
  private static final Labels WRITE = Labels.of("operation", "Write");
  private static final Labels MAX_OPEN_FILES = Labels.of("ulimit", "max_open_files");

  static final SeriesTable<CgroupMemory> MEMORY =
      SeriesTable.<CgroupMemory>labelled(CONTAINER_LABELS)
          .gauge("container_memory_cache", "Number of bytes of page cache memory.", CgroupMemory::cacheBytes)
          .gauge("container_memory_mapped_file", "Size of memory mapped files in bytes.", CgroupMemory::mappedFileBytes)
          .gauge("container_memory_swap", "Container swap usage in bytes.", CgroupMemory::swapBytes)
          .gauge(
              "container_memory_kernel_usage", "Size of kernel memory allocated in bytes.", CgroupMemory::kernelBytes)
          // A counter in cAdvisor, but its name has no _total, which client_java 1.x would append to a counter:
          // served as a gauge so that the name stays cAdvisor's.
          .gauge("container_memory_failcnt", "Number of memory usage hits limits", CgroupMemory::failcnt)
          .gauge(
              "container_memory_max_usage_bytes", "Maximum memory usage recorded in bytes", CgroupMemory::maxUsageBytes)
          .write(
              counter(
                  "container_memory_failures_total",
                  "Cumulative count of memory allocation failures.",
                  labelNames(CONTAINER_LABELS, "failure_type", "scope")),
              (f, family, m, l, at) -> {
                // cAdvisor sets the container and hierarchy figures both from memory.stat's own pgfault/pgmajfault.
                f.add(family, m.pgfault(), l.merge(PGFAULT_CONTAINER), at);
                f.add(family, m.pgmajfault(), l.merge(PGMAJFAULT_CONTAINER), at);
                f.add(family, m.pgfault(), l.merge(PGFAULT_HIERARCHY), at);
                f.add(family, m.pgmajfault(), l.merge(PGMAJFAULT_HIERARCHY), at);
              })
          .counter(
              "container_oom_events_total",
              "Count of out of memory events observed for the container",
              CgroupMemory::oomKills)
          .build();

  static final SeriesTable<BlockDeviceIo> IO =
      SeriesTable.<BlockDeviceIo>labelled(labelNames(CONTAINER_LABELS, "device"))
          .counter("container_fs_reads_bytes_total", "Cumulative count of bytes read", BlockDeviceIo::readBytes)
          .counter("container_fs_writes_bytes_total", "Cumulative count of bytes written", BlockDeviceIo::writeBytes)
          .counter("container_fs_reads_total", "Cumulative count of reads completed", BlockDeviceIo::reads)
          .counter("container_fs_writes_total", "Cumulative count of writes completed", BlockDeviceIo::writes)
          .write(
              counter(
                  "container_blkio_device_usage_total",
                  "Blkio Device bytes usage",
                  labelNames(CONTAINER_LABELS, "device", "major", "minor", "operation")),
              (f, family, d, l, at) -> {
                Labels numbers = l.add("major", Integer.toString(d.major())).add("minor", Integer.toString(d.minor()));
                f.add(family, d.readBytes(), numbers.merge(READ), at);
                f.add(family, d.writeBytes(), numbers.merge(WRITE), at);
              })
          .build();

  /** The pids cgroup's {@code container_processes}, a family {@link CadvisorSeriesCollector} declares. */
  static final SeriesTable<CgroupProcesses> PROCESSES =
      SeriesTable.<CgroupProcesses>labelled(CONTAINER_LABELS)
          .row(CadvisorSeriesCollector.PROCESSES, CgroupProcesses::processes)
          .gauge(
              "container_file_descriptors",
              "Number of open file descriptors for the container.",
              CgroupProcesses::fileDescriptors)
          .gauge("container_sockets", "Number of open sockets for the container.", CgroupProcesses::sockets)
          .gauge("container_threads", "Number of threads running inside the container", CgroupProcesses::threads)
          .gauge(
              "container_threads_max",
              "Maximum number of threads allowed inside the container, infinity if value is zero",
              CgroupProcesses::threadsMax)
          .write(
              FamiliesBuilder.gauge(
                  "container_ulimits_soft",
                  "Soft ulimit values for the container root process. Unlimited if -1, except priority and nice",
                  labelNames(CONTAINER_LABELS, "ulimit")),
              (f, family, p, l, at) -> f.addIfPresent(family, p.maxOpenFilesSoft(), l.merge(MAX_OPEN_FILES), at))
          .build();

  static final SeriesTable<Pressure> CPU_PRESSURE = pressure("cpu", "CPU");
  static final SeriesTable<Pressure> MEMORY_PRESSURE = pressure("memory", "memory");
  static final SeriesTable<Pressure> IO_PRESSURE = pressure("io", "IO");

  static final SeriesTable<CgroupSpec> SPEC =
      SeriesTable.<CgroupSpec>labelled(CONTAINER_LABELS)
          .gauge(
              "container_spec_memory_reservation_limit_bytes",
              "Memory reservation limit for the container.",
              s -> specMemory(s.memoryReservationBytes()))
          .gauge(
              "container_spec_memory_swap_limit_bytes",
              "Memory swap limit for the container.",
              s -> specMemory(s.memorySwapLimitBytes()))
          .build();

  static final SeriesTable<HugePages> HUGETLB =
      SeriesTable.<HugePages>labelled(labelNames(CONTAINER_LABELS, "pagesize"))
          .gauge("container_hugetlb_usage_bytes", "Current hugepage usage in bytes", HugePages::usageBytes)
          .gauge(
              "container_hugetlb_max_usage_bytes",
              "Maximum hugepage usage recorded in bytes",
              HugePages::maxUsageBytes)
          .build();

  /** Every family, in the order a full cgroup read first serves them; the pids cgroup's {@code container_processes}. */
  static final List<MetricFamilyDescriptor> FAMILIES =
      SeriesTable.families(
          CPU, CFS, MEMORY, IO, PROCESSES, CPU_PRESSURE, MEMORY_PRESSURE, IO_PRESSURE, SPEC, HUGETLB);

  /**
   * The families served only where the kernel has their files (docs/CADVISOR.md): block I/O where a device has a
   * BFQ/CFQ policy or the v1 throttle files (io.stat on v2), PSI on cgroup v2 only, huge pages where the host has a
   * pool. A test against a real host's cgroups can neither require nor refuse them.
   */
  public static final List<MetricFamilyDescriptor> SERVED_WHERE_THE_KERNEL_HAS_THE_FILES =
      SeriesTable.families(IO, CPU_PRESSURE, MEMORY_PRESSURE, IO_PRESSURE, HUGETLB);

  /**
   * Figures of the cgroup records this collector does not serve, each with the reason: {@code ServedFiguresTest} fails
   * on a figure that is neither served nor here.
   */
  static final Map<String, String> UNSERVED =
      Map.of(
          "CgroupMemory.rssBytes", "container_memory_rss is CRI's figure (CadvisorSeriesCollector)",
          "CgroupMemory.swapLimitBytes", "container_spec_memory_swap_limit_bytes comes from CgroupSpec",
          "PressureLine.avg10", "cAdvisor serves PSI's totals only",
          "PressureLine.avg60", "cAdvisor serves PSI's totals only",
          "PressureLine.avg300", "cAdvisor serves PSI's totals only");

  /**
   * PSI of {@code resource} ({@code word} in cAdvisor's help): {@code stalled} is PSI's {@code full} total, {@code
   * waiting} its {@code some} total, as cAdvisor maps them.
   */
  private static SeriesTable<Pressure> pressure(String resource, String word) {
    return SeriesTable.<Pressure>labelled(CONTAINER_LABELS)
        .counter(
            "container_pressure_" + resource + "_stalled_seconds_total",
            "Total time duration no tasks in the container could make progress due to " + word + " congestion.",
            CgroupSeriesCollector::fullSeconds)
        .counter(
            "container_pressure_" + resource + "_waiting_seconds_total",
            "Total time duration tasks in the container have waited due to " + word + " congestion.",
            p -> p.some().totalMicros() / 1e6)
        .build();
  }

  private static @Nullable Double fullSeconds(Pressure p) {
    PressureLine full = p.full();
    return full == null ? null : full.totalMicros() / 1e6;
  }
}
