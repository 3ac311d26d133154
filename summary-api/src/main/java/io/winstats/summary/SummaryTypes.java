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
      @JsonProperty("rlimit") @Nullable RlimitStats rlimit) {}

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
      @JsonProperty("process_stats") @Nullable ProcessStats processStats) {
    public PodStats {
      containers = List.copyOf(containers);
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
      @JsonProperty("logs") @Nullable FsStats logs) {}

  /** {@code CPUStats}: {@code usageNanoCores} is absent until two samples exist. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CpuStats(
      @JsonProperty("time") Instant time,
      @JsonProperty("usageNanoCores") @Nullable Long usageNanoCores,
      @JsonProperty("usageCoreNanoSeconds") @Nullable Long usageCoreNanoSeconds) {}

  /** {@code MemoryStats}: {@code availableBytes} is absent where there is no limit. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record MemoryStats(
      @JsonProperty("time") Instant time,
      @JsonProperty("availableBytes") @Nullable Long availableBytes,
      @JsonProperty("usageBytes") @Nullable Long usageBytes,
      @JsonProperty("workingSetBytes") @Nullable Long workingSetBytes,
      @JsonProperty("rssBytes") @Nullable Long rssBytes,
      @JsonProperty("pageFaults") @Nullable Long pageFaults,
      @JsonProperty("majorPageFaults") @Nullable Long majorPageFaults) {}

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

  /** {@code ProcessStats}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ProcessStats(@JsonProperty("process_count") @Nullable Long processCount) {}
}
