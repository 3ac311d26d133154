package io.winstats.perfcounters.win32;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.FilesystemUsage;
import io.winstats.perfcounters.LogicalDiskInfo;
import io.winstats.perfcounters.NetworkAdapter;
import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodePart;
import io.winstats.perfcounters.NodePlatform;
import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.PerfCounterReadings;
import io.winstats.perfcounters.WindowsOs;
import io.winstats.perfcounters.WindowsService;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * A Windows node source whose samples also carry the figures of Win32 APIs other than PDH: the services ({@link
 * ServiceReader}), the network adapters ({@link AdapterReader}), the volumes of the {@code \LogicalDisk(*)} instances
 * the counters read ({@link VolumeReader}) and the release and DNS names ({@link OsReader}), each only when its
 * collector is on. They are read right after the counters, on the caller's thread, so once per sampling interval and
 * never per scrape (windows_exporter reads them on every scrape). A failure of one is a missing part of the sample
 * ({@link NodePart#SERVICES}, {@link NodePart#NETWORK_ADAPTERS}, {@link NodePart#VOLUMES}, {@link NodePart#OS}); the
 * counters' parts are the wrapped source's.
 *
 * <p>{@link #sample()} and {@link #close()} from one thread at a time, as the wrapped source's.
 */
public final class Win32NodeSource implements NodeCounterSource {
  private final NodeCounterSource counters;
  private final @Nullable ServiceReader services;
  private final @Nullable AdapterReader adapters;
  private final @Nullable VolumeReader volumes;
  private final @Nullable OsReader os;

  /** Wraps {@code counters}, adding what each reader given reads; closing this closes them all. */
  public Win32NodeSource(
      NodeCounterSource counters, @Nullable ServiceReader services, @Nullable AdapterReader adapters) {
    this(counters, services, adapters, null);
  }

  /** Wraps {@code counters}, adding what each reader given reads; closing this closes them all. */
  public Win32NodeSource(
      NodeCounterSource counters,
      @Nullable ServiceReader services,
      @Nullable AdapterReader adapters,
      @Nullable VolumeReader volumes) {
    this(counters, services, adapters, volumes, null);
  }

  /** Wraps {@code counters}, adding what each reader given reads; closing this closes them all. */
  public Win32NodeSource(
      NodeCounterSource counters,
      @Nullable ServiceReader services,
      @Nullable AdapterReader adapters,
      @Nullable VolumeReader volumes,
      @Nullable OsReader os) {
    this.counters = Objects.requireNonNull(counters, "counters");
    this.services = services;
    this.adapters = adapters;
    this.volumes = volumes;
    this.os = os;
  }

  @Override
  public String name() {
    return counters.name();
  }

  @Override
  public NodePlatform platform() {
    return counters.platform();
  }

  /** The wrapped source's sample with the services, the adapters, the volumes and the release and names read now. */
  @Override
  public NodeSample sample() {
    NodeSample sample = counters.sample();
    Map<NodePart, String> missing = new EnumMap<>(NodePart.class);
    missing.putAll(sample.missing());
    List<WindowsService> serviceList = services == null ? List.of() : services.read(missing);
    List<NetworkAdapter> adapterList = adapters == null ? List.of() : adapters.read(missing);
    List<LogicalDiskInfo> volumeList = volumes == null ? List.of() : volumes.read(logicalDisks(sample), missing);
    WindowsOs windowsOs = os == null ? null : os.read(missing);
    return sample
        .toBuilder()
        .services(serviceList)
        .adapters(adapterList)
        .volumes(volumeList)
        .windowsOs(windowsOs)
        .missing(missing)
        .build();
  }

  /**
   * The {@code \LogicalDisk(*)} instances of {@code sample} but {@code _Total}: those of its I/O counters and of its
   * space, which the daemon serves as {@code windows_logical_disk_*}.
   */
  static SortedSet<String> logicalDisks(NodeSample sample) {
    SortedSet<String> instances = new TreeSet<>();
    for (DiskIoCounters d : sample.disks()) {
      instances.add(d.device());
    }
    for (FilesystemUsage f : sample.filesystems()) {
      instances.add(f.device());
    }
    return instances;
  }

  @Override
  public Optional<PerfCounterReadings> perfCounterReadings() {
    return counters.perfCounterReadings();
  }

  @Override
  public void close() {
    try {
      if (services != null) {
        services.close();
      }
    } finally {
      counters.close();
    }
  }
}
