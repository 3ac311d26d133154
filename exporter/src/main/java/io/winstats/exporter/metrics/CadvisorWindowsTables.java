package io.winstats.exporter.metrics;

import static io.winstats.exporter.metrics.FamiliesBuilder.counter;
import static io.winstats.exporter.metrics.FamiliesBuilder.labelNames;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.StorageIo;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The cAdvisor series {@link CadvisorSeriesCollector} serves on a Windows node only: the pod's process count from the
 * runtime, and the figures of containerd's task metrics (the CPU split, the commit peak, storage I/O) under cAdvisor's
 * names, where the round read them (never from CRI). On Linux the cgroups give these names ({@link
 * CgroupSeriesCollector}).
 */
final class CadvisorWindowsTables {
  private static final List<String> CONTAINER_LABELS = CadvisorSeriesCollector.CONTAINER_LABELS;
  private static final List<String> DEVICE = labelNames(CONTAINER_LABELS, "device");

  /**
   * Windows nodes only: containerd's Windows count, len(task.Pids) of the sandbox and its running containers
   * ({@code podSandboxStats} in internal/cri/server/sandbox_stats_windows.go); cAdvisor's is the pod cgroup's process
   * count. At the round's time.
   */
  static final SeriesTable<PodSample> POD_PROCESSES =
      SeriesTable.<PodSample>labelled(CONTAINER_LABELS)
          .row(CadvisorSeriesCollector.PROCESSES, PodSample::processCount)
          .build();

  // Windows nodes only (CgroupSeriesCollector declares these names on Linux): cAdvisor's help, as there. The storage
  // counters carry no device label (a container's reads over all its volumes), though the family declares it.
  static final SeriesTable<CpuUsage> CPU =
      SeriesTable.<CpuUsage>labelled(CONTAINER_LABELS)
          .counter(
              "container_cpu_user_seconds_total",
              "Cumulative user cpu time consumed in seconds.",
              c -> seconds(c.userNanos()))
          .counter(
              "container_cpu_system_seconds_total",
              "Cumulative system cpu time consumed in seconds.",
              c -> seconds(c.kernelNanos()))
          .build();

  /** A counter in cAdvisor whose name has no {@code _total}: a gauge here, as in {@link CgroupSeriesCollector}. */
  static final SeriesTable<MemoryUsage> MEMORY =
      SeriesTable.<MemoryUsage>labelled(CONTAINER_LABELS)
          .gauge(
              "container_memory_max_usage_bytes",
              "Maximum memory usage recorded in bytes",
              MemoryUsage::commitPeakBytes)
          .build();

  static final SeriesTable<StorageIo> STORAGE =
      SeriesTable.<StorageIo>labelled(CONTAINER_LABELS)
          .row(
              counter("container_fs_reads_total", "Cumulative count of reads completed", DEVICE),
              StorageIo::readCount)
          .row(
              counter("container_fs_reads_bytes_total", "Cumulative count of bytes read", DEVICE),
              StorageIo::readBytes)
          .row(
              counter("container_fs_writes_total", "Cumulative count of writes completed", DEVICE),
              StorageIo::writeCount)
          .row(
              counter("container_fs_writes_bytes_total", "Cumulative count of bytes written", DEVICE),
              StorageIo::writeBytes)
          .build();

  /** Every family, in the order a full Windows snapshot first serves them. */
  static final List<MetricFamilyDescriptor> FAMILIES = SeriesTable.families(POD_PROCESSES, CPU, MEMORY, STORAGE);

  private CadvisorWindowsTables() {}

  /** A container's task-metric figures, each at its own time. */
  static void addTaskFigures(FamiliesBuilder f, ContainerSample c, Labels l) {
    if (c.cpu() != null) {
      CPU.add(f, c.cpu(), l, c.cpu().timestamp());
    }
    if (c.memory() != null) {
      MEMORY.add(f, c.memory(), l, c.memory().timestamp());
    }
    if (c.storage() != null) {
      STORAGE.add(f, c.storage(), l, c.storage().timestamp());
    }
  }

  private static @Nullable Double seconds(@Nullable Long nanos) {
    return nanos == null ? null : nanos / 1e9;
  }
}
