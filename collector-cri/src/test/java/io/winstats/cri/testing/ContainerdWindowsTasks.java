package io.winstats.cri.testing;

import com.google.protobuf.Any;
import com.google.protobuf.Timestamp;
import io.winstats.cri.api.containerd.Metric;
import io.winstats.cri.api.containerd.Statistics;
import io.winstats.cri.api.containerd.VirtualMachineMemoryStatistics;
import io.winstats.cri.api.containerd.VirtualMachineProcessorStatistics;
import io.winstats.cri.api.containerd.VirtualMachineStatistics;
import io.winstats.cri.api.containerd.WindowsContainerMemoryStatistics;
import io.winstats.cri.api.containerd.WindowsContainerProcessorStatistics;
import io.winstats.cri.api.containerd.WindowsContainerStatistics;
import io.winstats.cri.api.containerd.WindowsContainerStorageStatistics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * containerd's {@code Tasks.Metrics} answer for Windows pods (containerd 2.0 to 2.3 with their runhcs shims, hcsshim
 * v0.12.9 to v0.15), task by task, as the Tasks service and the shim build it:
 *
 * <ul>
 *   <li>{@code getTasksMetrics} (plugins/services/tasks/local.go:684-712@v2.3.4): one {@code Metric} per task of the
 *       namespace that a filter matches, {@code timestamp} = containerd's {@code time.Now()} before it asks the shim,
 *       {@code id} = the task id, {@code data} = the shim's {@code Any}; a task whose {@code Stats} fails is left out
 *       (a container whose task is gone: exited, or not started, as {@link WindowsContainer#reading()} {@code null}
 *       says).
 *   <li>the shim's {@code statsInternal} (cmd/containerd-shim-runhcs-v1/service_internal.go:468-482@v0.13.0): {@code
 *       typeurl.MarshalAny(stats)}, whose type URL is the message's bare name {@code
 *       containerd.runhcs.stats.v1.Statistics}.
 *   <li>a container (process-isolated, in a Hyper-V pod, or HostProcess through its job object): {@code windows} with
 *       {@code timestamp}, {@code container_start_time}, {@code uptime_ns}, and processor, memory and storage, every
 *       figure set ({@code hcsPropertiesToWindowsStats}, task_hcs.go:793-823; job containers: {@code PropertiesV2},
 *       internal/jobcontainers/jobcontainer.go:514-567, total = kernel + user); no {@code vm}, since only a task that
 *       owns its utility VM adds one ({@code hcsTask.Stats}, task_hcs.go:825-850).
 *   <li>a process-isolated pod's sandbox: a real pause container ({@code newHcsTask}, pod.go:235-256): {@code windows}.
 *   <li>a Hyper-V pod's sandbox: {@code vm} only, processor {@code total_runtime_ns} and memory {@code
 *       working_set_bytes} (the utility VM's, {@code wcowPodSandboxTask.Stats}, task_wcow_podsandbox.go:295-306;
 *       {@code virtual_node_count} and {@code vm_memory} are not modelled here).
 *   <li>a HostProcess pod's sandbox: an empty {@code Statistics} (its faked task has no host, pod.go:147-149).
 * </ul>
 */
public final class ContainerdWindowsTasks {
  /** typeurl's name for hcsshim's statistics: the bare message name. */
  public static final String TYPE_URL = "containerd.runhcs.stats.v1.Statistics";

  private ContainerdWindowsTasks() {}

  /** The metrics of the tasks {@code ids} names among {@code pods}, collected at {@code nowNanos}. */
  public static List<Metric> metrics(Collection<WindowsPod> pods, Set<String> ids, long nowNanos) {
    List<Metric> metrics = new ArrayList<>();
    for (WindowsPod p : pods) {
      if (ids.contains(p.id())) {
        metrics.add(metric(p.id(), sandbox(p), nowNanos));
      }
      for (WindowsContainer c : p.containers()) {
        if (ids.contains(c.id()) && c.running() && c.reading() != null) {
          metrics.add(metric(c.id(), Statistics.newBuilder().setWindows(windows(c.reading(), c.createdNanos())).build(),
              nowNanos));
        }
      }
    }
    return metrics;
  }

  private static Statistics sandbox(WindowsPod p) {
    HcsReading r = p.sandbox();
    if (p.hostProcess() || r == null) {
      return Statistics.getDefaultInstance();
    }
    if (p.hyperV()) {
      return Statistics.newBuilder()
          .setVm(
              VirtualMachineStatistics.newBuilder()
                  .setProcessor(VirtualMachineProcessorStatistics.newBuilder().setTotalRuntimeNs(r.totalRuntimeNanos()))
                  .setMemory(VirtualMachineMemoryStatistics.newBuilder().setWorkingSetBytes(r.privateWorkingSetBytes())))
          .build();
    }
    return Statistics.newBuilder().setWindows(windows(r, p.createdNanos())).build();
  }

  /** The {@code windows} statistics of a task read as {@code r}, started at {@code startNanos}. */
  public static WindowsContainerStatistics windows(HcsReading r, long startNanos) {
    return WindowsContainerStatistics.newBuilder()
        .setTimestamp(timestamp(r.timestampNanos()))
        .setContainerStartTime(timestamp(startNanos))
        .setUptimeNs(Math.max(0, r.timestampNanos() - startNanos))
        .setProcessor(
            WindowsContainerProcessorStatistics.newBuilder()
                .setTotalRuntimeNs(r.totalRuntimeNanos())
                .setRuntimeUserNs(r.userNanos())
                .setRuntimeKernelNs(r.kernelNanos()))
        .setMemory(
            WindowsContainerMemoryStatistics.newBuilder()
                .setMemoryUsageCommitBytes(r.commitBytes())
                .setMemoryUsageCommitPeakBytes(r.commitPeakBytes())
                .setMemoryUsagePrivateWorkingSetBytes(r.privateWorkingSetBytes()))
        .setStorage(
            WindowsContainerStorageStatistics.newBuilder()
                .setReadCountNormalized(r.readCount())
                .setReadSizeBytes(r.readBytes())
                .setWriteCountNormalized(r.writeCount())
                .setWriteSizeBytes(r.writeBytes()))
        .build();
  }

  private static Metric metric(String id, Statistics stats, long nowNanos) {
    return Metric.newBuilder()
        .setTimestamp(timestamp(nowNanos))
        .setId(id)
        .setData(Any.newBuilder().setTypeUrl(TYPE_URL).setValue(stats.toByteString()))
        .build();
  }

  static Timestamp timestamp(long epochNanos) {
    return Timestamp.newBuilder()
        .setSeconds(Math.floorDiv(epochNanos, 1_000_000_000L))
        .setNanos((int) Math.floorMod(epochNanos, 1_000_000_000L))
        .build();
  }
}
