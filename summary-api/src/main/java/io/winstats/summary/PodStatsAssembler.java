package io.winstats.summary;

import static io.winstats.summary.PressureStats.io;
import static io.winstats.summary.PressureStats.withPsi;

import io.winstats.cri.ContainerLogUsage;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.InterfaceUsage;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.NetworkUsage;
import io.winstats.cri.PodSample;
import io.winstats.cri.RuntimeFilesystemUsage;
import io.winstats.cri.cgroups.CgroupMemory;
import io.winstats.cri.cgroups.CgroupSample;
import io.winstats.cri.cgroups.CgroupStats;
import io.winstats.summary.SummaryTypes.ContainerStats;
import io.winstats.summary.SummaryTypes.CpuStats;
import io.winstats.summary.SummaryTypes.FsStats;
import io.winstats.summary.SummaryTypes.InterfaceStats;
import io.winstats.summary.SummaryTypes.MemoryStats;
import io.winstats.summary.SummaryTypes.NetworkStats;
import io.winstats.summary.SummaryTypes.PodReference;
import io.winstats.summary.SummaryTypes.PodStats;
import io.winstats.summary.SummaryTypes.ProcessStats;
import io.winstats.summary.SummaryTypes.SwapStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One pod of the summary with its running containers: CPU, memory, network, process count, the containers' {@code
 * rootfs} and {@code logs}, the pod's {@code ephemeral-storage}, and from its cgroups swap and pressure.
 */
final class PodStatsAssembler {
  private PodStatsAssembler() {}

  static PodStats podStats(
      PodSample pod, boolean cpuAndMemoryOnly, @Nullable FsStats rootFs, @Nullable CgroupSample cgroups) {
    List<ContainerStats> containers = new ArrayList<>();
    for (ContainerSample container : RunningContainers.of(pod)) {
      CgroupStats cg = cgroups == null ? null : cgroups.containers().get(container.id());
      containers.add(
          new ContainerStats(
              container.name(),
              container.createdAt(),
              withPsi(cpu(container.cpu()), cg == null ? null : cg.cpuPressure()),
              withPsi(memory(container.memory()), cg == null ? null : cg.memoryPressure()),
              cpuAndMemoryOnly ? null : rootfs(container.writableLayer()),
              cpuAndMemoryOnly ? null : logs(container.logs(), rootFs),
              cpuAndMemoryOnly || cg == null || cgroups == null ? null : io(cgroups.timestamp(), cg.ioPressure()),
              swap(cgroups, cg)));
    }
    CgroupStats podCg = cgroups == null ? null : cgroups.pods().get(pod.sandboxId());
    return new PodStats(
        new PodReference(pod.ref().name(), pod.ref().namespace(), pod.ref().uid()),
        pod.createdAt(),
        containers,
        withPsi(cpu(pod.cpu()), podCg == null ? null : podCg.cpuPressure()),
        withPsi(memory(pod.memory()), podCg == null ? null : podCg.memoryPressure()),
        cpuAndMemoryOnly ? null : network(pod.network()),
        cpuAndMemoryOnly ? null : ephemeralStorage(pod, rootFs),
        cpuAndMemoryOnly || pod.processCount() == null ? null : new ProcessStats(pod.processCount()),
        cpuAndMemoryOnly || podCg == null || cgroups == null ? null : io(cgroups.timestamp(), podCg.ioPressure()),
        swap(cgroups, podCg));
  }

  /**
   * A pod's or container's {@code swap} from its cgroup, as the kubelet's {@code cadvisorInfoToSwapStats}: usage
   * {@code memory.swap.current}, available the limit ({@code memory.swap.max}) minus usage, absent when unlimited.
   * Absent without swap accounting (no {@code memory.swap.current}; cgroup v1 without {@code total_swap}), never 0.
   */
  private static @Nullable SwapStats swap(@Nullable CgroupSample cgroups, @Nullable CgroupStats cg) {
    CgroupMemory memory = cg == null ? null : cg.memory();
    if (cgroups == null || memory == null || memory.swapBytes() == null) {
      return null;
    }
    Long limit = memory.swapLimitBytes();
    return new SwapStats(
        cgroups.timestamp(), limit == null ? null : Math.max(0, limit - memory.swapBytes()), memory.swapBytes());
  }

  /**
   * A container's {@code logs}, as the kubelet's {@code getPodContainerLogStats} builds it: the used bytes and inodes
   * of its log files, with the capacity of the node's root filesystem (the kubelet's {@code rootFsInfo}, the same
   * {@code node.fs}), and the later of the two times.
   */
  private static @Nullable FsStats logs(@Nullable ContainerLogUsage logs, @Nullable FsStats rootFs) {
    if (logs == null) {
      return null;
    }
    if (rootFs == null) {
      return new FsStats(logs.timestamp(), null, null, logs.usedBytes(), null, null, logs.inodesUsed());
    }
    return new FsStats(
        later(rootFs.time(), logs.timestamp()),
        rootFs.availableBytes(),
        rootFs.capacityBytes(),
        logs.usedBytes(),
        rootFs.inodesFree(),
        rootFs.inodes(),
        logs.inodesUsed());
  }

  /**
   * A pod's {@code ephemeral-storage}, following the kubelet's {@code calcEphemeralStorage}: the capacity of the
   * node's root filesystem; used bytes and inodes summed over its containers that report a {@code "rootfs"}: the
   * writable layer plus the container's log files. The kubelet also adds the pod's ephemeral volumes ({@code
   * emptyDir}, configMap, secret and downward-API volumes), files directly in the pod's log directory and its {@code
   * etc-hosts}; the runtime reports none of those, so they are not included and the figure is a lower bound. Absent
   * when no container reports a {@code "rootfs"}.
   */
  static @Nullable FsStats ephemeralStorage(PodSample pod, @Nullable FsStats rootFs) {
    Instant time = rootFs == null ? null : rootFs.time();
    Long used = null;
    Long inodesUsed = null;
    boolean any = false;
    for (ContainerSample c : RunningContainers.of(pod)) {
      FsStats rootfs = rootfs(c.writableLayer());
      if (rootfs == null) {
        continue;
      }
      any = true;
      time = time == null ? rootfs.time() : later(time, rootfs.time());
      used = add(used, rootfs.usedBytes());
      inodesUsed = add(inodesUsed, rootfs.inodesUsed());
      FsStats logs = logs(c.logs(), rootFs);
      if (logs != null) {
        used = add(used, logs.usedBytes());
        inodesUsed = add(inodesUsed, logs.inodesUsed());
        time = later(time, logs.time());
      }
    }
    if (!any || time == null) { // time is set whenever any is: the second test is for NullAway
      return null;
    }
    return new FsStats(
        time,
        rootFs == null ? null : rootFs.availableBytes(),
        rootFs == null ? null : rootFs.capacityBytes(),
        used,
        rootFs == null ? null : rootFs.inodesFree(),
        rootFs == null ? null : rootFs.inodes(),
        inodesUsed);
  }

  /** The kubelet's {@code addUsage}: a missing term leaves the sum as it is. */
  private static @Nullable Long add(@Nullable Long sum, @Nullable Long term) {
    if (sum == null) {
      return term;
    }
    if (term == null) {
      return sum;
    }
    return Math.addExact(sum, term);
  }

  private static Instant later(Instant a, Instant b) {
    return a.isBefore(b) ? b : a;
  }

  private static @Nullable CpuStats cpu(@Nullable CpuUsage cpu) {
    return cpu == null ? null : new CpuStats(cpu.timestamp(), cpu.usageNanoCores(), cpu.usageCoreNanos());
  }

  private static @Nullable MemoryStats memory(@Nullable MemoryUsage memory) {
    if (memory == null) {
      return null;
    }
    return new MemoryStats(
        memory.timestamp(),
        memory.availableBytes(),
        memory.usageBytes(),
        memory.workingSetBytes(),
        memory.rssBytes(),
        memory.pageFaults(),
        memory.majorPageFaults());
  }

  /**
   * A container's {@code rootfs}, as the kubelet's CRI stats provider fills it: used bytes and inodes of the writable
   * layer, capacity and free space of the filesystem holding the layer's mountpoint (the image filesystem).
   */
  private static @Nullable FsStats rootfs(@Nullable RuntimeFilesystemUsage layer) {
    if (layer == null) {
      return null;
    }
    FilesystemCapacity c = layer.capacity();
    return new FsStats(
        layer.timestamp(),
        c == null ? null : c.availableBytes(),
        c == null ? null : c.capacityBytes(),
        layer.usedBytes(),
        c == null ? null : c.inodesFree(),
        c == null ? null : c.inodes(),
        layer.inodesUsed());
  }

  private static @Nullable NetworkStats network(@Nullable NetworkUsage network) {
    if (network == null || network.interfaces().isEmpty()) {
      return null;
    }
    List<InterfaceStats> all = new ArrayList<>();
    for (InterfaceUsage nic : network.interfaces()) {
      all.add(new InterfaceStats(nic.name(), nic.rxBytes(), nic.rxErrors(), nic.txBytes(), nic.txErrors()));
    }
    return new NetworkStats(network.timestamp(), all.get(0), all);
  }
}
