package io.winstats.perfcounters;

import io.soabase.recordbuilder.core.RecordBuilder;
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
 * <p>Built by name through the generated {@code NodeSampleBuilder}, in which a list or map a source does not set is
 * empty (the {@code Initializer}s), as a source that reads no such part leaves it.
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
@RecordBuilder
public record NodeSample(
    Instant timestamp,
    long monotonicNanos,
    ValueOrigin origin,
    @Nullable NodeCpu cpu,
    @Nullable NodeMemory memory,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<NetworkInterfaceCounters> interfaces,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<FilesystemUsage> filesystems,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<DiskIoCounters> disks,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<PhysicalDiskCounters> physicalDisks,
    @Nullable NodeSystem system,
    @RecordBuilder.Initializer(source = Map.class, value = "of") Map<NodePart, String> missing,
    @Nullable FilesystemUsage kubeletRootFs,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<WindowsService> services,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<NetworkAdapter> adapters,
    @RecordBuilder.Initializer(source = List.class, value = "of") List<LogicalDiskInfo> volumes,
    @Nullable WindowsOs windowsOs) {

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

  /** A builder for a raw reading at {@code timestamp}: no part, nothing missing, until set by name. */
  public static NodeSampleBuilder builder(Instant timestamp, long monotonicNanos) {
    return NodeSampleBuilder.builder().timestamp(timestamp).monotonicNanos(monotonicNanos).origin(ValueOrigin.RAW);
  }

  /** A builder holding this sample's components, to change some. */
  public NodeSampleBuilder toBuilder() {
    return NodeSampleBuilder.builder(this);
  }

  /** A builder holding this sample's components but stamped {@code at}. */
  public NodeSampleBuilder toBuilder(Instant at) {
    return toBuilder().timestamp(at);
  }
}
