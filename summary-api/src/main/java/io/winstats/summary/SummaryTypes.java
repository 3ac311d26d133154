package io.winstats.summary;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The records of kubelet {@code stats/v1alpha1}, one per Go type, with its JSON names. Go's {@code *T omitempty}
 * fields are {@code @Nullable} and left out when null; plain Go fields are always written. Times serialize as RFC 3339
 * with second precision, as {@code metav1.Time} does.
 */
public final class SummaryTypes {
  private SummaryTypes() {}

  /** The whole answer of {@code /stats/summary}. */
  public record Summary(@JsonProperty("node") NodeStats node, @JsonProperty("pods") List<PodStats> pods) {
    public Summary {
      pods = List.copyOf(pods);
    }
  }

  /** {@code NodeStats}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record NodeStats(
      @JsonProperty("nodeName") String nodeName,
      @JsonProperty("systemContainers") @Nullable List<ContainerStats> systemContainers,
      @JsonProperty("startTime") Instant startTime,
      @JsonProperty("cpu") @Nullable CpuStats cpu,
      @JsonProperty("memory") @Nullable MemoryStats memory,
      @JsonProperty("network") @Nullable NetworkStats network,
      @JsonProperty("fs") @Nullable FsStats fs,
      @JsonProperty("runtime") @Nullable RuntimeStats runtime,
      @JsonProperty("rlimit") @Nullable RlimitStats rlimit,
      @JsonProperty("io") @Nullable IoStats io,
      @JsonProperty("swap") @Nullable SwapStats swap) {
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
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record PodStats(
      @JsonProperty("podRef") PodReference podRef,
      @JsonProperty("startTime") Instant startTime,
      @JsonProperty("containers") @JsonInclude(JsonInclude.Include.ALWAYS) List<ContainerStats> containers,
      @JsonProperty("cpu") @Nullable CpuStats cpu,
      @JsonProperty("memory") @Nullable MemoryStats memory,
      @JsonProperty("network") @Nullable NetworkStats network,
      @JsonProperty("ephemeral-storage") @Nullable FsStats ephemeralStorage,
      @JsonProperty("process_stats") @Nullable ProcessStats processStats,
      @JsonProperty("io") @Nullable IoStats io,
      @JsonProperty("swap") @Nullable SwapStats swap) {
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
      @JsonProperty("name") String name,
      @JsonProperty("namespace") String namespace,
      @JsonProperty("uid") String uid) {}

  /** {@code ContainerStats}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ContainerStats(
      @JsonProperty("name") String name,
      @JsonProperty("startTime") Instant startTime,
      @JsonProperty("cpu") @Nullable CpuStats cpu,
      @JsonProperty("memory") @Nullable MemoryStats memory,
      @JsonProperty("rootfs") @Nullable FsStats rootfs,
      @JsonProperty("logs") @Nullable FsStats logs,
      @JsonProperty("io") @Nullable IoStats io,
      @JsonProperty("swap") @Nullable SwapStats swap) {
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
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CpuStats(
      @JsonProperty("time") Instant time,
      @JsonProperty("usageNanoCores") @Nullable Long usageNanoCores,
      @JsonProperty("usageCoreNanoSeconds") @Nullable Long usageCoreNanoSeconds,
      @JsonProperty("psi") @Nullable PsiStats psi) {
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
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record MemoryStats(
      @JsonProperty("time") Instant time,
      @JsonProperty("availableBytes") @Nullable Long availableBytes,
      @JsonProperty("usageBytes") @Nullable Long usageBytes,
      @JsonProperty("workingSetBytes") @Nullable Long workingSetBytes,
      @JsonProperty("rssBytes") @Nullable Long rssBytes,
      @JsonProperty("pageFaults") @Nullable Long pageFaults,
      @JsonProperty("majorPageFaults") @Nullable Long majorPageFaults,
      @JsonProperty("psi") @Nullable PsiStats psi) {
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
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record IoStats(@JsonProperty("time") Instant time, @JsonProperty("psi") @Nullable PsiStats psi) {}

  /** {@code PSIStats}: both lines always, as the kubelet's non-pointer {@code PSIData} fields are. */
  public record PsiStats(@JsonProperty("full") PsiData full, @JsonProperty("some") PsiData some) {}

  /**
   * {@code PSIData}. {@code total} is the kernel's cumulative stall in microseconds, passed through as the kubelet's
   * {@code cadvisorPSIToStatsPSI} passes cAdvisor's (which runc reads unconverted from the pressure file), although
   * types.go documents nanoseconds.
   */
  public record PsiData(
      @JsonProperty("total") long total,
      @JsonProperty("avg10") double avg10,
      @JsonProperty("avg60") double avg60,
      @JsonProperty("avg300") double avg300) {}

  /** {@code InterfaceStats}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record InterfaceStats(
      @JsonProperty("name") @JsonInclude(JsonInclude.Include.ALWAYS) String name,
      @JsonProperty("rxBytes") @Nullable Long rxBytes,
      @JsonProperty("rxErrors") @Nullable Long rxErrors,
      @JsonProperty("txBytes") @Nullable Long txBytes,
      @JsonProperty("txErrors") @Nullable Long txErrors) {}

  /** {@code NetworkStats}: the default interface's fields are inlined, as Go's embedded struct does. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record NetworkStats(
      @JsonProperty("time") Instant time,
      @JsonUnwrapped InterfaceStats defaultInterface,
      @JsonProperty("interfaces") @Nullable List<InterfaceStats> interfaces) {}

  /** {@code FsStats}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record FsStats(
      @JsonProperty("time") Instant time,
      @JsonProperty("availableBytes") @Nullable Long availableBytes,
      @JsonProperty("capacityBytes") @Nullable Long capacityBytes,
      @JsonProperty("usedBytes") @Nullable Long usedBytes,
      @JsonProperty("inodesFree") @Nullable Long inodesFree,
      @JsonProperty("inodes") @Nullable Long inodes,
      @JsonProperty("inodesUsed") @Nullable Long inodesUsed) {}

  /** {@code RuntimeStats}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record RuntimeStats(
      @JsonProperty("imageFs") @Nullable FsStats imageFs,
      @JsonProperty("containerFs") @Nullable FsStats containerFs) {}

  /** {@code RlimitStats}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record RlimitStats(
      @JsonProperty("time") Instant time,
      @JsonProperty("maxpid") @Nullable Long maxPid,
      @JsonProperty("curproc") @Nullable Long numOfRunningProcesses) {}

  /**
   * {@code SwapStats}: {@code swapAvailableBytes} is the limit minus the usage, absent where swap is unlimited (the
   * kubelet's {@code cadvisorInfoToSwapStats}).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SwapStats(
      @JsonProperty("time") Instant time,
      @JsonProperty("swapAvailableBytes") @Nullable Long swapAvailableBytes,
      @JsonProperty("swapUsageBytes") @Nullable Long swapUsageBytes) {}

  /** {@code ProcessStats}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ProcessStats(@JsonProperty("process_count") @Nullable Long processCount) {}
}
