package io.winstats.perfcounters;

import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One immutable reading of every node counter, as of {@link #timestamp()}.
 *
 * <p>A part that could not be read is {@code null} (or an empty list) and named in {@link #missing()} with its
 * reason; a present part is complete.
 *
 * @param timestamp the source's own time of the reading (PDH's collect time, the read time of /proc, the logged time)
 * @param monotonicNanos a monotonic clock reading taken with the sample, for rates that survive wall-clock steps
 * @param origin whether cumulative figures are exact ({@link ValueOrigin#RAW}) or integrated from formatted values
 * @param interfaces network interfaces, sorted by name
 * @param filesystems mounted filesystems, sorted by mountpoint
 * @param disks block devices, sorted by device
 * @param physicalDisks physical disks ({@code \PhysicalDisk(*)}, Windows only), sorted by instance
 * @param missing parts that could not be read, each with the reason
 * @param kubeletRootFs the filesystem holding the kubelet's root directory, read live when the sample was taken
 *     ({@code GetDiskFreeSpaceExW}, as the kubelet reads it); {@code null} when the source does not read it (then
 *     the Summary falls back to the root volume in {@link #filesystems()})
 * @param services the Windows services the service filter selects (Service Control Manager, pdh source only), sorted
 *     by name; empty when the source reads none or {@link NodePart#SERVICES} is missing
 * @param adapters the network adapters of the IP Helper API (pdh source only), sorted by {@code nic}; empty when the
 *     source reads none or {@link NodePart#NETWORK_ADAPTERS} is missing
 * @param volumes the volume information of each {@code \LogicalDisk(*)} instance (pdh source only), sorted by
 *     volume; empty when the source reads none or {@link NodePart#VOLUMES} is missing
 * @param windowsOs the Windows release and the node's DNS names (pdh source only), each part {@code null} and {@link
 *     NodePart#OS} missing when it could not be read; {@code null} when the source reads neither
 */
public record NodeSample(
    Instant timestamp,
    long monotonicNanos,
    ValueOrigin origin,
    @Nullable NodeCpu cpu,
    @Nullable NodeMemory memory,
    List<NetworkInterfaceCounters> interfaces,
    List<FilesystemUsage> filesystems,
    List<DiskIoCounters> disks,
    List<PhysicalDiskCounters> physicalDisks,
    @Nullable NodeSystem system,
    Map<NodePart, String> missing,
    @Nullable FilesystemUsage kubeletRootFs,
    List<WindowsService> services,
    List<NetworkAdapter> adapters,
    List<LogicalDiskInfo> volumes,
    @Nullable WindowsOs windowsOs) {

  /** A sample without physical disks (a source that reads none: procfs). */
  public NodeSample(
      Instant timestamp,
      long monotonicNanos,
      ValueOrigin origin,
      @Nullable NodeCpu cpu,
      @Nullable NodeMemory memory,
      List<NetworkInterfaceCounters> interfaces,
      List<FilesystemUsage> filesystems,
      List<DiskIoCounters> disks,
      @Nullable NodeSystem system,
      Map<NodePart, String> missing,
      @Nullable FilesystemUsage kubeletRootFs) {
    this(
        timestamp, monotonicNanos, origin, cpu, memory, interfaces, filesystems, disks, List.of(), system, missing,
        kubeletRootFs, List.of(), List.of(), List.of(), null);
  }

  /** A sample without a live reading of the kubelet's root filesystem. */
  public NodeSample(
      Instant timestamp,
      long monotonicNanos,
      ValueOrigin origin,
      @Nullable NodeCpu cpu,
      @Nullable NodeMemory memory,
      List<NetworkInterfaceCounters> interfaces,
      List<FilesystemUsage> filesystems,
      List<DiskIoCounters> disks,
      @Nullable NodeSystem system,
      Map<NodePart, String> missing) {
    this(timestamp, monotonicNanos, origin, cpu, memory, interfaces, filesystems, disks, system, missing, null);
  }

  public NodeSample {
    Objects.requireNonNull(timestamp, "timestamp");
    Objects.requireNonNull(origin, "origin");
    interfaces = interfaces.stream().sorted(Comparator.comparing(NetworkInterfaceCounters::name)).toList();
    filesystems = filesystems.stream().sorted(Comparator.comparing(FilesystemUsage::mountpoint)).toList();
    disks = disks.stream().sorted(Comparator.comparing(DiskIoCounters::device, NaturalOrder.INSTANCE)).toList();
    physicalDisks =
        physicalDisks.stream()
            .sorted(Comparator.comparing(PhysicalDiskCounters::instance, NaturalOrder.INSTANCE))
            .toList();
    services = services.stream().sorted(Comparator.comparing(WindowsService::name)).toList();
    adapters = adapters.stream().sorted(Comparator.comparing(NetworkAdapter::nic)).toList();
    volumes = volumes.stream().sorted(Comparator.comparing(LogicalDiskInfo::volume)).toList();
    EnumMap<NodePart, String> copy = new EnumMap<>(NodePart.class);
    copy.putAll(missing);
    missing = Collections.unmodifiableMap(copy);
  }

  /** A builder for a raw reading at {@code timestamp}: no part, nothing missing, until set. */
  public static Builder builder(Instant timestamp, long monotonicNanos) {
    return new Builder(timestamp, monotonicNanos);
  }

  /** A builder holding this sample's components, to change some. */
  public Builder toBuilder() {
    return toBuilder(timestamp);
  }

  /** A builder holding this sample's components but stamped {@code at}. */
  public Builder toBuilder(Instant at) {
    return new Builder(at, monotonicNanos)
        .origin(origin)
        .cpu(cpu)
        .memory(memory)
        .interfaces(interfaces)
        .filesystems(filesystems)
        .disks(disks)
        .physicalDisks(physicalDisks)
        .system(system)
        .missing(missing)
        .kubeletRootFs(kubeletRootFs)
        .services(services)
        .adapters(adapters)
        .volumes(volumes)
        .windowsOs(windowsOs);
  }

  /** Names each component of a {@link NodeSample}; not thread-safe. */
  public static final class Builder {
    private final Instant timestamp;
    private final long monotonicNanos;
    private ValueOrigin origin = ValueOrigin.RAW;
    private @Nullable NodeCpu cpu;
    private @Nullable NodeMemory memory;
    private List<NetworkInterfaceCounters> interfaces = List.of();
    private List<FilesystemUsage> filesystems = List.of();
    private List<DiskIoCounters> disks = List.of();
    private List<PhysicalDiskCounters> physicalDisks = List.of();
    private @Nullable NodeSystem system;
    private Map<NodePart, String> missing = Map.of();
    private @Nullable FilesystemUsage kubeletRootFs;
    private List<WindowsService> services = List.of();
    private List<NetworkAdapter> adapters = List.of();
    private List<LogicalDiskInfo> volumes = List.of();
    private @Nullable WindowsOs windowsOs;

    private Builder(Instant timestamp, long monotonicNanos) {
      this.timestamp = timestamp;
      this.monotonicNanos = monotonicNanos;
    }

    public Builder origin(ValueOrigin value) {
      this.origin = value;
      return this;
    }

    public Builder cpu(@Nullable NodeCpu value) {
      this.cpu = value;
      return this;
    }

    public Builder memory(@Nullable NodeMemory value) {
      this.memory = value;
      return this;
    }

    public Builder interfaces(List<NetworkInterfaceCounters> value) {
      this.interfaces = value;
      return this;
    }

    public Builder filesystems(List<FilesystemUsage> value) {
      this.filesystems = value;
      return this;
    }

    public Builder disks(List<DiskIoCounters> value) {
      this.disks = value;
      return this;
    }

    public Builder physicalDisks(List<PhysicalDiskCounters> value) {
      this.physicalDisks = value;
      return this;
    }

    public Builder system(@Nullable NodeSystem value) {
      this.system = value;
      return this;
    }

    public Builder missing(Map<NodePart, String> value) {
      this.missing = value;
      return this;
    }

    public Builder kubeletRootFs(@Nullable FilesystemUsage value) {
      this.kubeletRootFs = value;
      return this;
    }

    public Builder services(List<WindowsService> value) {
      this.services = value;
      return this;
    }

    public Builder adapters(List<NetworkAdapter> value) {
      this.adapters = value;
      return this;
    }

    public Builder volumes(List<LogicalDiskInfo> value) {
      this.volumes = value;
      return this;
    }

    public Builder windowsOs(@Nullable WindowsOs value) {
      this.windowsOs = value;
      return this;
    }

    public NodeSample build() {
      return new NodeSample(
          timestamp,
          monotonicNanos,
          origin,
          cpu,
          memory,
          interfaces,
          filesystems,
          disks,
          physicalDisks,
          system,
          missing,
          kubeletRootFs,
          services,
          adapters,
          volumes,
          windowsOs);
    }
  }
}
