package io.winstats.perfcounters.sources;

import io.winstats.perfcounters.NodeCounterSource;
import io.winstats.perfcounters.NodeSourceException;
import io.winstats.perfcounters.WorkingSetDefinition;
import io.winstats.perfcounters.counters.CustomCounter;
import io.winstats.perfcounters.pdh.PdhNodeSource;
import io.winstats.perfcounters.pdh.jna.JnaPdhLibrary;
import io.winstats.perfcounters.procfs.ProcfsNodeSource;
import io.winstats.perfcounters.replay.ReplayNodeSource;
import io.winstats.perfcounters.win32.AdapterReader;
import io.winstats.perfcounters.win32.OsReader;
import io.winstats.perfcounters.win32.ServiceFilter;
import io.winstats.perfcounters.win32.ServiceReader;
import io.winstats.perfcounters.win32.VolumeReader;
import io.winstats.perfcounters.win32.Win32NodeSource;
import io.winstats.perfcounters.win32.jna.JnaIpHelper;
import io.winstats.perfcounters.win32.jna.JnaServiceControlManager;
import io.winstats.perfcounters.win32.jna.JnaSystemInformation;
import io.winstats.perfcounters.win32.jna.JnaVolumeManagement;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

/** Opens the node counter source a {@link NodeSourceSpec} names; the one class that knows every implementation. */
public final class NodeCounterSources {
  private NodeCounterSources() {}

  /**
   * Opens the source {@code spec} names, without custom counters and with the kubelet's node working set.
   *
   * @param clock stamps (procfs) or paces (replay) the samples
   * @param windowsHost whether this host is Windows, the caller's one answer (the daemon's {@code HostOs}): {@code
   *     pdh} opens only there
   * @throws IllegalArgumentException when {@code spec} names {@code pdh} on a host that is not Windows
   * @throws NodeSourceException when the named source exists but cannot be opened (no procfs, an unreadable log)
   */
  public static NodeCounterSource open(NodeSourceSpec spec, Clock clock, boolean windowsHost) {
    return open(
        spec,
        clock,
        List.of(),
        WorkingSetDefinition.KUBELET,
        PdhNodeSource.DEFAULT_KUBELET_ROOT_DIRECTORY,
        ServiceFilter.ALL,
        true,
        true,
        true,
        windowsHost);
  }

  /**
   * Opens the source {@code spec} names with custom PDH counters, the node working set as {@code workingSet} defines
   * it, and (PDH) the kubelet's root directory, whose volume is read live for the Summary's node filesystem, and the
   * services {@code services} selects, read from the Service Control Manager with each sample ({@code null}: none),
   * and, when {@code networkAdapters}, the network adapters of the IP Helper API with each sample, and, when {@code
   * volumes}, the volume information of the {@code \LogicalDisk(*)} instances with each sample, and, when {@code
   * os}, the Windows release (once) and the DNS names (with each sample) (pdh only).
   *
   * @throws IllegalArgumentException also when {@code customCounters} is not empty, or {@code workingSet} is not
   *     {@link WorkingSetDefinition#KUBELET}, and the source is not PDH
   */
  public static NodeCounterSource open(
      NodeSourceSpec spec,
      Clock clock,
      List<CustomCounter> customCounters,
      WorkingSetDefinition workingSet,
      Path kubeletRootDirectory,
      @Nullable ServiceFilter services,
      boolean networkAdapters,
      boolean volumes,
      boolean os,
      boolean windowsHost) {
    boolean pdh = spec instanceof NodeSourceSpec.Pdh;
    if (!customCounters.isEmpty() && !pdh) {
      throw new IllegalArgumentException("custom performance counters need the pdh source, not " + spec);
    }
    if (workingSet != WorkingSetDefinition.KUBELET && !pdh) {
      throw new IllegalArgumentException(
          "the " + workingSet.flagValue() + " node working set needs the pdh source, not " + spec);
    }
    if (spec instanceof NodeSourceSpec.Procfs procfs) {
      Path rootFs = procfs.hostRootFs();
      return rootFs == null
          ? ProcfsNodeSource.open(procfs.procRoot(), Path.of("/"), clock, System::nanoTime)
          : ProcfsNodeSource.openHost(procfs.procRoot(), rootFs, clock, System::nanoTime);
    }
    if (spec instanceof NodeSourceSpec.Replay replay) {
      return ReplayNodeSource.open(replay.file(), replay.speed(), replay.biasMinutes(), replay.timeline(), clock);
    }
    if (!windowsHost) {
      throw new IllegalArgumentException("pdh source is only available on Windows");
    }
    PdhNodeSource counters =
        PdhNodeSource.open(new JnaPdhLibrary(), clock, customCounters, workingSet, kubeletRootDirectory);
    if (services == null && !networkAdapters && !volumes && !os) {
      return counters;
    }
    ServiceReader serviceReader =
        services == null
            ? null
            : new ServiceReader(new JnaServiceControlManager(), services, LoggerFactory.getLogger(ServiceReader.class));
    AdapterReader adapterReader =
        networkAdapters ? new AdapterReader(new JnaIpHelper(), LoggerFactory.getLogger(AdapterReader.class)) : null;
    VolumeReader volumeReader =
        volumes ? new VolumeReader(new JnaVolumeManagement(), LoggerFactory.getLogger(VolumeReader.class)) : null;
    OsReader osReader =
        os ? new OsReader(new JnaSystemInformation(), LoggerFactory.getLogger(OsReader.class)) : null;
    return new Win32NodeSource(counters, serviceReader, adapterReader, volumeReader, osReader);
  }
}
