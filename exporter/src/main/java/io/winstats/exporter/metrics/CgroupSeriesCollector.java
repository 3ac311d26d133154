package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.MetricFamilies.counter;
import static io.winstats.exporter.metrics.MetricFamilies.gauge;
import static io.winstats.exporter.metrics.MetricFamilies.labelNames;

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

  @Override
  public List<MetricFamilyDescriptor> getMetricFamilyDescriptors() {
    return FAMILIES;
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
    pressure(f, l, CPU_STALLED, CPU_WAITING, s.cpuPressure(), at);
    pressure(f, l, MEMORY_STALLED, MEMORY_WAITING, s.memoryPressure(), at);
    pressure(f, l, IO_STALLED, IO_WAITING, s.ioPressure(), at);
    spec(f, l, s.spec(), at);
    hugetlb(f, l, s.hugetlb(), at);
  }

  /** cAdvisor's {@code specMemoryValue}: a limit above 2^62 bytes is no limit, served as 0. */
  private static @Nullable Long specMemory(@Nullable Long bytes) {
    return bytes == null ? null : bytes > 1L << 62 ? 0L : bytes;
  }

  private static void spec(MetricFamilies f, Labels l, CgroupSpec spec, Instant at) {
    f.addIfPresent(SPEC_MEMORY_RESERVATION_LIMIT, specMemory(spec.memoryReservationBytes()), l, at);
    f.addIfPresent(SPEC_MEMORY_SWAP_LIMIT, specMemory(spec.memorySwapLimitBytes()), l, at);
  }

  private static void hugetlb(MetricFamilies f, Labels l, List<HugePages> sizes, Instant at) {
    for (HugePages h : sizes) {
      Labels pl = l.add("pagesize", h.pageSize());
      f.add(HUGETLB_USAGE, h.usageBytes(), pl, at);
      f.addIfPresent(HUGETLB_MAX_USAGE, h.maxUsageBytes(), pl, at);
    }
  }

  private static void cpu(MetricFamilies f, Labels l, @Nullable CgroupCpu cpu, boolean quota, Instant at) {
    if (cpu == null) {
      return;
    }
    f.add(CPU_USER, cpu.userNanos() / 1e9, l, at);
    f.add(CPU_SYSTEM, cpu.systemNanos() / 1e9, l, at);
    // cAdvisor serves the CFS series only for a cgroup with a quota; a pod's quota is not in CRI, but a cgroup that
    // ever had one has counted periods.
    if (quota || cpu.periods() > 0) {
      f.add(CFS_PERIODS, cpu.periods(), l, at);
      f.add(CFS_THROTTLED_PERIODS, cpu.throttledPeriods(), l, at);
      f.add(CFS_THROTTLED_SECONDS, cpu.throttledNanos() / 1e9, l, at);
    }
  }

  private static void memory(MetricFamilies f, Labels l, @Nullable CgroupMemory m, Instant at) {
    if (m == null) {
      return;
    }
    f.add(MEMORY_CACHE, m.cacheBytes(), l, at);
    f.add(MEMORY_MAPPED_FILE, m.mappedFileBytes(), l, at);
    f.addIfPresent(MEMORY_SWAP, m.swapBytes(), l, at);
    f.addIfPresent(MEMORY_KERNEL_USAGE, m.kernelBytes(), l, at);
    f.addIfPresent(MEMORY_FAILCNT, m.failcnt(), l, at);
    f.addIfPresent(MEMORY_MAX_USAGE, m.maxUsageBytes(), l, at);
    // cAdvisor sets the container and hierarchy figures both from memory.stat's own pgfault/pgmajfault.
    f.add(MEMORY_FAILURES, m.pgfault(), l.merge(PGFAULT_CONTAINER), at);
    f.add(MEMORY_FAILURES, m.pgmajfault(), l.merge(PGMAJFAULT_CONTAINER), at);
    f.add(MEMORY_FAILURES, m.pgfault(), l.merge(PGFAULT_HIERARCHY), at);
    f.add(MEMORY_FAILURES, m.pgmajfault(), l.merge(PGMAJFAULT_HIERARCHY), at);
    f.addIfPresent(OOM_EVENTS, m.oomKills(), l, at);
  }

  private static void io(MetricFamilies f, Labels l, CgroupStats s, Instant at) {
    for (BlockDeviceIo d : s.io()) {
      Labels dl = l.add("device", d.device());
      f.add(FS_READS_BYTES, d.readBytes(), dl, at);
      f.add(FS_WRITES_BYTES, d.writeBytes(), dl, at);
      f.add(FS_READS, d.reads(), dl, at);
      f.add(FS_WRITES, d.writes(), dl, at);
      Labels numbers = dl.add("major", Integer.toString(d.major())).add("minor", Integer.toString(d.minor()));
      f.add(BLKIO_DEVICE_USAGE, d.readBytes(), numbers.merge(READ), at);
      f.add(BLKIO_DEVICE_USAGE, d.writeBytes(), numbers.merge(WRITE), at);
    }
  }

  private static void processes(MetricFamilies f, Labels l, @Nullable CgroupProcesses p, Instant at) {
    if (p == null) {
      return;
    }
    f.add(CadvisorSeriesCollector.PROCESSES, p.processes(), l, at);
    f.add(FILE_DESCRIPTORS, p.fileDescriptors(), l, at);
    f.add(SOCKETS, p.sockets(), l, at);
    f.addIfPresent(THREADS, p.threads(), l, at);
    f.addIfPresent(THREADS_MAX, p.threadsMax(), l, at);
    f.addIfPresent(ULIMITS_SOFT, p.maxOpenFilesSoft(), l.merge(MAX_OPEN_FILES), at);
  }

  /** {@code stalled} is PSI's {@code full} total, {@code waiting} its {@code some} total, as cAdvisor maps them. */
  private static void pressure(
      MetricFamilies f,
      Labels l,
      MetricFamilyDescriptor stalled,
      MetricFamilyDescriptor waiting,
      @Nullable Pressure p,
      Instant at) {
    if (p == null) {
      return;
    }
    if (p.full() != null) {
      f.add(stalled, p.full().totalMicros() / 1e6, l, at);
    }
    f.add(waiting, p.some().totalMicros() / 1e6, l, at);
  }

  private static final List<String> CONTAINER_LABELS = CadvisorSeriesCollector.CONTAINER_LABELS;
  private static final List<String> DEVICE = labelNames(CONTAINER_LABELS, "device");

  static final MetricFamilyDescriptor CPU_USER =
      counter(
          "container_cpu_user_seconds_total", "Cumulative user cpu time consumed in seconds.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor CPU_SYSTEM =
      counter(
          "container_cpu_system_seconds_total", "Cumulative system cpu time consumed in seconds.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor CFS_PERIODS =
      counter(
          "container_cpu_cfs_periods_total", "Number of elapsed enforcement period intervals.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor CFS_THROTTLED_PERIODS =
      counter("container_cpu_cfs_throttled_periods_total", "Number of throttled period intervals.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor CFS_THROTTLED_SECONDS =
      counter(
          "container_cpu_cfs_throttled_seconds_total",
          "Total time duration the container has been throttled.",
          CONTAINER_LABELS);
  static final MetricFamilyDescriptor MEMORY_CACHE =
      gauge("container_memory_cache", "Number of bytes of page cache memory.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor MEMORY_MAPPED_FILE =
      gauge("container_memory_mapped_file", "Size of memory mapped files in bytes.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor MEMORY_SWAP =
      gauge("container_memory_swap", "Container swap usage in bytes.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor MEMORY_KERNEL_USAGE =
      gauge("container_memory_kernel_usage", "Size of kernel memory allocated in bytes.", CONTAINER_LABELS);
  // A counter in cAdvisor, but its name has no _total, which client_java 1.x would append to a counter: served as a
  // gauge so that the name stays cAdvisor's.
  static final MetricFamilyDescriptor MEMORY_FAILCNT =
      gauge("container_memory_failcnt", "Number of memory usage hits limits", CONTAINER_LABELS);
  static final MetricFamilyDescriptor MEMORY_MAX_USAGE =
      gauge("container_memory_max_usage_bytes", "Maximum memory usage recorded in bytes", CONTAINER_LABELS);
  static final MetricFamilyDescriptor MEMORY_FAILURES =
      counter(
          "container_memory_failures_total",
          "Cumulative count of memory allocation failures.",
          labelNames(CONTAINER_LABELS, "failure_type", "scope"));
  static final MetricFamilyDescriptor OOM_EVENTS =
      counter(
          "container_oom_events_total", "Count of out of memory events observed for the container", CONTAINER_LABELS);
  static final MetricFamilyDescriptor FS_READS_BYTES =
      counter("container_fs_reads_bytes_total", "Cumulative count of bytes read", DEVICE);
  static final MetricFamilyDescriptor FS_WRITES_BYTES =
      counter("container_fs_writes_bytes_total", "Cumulative count of bytes written", DEVICE);
  static final MetricFamilyDescriptor FS_READS =
      counter("container_fs_reads_total", "Cumulative count of reads completed", DEVICE);
  static final MetricFamilyDescriptor FS_WRITES =
      counter("container_fs_writes_total", "Cumulative count of writes completed", DEVICE);
  static final MetricFamilyDescriptor BLKIO_DEVICE_USAGE =
      counter(
          "container_blkio_device_usage_total",
          "Blkio Device bytes usage",
          labelNames(CONTAINER_LABELS, "device", "major", "minor", "operation"));
  static final MetricFamilyDescriptor FILE_DESCRIPTORS =
      gauge("container_file_descriptors", "Number of open file descriptors for the container.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor SOCKETS =
      gauge("container_sockets", "Number of open sockets for the container.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor THREADS =
      gauge("container_threads", "Number of threads running inside the container", CONTAINER_LABELS);
  static final MetricFamilyDescriptor THREADS_MAX =
      gauge(
          "container_threads_max",
          "Maximum number of threads allowed inside the container, infinity if value is zero",
          CONTAINER_LABELS);
  static final MetricFamilyDescriptor ULIMITS_SOFT =
      gauge(
          "container_ulimits_soft",
          "Soft ulimit values for the container root process. Unlimited if -1, except priority and nice",
          labelNames(CONTAINER_LABELS, "ulimit"));
  static final MetricFamilyDescriptor CPU_STALLED = stalled("cpu", "CPU");
  static final MetricFamilyDescriptor CPU_WAITING = waiting("cpu", "CPU");
  static final MetricFamilyDescriptor MEMORY_STALLED = stalled("memory", "memory");
  static final MetricFamilyDescriptor MEMORY_WAITING = waiting("memory", "memory");
  static final MetricFamilyDescriptor IO_STALLED = stalled("io", "IO");
  static final MetricFamilyDescriptor IO_WAITING = waiting("io", "IO");
  static final MetricFamilyDescriptor SPEC_MEMORY_RESERVATION_LIMIT =
      gauge(
          "container_spec_memory_reservation_limit_bytes", "Memory reservation limit for the container.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor SPEC_MEMORY_SWAP_LIMIT =
      gauge("container_spec_memory_swap_limit_bytes", "Memory swap limit for the container.", CONTAINER_LABELS);
  static final MetricFamilyDescriptor HUGETLB_USAGE =
      gauge("container_hugetlb_usage_bytes", "Current hugepage usage in bytes", labelNames(CONTAINER_LABELS, "pagesize"));
  static final MetricFamilyDescriptor HUGETLB_MAX_USAGE =
      gauge(
          "container_hugetlb_max_usage_bytes",
          "Maximum hugepage usage recorded in bytes",
          labelNames(CONTAINER_LABELS, "pagesize"));

  /** Every family, in the order a full cgroup read first serves them; the pids cgroup's {@code container_processes}. */
  static final List<MetricFamilyDescriptor> FAMILIES =
      List.of(
          CPU_USER,
          CPU_SYSTEM,
          CFS_PERIODS,
          CFS_THROTTLED_PERIODS,
          CFS_THROTTLED_SECONDS,
          MEMORY_CACHE,
          MEMORY_MAPPED_FILE,
          MEMORY_SWAP,
          MEMORY_KERNEL_USAGE,
          MEMORY_FAILCNT,
          MEMORY_MAX_USAGE,
          MEMORY_FAILURES,
          OOM_EVENTS,
          FS_READS_BYTES,
          FS_WRITES_BYTES,
          FS_READS,
          FS_WRITES,
          BLKIO_DEVICE_USAGE,
          CadvisorSeriesCollector.PROCESSES,
          FILE_DESCRIPTORS,
          SOCKETS,
          THREADS,
          THREADS_MAX,
          ULIMITS_SOFT,
          CPU_STALLED,
          CPU_WAITING,
          MEMORY_STALLED,
          MEMORY_WAITING,
          IO_STALLED,
          IO_WAITING,
          SPEC_MEMORY_RESERVATION_LIMIT,
          SPEC_MEMORY_SWAP_LIMIT,
          HUGETLB_USAGE,
          HUGETLB_MAX_USAGE);

  /** PSI's {@code full} total of {@code resource} ({@code word} in cAdvisor's help). */
  private static MetricFamilyDescriptor stalled(String resource, String word) {
    return counter(
        "container_pressure_" + resource + "_stalled_seconds_total",
        "Total time duration no tasks in the container could make progress due to " + word + " congestion.",
        CONTAINER_LABELS);
  }

  /** PSI's {@code some} total of {@code resource}. */
  private static MetricFamilyDescriptor waiting(String resource, String word) {
    return counter(
        "container_pressure_" + resource + "_waiting_seconds_total",
        "Total time duration tasks in the container have waited due to " + word + " congestion.",
        CONTAINER_LABELS);
  }
}
