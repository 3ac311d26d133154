package io.winstats.cri.rounds;

import io.winstats.cri.ContainerLogUsage;
import io.winstats.cri.ContainerSample;
import io.winstats.cri.ContainerSampleBuilder;
import io.winstats.cri.CpuUsage;
import io.winstats.cri.FilesystemCapacity;
import io.winstats.cri.MemoryUsage;
import io.winstats.cri.ResourceSpec;
import io.winstats.cri.RuntimeFilesystemUsage;
import io.winstats.cri.api.ContainerStatus;
import io.winstats.cri.api.FilesystemUsage;
import io.winstats.cri.api.LinuxContainerResources;
import io.winstats.cri.api.UInt64Value;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Maps CRI stats messages to this module's records. Pure apart from the {@link CpuRateCache} it feeds.
 *
 * <p>Conventions: an unset {@code UInt64Value} becomes {@code null}; a value above {@link Long#MAX_VALUE} cannot be a
 * real counter and throws {@link IllegalArgumentException}, which the reader turns into a skipped pod or container.
 * Timestamps are nanoseconds since the epoch; a timestamp of 0 (containerd 1.6 leaves the pod network timestamp at 0)
 * takes the enclosing reading's time instead.
 */
final class StatsMapper {
  private final CpuRateCache cpuRates;

  StatsMapper(CpuRateCache cpuRates) {
    this.cpuRates = Objects.requireNonNull(cpuRates, "cpuRates");
  }

  /** Nanoseconds since the epoch, or {@code orElse} when the runtime left the timestamp unset (0 or negative). */
  static Instant instant(long epochNanos, Instant orElse) {
    return epochNanos > 0 ? Instant.ofEpochSecond(0, epochNanos) : orElse;
  }

  /**
   * A Linux memory message as sent, by ListContainerStats and ListPodSandboxStats alike: each figure the runtime left
   * unset stays absent.
   */
  static MemoryUsage memory(io.winstats.cri.api.MemoryUsage m, Instant orElse) {
    return MemoryUsage.builder(instant(m.getTimestamp(), orElse))
        .workingSetBytes(u64(m.hasWorkingSetBytes(), m.getWorkingSetBytes()))
        .availableBytes(u64(m.hasAvailableBytes(), m.getAvailableBytes()))
        .usageBytes(u64(m.hasUsageBytes(), m.getUsageBytes()))
        .rssBytes(u64(m.hasRssBytes(), m.getRssBytes()))
        .pageFaults(u64(m.hasPageFaults(), m.getPageFaults()))
        .majorPageFaults(u64(m.hasMajorPageFaults(), m.getMajorPageFaults()))
        .build();
  }

  @Nullable
  static Long u64(boolean present, UInt64Value value) {
    if (!present) {
      return null;
    }
    long v = value.getValue();
    if (v < 0) {
      throw new IllegalArgumentException("uint64 value out of range: " + Long.toUnsignedString(v));
    }
    return v;
  }

  /** The CPU fields of a {@code CpuUsage} or {@code WindowsCpuUsage}. */
  record CpuFields(long timestampNanos, @Nullable Long usageCoreNanos) {}

  /** The fields of a {@code FilesystemUsage} or {@code WindowsFilesystemUsage}. */
  record LayerFields(long timestampNanos, String mountpoint, @Nullable Long usedBytes, @Nullable Long inodesUsed) {}

  static CpuFields cpuFields(long timestampNanos, boolean present, UInt64Value usageCoreNanos) {
    return new CpuFields(timestampNanos, u64(present, usageCoreNanos));
  }

  // ---- CPU -----------------------------------------------------------------------------------------------------

  /** The CPU of {@code fields} with our own rate against the previous reading of {@code key}. */
  @Nullable
  CpuUsage cpu(@Nullable CpuFields fields, CpuRateCache.Key key, Instant orElse) {
    if (fields == null || fields.usageCoreNanos() == null) {
      return null;
    }
    return cpu(key, instant(fields.timestampNanos(), orElse), fields.usageCoreNanos());
  }

  /** A cumulative CPU reading with our own rate against the previous reading of {@code key}. */
  CpuUsage cpu(CpuRateCache.Key key, Instant timestamp, long usageCoreNanos) {
    return new CpuUsage(timestamp, usageCoreNanos, cpuRates.rate(key, timestamp, usageCoreNanos));
  }

  // ---- Writable layer ------------------------------------------------------------------------------------------

  /**
   * A layer with timestamp 0 is containerd's filler for a snapshot its snapshot store has not measured yet ("If
   * snapshotstore doesn't have cached snapshot information set WritableLayer usage to zero": {@code containerMetrics}
   * on Linux and {@code toPodSandboxStats} on Windows, 1.7 to 2.x, send the zero snapshot's timestamp with it): its
   * bytes and inodes are absent, not 0. The mountpoint, and so the capacity, are real.
   */
  static RuntimeFilesystemUsage writableLayer(LayerFields fs, Instant orElse, HostView host) {
    boolean measured = fs.timestampNanos() != 0;
    return RuntimeFilesystemUsage.builder(instant(fs.timestampNanos(), orElse), fs.mountpoint())
        .usedBytes(measured ? fs.usedBytes() : null)
        .inodesUsed(measured ? fs.inodesUsed() : null)
        .capacity(host.capacity(fs.mountpoint()))
        .build();
  }

  /** One {@code ImageFsInfo} filesystem with the capacity of the filesystem holding its mountpoint. */
  static RuntimeFilesystemUsage runtimeFilesystem(FilesystemUsage fs, Instant orElse, HostView host) {
    String mountpoint = fs.getFsId().getMountpoint();
    return RuntimeFilesystemUsage.builder(instant(fs.getTimestamp(), orElse), mountpoint)
        .usedBytes(u64(fs.hasUsedBytes(), fs.getUsedBytes()))
        .inodesUsed(u64(fs.hasInodesUsed(), fs.getInodesUsed()))
        .capacity(host.capacity(mountpoint))
        .build();
  }

  /** {@code ContainerStatus.resources.linux}, or {@code null} when the runtime filled none of its figures. */
  static @Nullable ResourceSpec resources(ContainerStatus status) {
    if (!status.hasResources() || !status.getResources().hasLinux()) {
      return null;
    }
    LinuxContainerResources l = status.getResources().getLinux();
    // CRI's int64 fields use 0 for "not set"; a quota of -1 is cgroup v1's "no quota".
    ResourceSpec spec =
        new ResourceSpec(
            positive(l.getCpuPeriod()),
            positive(l.getCpuQuota()),
            positive(l.getCpuShares()),
            positive(l.getMemoryLimitInBytes()));
    return spec.isEmpty() ? null : spec;
  }

  private static @Nullable Long positive(long value) {
    return value > 0 ? value : null;
  }

  /**
   * What one round reads from the host's files, each mountpoint looked at once per round: the writable layers of all
   * containers share one or two mountpoints.
   */
  static final class HostView {
    private final HostFiles files;
    private final Instant now;
    private final Map<String, Optional<FilesystemCapacity>> capacities = new HashMap<>();

    HostView(HostFiles files, Instant now) {
      this.files = Objects.requireNonNull(files, "files");
      this.now = Objects.requireNonNull(now, "now");
    }

    @Nullable FilesystemCapacity capacity(String mountpoint) {
      if (mountpoint.isEmpty()) {
        return null;
      }
      return capacities.computeIfAbsent(mountpoint, m -> Optional.ofNullable(files.capacity(m))).orElse(null);
    }

    /**
     * The container's log files: every regular file in the directory of its log file, as the kubelet counts {@code
     * /var/log/pods/<ns>_<pod>_<uid>/<container>/}. {@code null} for a relative or unknown path (the runtime's
     * {@code ContainerStatus.log_path} is absolute in containerd) or an unreadable directory.
     */
    @Nullable ContainerLogUsage logs(@Nullable String logPath) {
      if (logPath == null || logPath.isEmpty()) {
        return null;
      }
      Path directory;
      try {
        Path path = Path.of(logPath);
        directory = path.isAbsolute() ? path.getParent() : null;
      } catch (InvalidPathException e) {
        return null;
      }
      if (directory == null) {
        return null;
      }
      HostFiles.Usage usage = files.regularFiles(directory.toString());
      return usage == null ? null : new ContainerLogUsage(now, usage.bytes(), usage.files());
    }
  }

  // ---- Containers ----------------------------------------------------------------------------------------------

  /** A container's stats, of either platform, joined with its identity. */
  ContainerSample container(ContainerStatsView s, RuntimeMetadata.Container meta, Instant orElse, HostView host) {
    CpuRateCache.Key key = new CpuRateCache.Key(meta.id(), meta.attempt());
    CpuFields cpuFields = s.cpu();
    Instant cpuTime = cpuFields != null ? instant(cpuFields.timestampNanos(), orElse) : orElse;
    LayerFields layer = s.writableLayer();
    return identified(meta, host)
        .cpu(cpu(cpuFields, key, orElse))
        .memory(s.memory(cpuTime))
        .writableLayer(layer != null ? writableLayer(layer, cpuTime, host) : null)
        .build(); // no storage: CRI counts no storage I/O
  }

  /**
   * A container's sample with its identity from the runtime's listing and its logs from the host filled, for the
   * caller to add its stats: the CRI rounds and containerd's task metrics join the same identity.
   */
  static ContainerSampleBuilder identified(RuntimeMetadata.Container meta, HostView host) {
    return ContainerSample.builder(meta.id(), meta.name())
        .attempt((int) meta.attempt())
        .image(meta.image())
        .createdAt(meta.createdAt())
        .state(meta.state())
        .labels(meta.labels())
        .logs(host.logs(meta.logPath()))
        .resources(meta.resources());
  }

  // ---- Sums for the ListContainerStats fallback ----------------------------------------------------------------

  /**
   * Pod CPU as the sum of its containers, as the kubelet's {@code addPodCPUMemoryStats} does. The cumulative time is
   * the sum at the latest container timestamp; the rate is the sum of the containers' own rates, or {@code null} if
   * any container has none yet (so a new container never makes the pod rate jump).
   */
  @Nullable
  static CpuUsage sumCpu(List<ContainerSample> containers) {
    Instant latest = null;
    long total = 0;
    long rate = 0;
    boolean rateKnown = true;
    for (ContainerSample c : containers) {
      CpuUsage cpu = c.cpu();
      if (cpu == null) {
        continue;
      }
      latest = latest == null || cpu.timestamp().isAfter(latest) ? cpu.timestamp() : latest;
      total = Math.addExact(total, cpu.usageCoreNanos());
      if (cpu.usageNanoCores() == null) {
        rateKnown = false;
      } else {
        rate = Math.addExact(rate, cpu.usageNanoCores());
      }
    }
    return latest == null ? null : new CpuUsage(latest, total, rateKnown ? rate : null);
  }

  /**
   * Pod memory as the sum of its containers; a figure is {@code null} if no container reported it. No commit peak: CRI
   * does not carry it, and a sum of peaks is no peak.
   */
  @Nullable
  static MemoryUsage sumMemory(List<ContainerSample> containers) {
    List<MemoryUsage> readings = new ArrayList<>();
    Instant latest = null;
    for (ContainerSample c : containers) {
      MemoryUsage m = c.memory();
      if (m != null) {
        readings.add(m);
        latest = latest == null || m.timestamp().isAfter(latest) ? m.timestamp() : latest;
      }
    }
    if (latest == null) {
      return null;
    }
    return MemoryUsage.builder(latest)
        .workingSetBytes(sum(readings, MemoryUsage::workingSetBytes))
        .availableBytes(sum(readings, MemoryUsage::availableBytes))
        .usageBytes(sum(readings, MemoryUsage::usageBytes))
        .rssBytes(sum(readings, MemoryUsage::rssBytes))
        .pageFaults(sum(readings, MemoryUsage::pageFaults))
        .majorPageFaults(sum(readings, MemoryUsage::majorPageFaults))
        .commitBytes(sum(readings, MemoryUsage::commitBytes))
        .build();
  }

  /** The sum of one figure over {@code readings}, or {@code null} if none reported it. */
  private static @Nullable Long sum(List<MemoryUsage> readings, Function<MemoryUsage, @Nullable Long> figure) {
    Long total = null;
    for (MemoryUsage m : readings) {
      Long value = figure.apply(m);
      if (value != null) {
        total = total == null ? value : Math.addExact(total, value);
      }
    }
    return total;
  }
}
