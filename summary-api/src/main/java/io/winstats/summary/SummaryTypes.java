package io.winstats.summary;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The records of kubelet {@code stats/v1alpha1}, one per Go type, components in the Go struct's field order. Go's
 * {@code *T omitempty} fields are {@code @Nullable} and left out when null; plain Go fields are always written. {@link
 * SummaryJson} writes them under the Go JSON names, times as RFC 3339 with second precision, as {@code metav1.Time}
 * does.
 */
public final class SummaryTypes {
  private SummaryTypes() {}

  /** The whole answer of {@code /stats/summary}. */
  public record Summary(NodeStats node, List<PodStats> pods) {
    public Summary {
      pods = List.copyOf(pods);
    }
  }

  /** {@code NodeStats}. */
  public record NodeStats(
      String nodeName,
      @Nullable List<ContainerStats> systemContainers,
      Instant startTime,
      @Nullable CpuStats cpu,
      @Nullable MemoryStats memory,
      @Nullable NetworkStats network,
      @Nullable FsStats fs,
      @Nullable RuntimeStats runtime,
      @Nullable RlimitStats rlimit,
      @Nullable IoStats io,
      @Nullable SwapStats swap) {
    /** Without IO pressure or swap. */
    public NodeStats(
        String nodeName,
        @Nullable List<ContainerStats> systemContainers,
        Instant startTime,
        @Nullable CpuStats cpu,
        @Nullable MemoryStats memory,
        @Nullable NetworkStats network,
        @Nullable FsStats fs,
        @Nullable RuntimeStats runtime,
        @Nullable RlimitStats rlimit) {
      this(nodeName, systemContainers, startTime, cpu, memory, network, fs, runtime, rlimit, null, null);
    }
  }

  /** {@code PodStats}; {@code containers} is written even when empty, as the kubelet does. */
  public record PodStats(
      PodReference podRef,
      Instant startTime,
      List<ContainerStats> containers,
      @Nullable CpuStats cpu,
      @Nullable MemoryStats memory,
      @Nullable NetworkStats network,
      @Nullable FsStats ephemeralStorage,
      @Nullable ProcessStats processStats,
      @Nullable IoStats io,
      @Nullable SwapStats swap) {
    public PodStats {
      containers = List.copyOf(containers);
    }

    /** Without IO pressure or swap. */
    public PodStats(
        PodReference podRef,
        Instant startTime,
        List<ContainerStats> containers,
        @Nullable CpuStats cpu,
        @Nullable MemoryStats memory,
        @Nullable NetworkStats network,
        @Nullable FsStats ephemeralStorage,
        @Nullable ProcessStats processStats) {
      this(podRef, startTime, containers, cpu, memory, network, ephemeralStorage, processStats, null, null);
    }
  }

  /** {@code PodReference}. */
  public record PodReference(
      String name,
      String namespace,
      String uid) {}

  /** {@code ContainerStats}. */
  public record ContainerStats(
      String name,
      Instant startTime,
      @Nullable CpuStats cpu,
      @Nullable MemoryStats memory,
      @Nullable FsStats rootfs,
      @Nullable FsStats logs,
      @Nullable IoStats io,
      @Nullable SwapStats swap) {
    /** Without IO pressure or swap. */
    public ContainerStats(
        String name,
        Instant startTime,
        @Nullable CpuStats cpu,
        @Nullable MemoryStats memory,
        @Nullable FsStats rootfs,
        @Nullable FsStats logs) {
      this(name, startTime, cpu, memory, rootfs, logs, null, null);
    }
  }

  /** {@code CPUStats}: {@code usageNanoCores} is absent until two samples exist. */
  public record CpuStats(
      Instant time,
      @Nullable Long usageNanoCores,
      @Nullable Long usageCoreNanoSeconds,
      @Nullable PsiStats psi) {
    /** Without pressure. */
    public CpuStats(Instant time, @Nullable Long usageNanoCores, @Nullable Long usageCoreNanoSeconds) {
      this(time, usageNanoCores, usageCoreNanoSeconds, null);
    }

    /** This with {@code psi}. */
    public CpuStats withPsi(@Nullable PsiStats psi) {
      return new CpuStats(time, usageNanoCores, usageCoreNanoSeconds, psi);
    }
  }

  /** {@code MemoryStats}: {@code availableBytes} is absent where there is no limit. */
  public record MemoryStats(
      Instant time,
      @Nullable Long availableBytes,
      @Nullable Long usageBytes,
      @Nullable Long workingSetBytes,
      @Nullable Long rssBytes,
      @Nullable Long pageFaults,
      @Nullable Long majorPageFaults,
      @Nullable PsiStats psi) {
    /** Without pressure. */
    public MemoryStats(
        Instant time,
        @Nullable Long availableBytes,
        @Nullable Long usageBytes,
        @Nullable Long workingSetBytes,
        @Nullable Long rssBytes,
        @Nullable Long pageFaults,
        @Nullable Long majorPageFaults) {
      this(time, availableBytes, usageBytes, workingSetBytes, rssBytes, pageFaults, majorPageFaults, null);
    }

    /** This with {@code psi}. */
    public MemoryStats withPsi(@Nullable PsiStats psi) {
      return new MemoryStats(
          time, availableBytes, usageBytes, workingSetBytes, rssBytes, pageFaults, majorPageFaults, psi);
    }
  }

  /** {@code IOStats} (Linux; GA with PSI in 1.36): the time of the read and the IO pressure. */
  public record IoStats(Instant time, @Nullable PsiStats psi) {}

  /** {@code PSIStats}: both lines always, as the kubelet's non-pointer {@code PSIData} fields are. */
  public record PsiStats(PsiData full, PsiData some) {}

  /**
   * {@code PSIData}. {@code total} is the kernel's cumulative stall in microseconds, passed through as the kubelet's
   * {@code cadvisorPSIToStatsPSI} passes cAdvisor's (which runc reads unconverted from the pressure file), although
   * types.go documents nanoseconds.
   */
  public record PsiData(
      long total,
      double avg10,
      double avg60,
      double avg300) {}

  /** {@code InterfaceStats}. */
  public record InterfaceStats(
      String name,
      @Nullable Long rxBytes,
      @Nullable Long rxErrors,
      @Nullable Long txBytes,
      @Nullable Long txErrors) {}

  /** {@code NetworkStats}: the default interface's fields are inlined, as Go's embedded struct does. */
  public record NetworkStats(
      Instant time,
      InterfaceStats defaultInterface,
      @Nullable List<InterfaceStats> interfaces) {}

  /** {@code FsStats}. */
  public record FsStats(
      Instant time,
      @Nullable Long availableBytes,
      @Nullable Long capacityBytes,
      @Nullable Long usedBytes,
      @Nullable Long inodesFree,
      @Nullable Long inodes,
      @Nullable Long inodesUsed) {}

  /** {@code RuntimeStats}. */
  public record RuntimeStats(
      @Nullable FsStats imageFs,
      @Nullable FsStats containerFs) {}

  /** {@code RlimitStats}. */
  public record RlimitStats(
      Instant time,
      @Nullable Long maxPid,
      @Nullable Long numOfRunningProcesses) {}

  /**
   * {@code SwapStats}: {@code swapAvailableBytes} is the limit minus the usage, absent where swap is unlimited (the
   * kubelet's {@code cadvisorInfoToSwapStats}).
   */
  public record SwapStats(
      Instant time,
      @Nullable Long swapAvailableBytes,
      @Nullable Long swapUsageBytes) {}

  /** {@code ProcessStats}. */
  public record ProcessStats(@Nullable Long processCount) {}
}
