package io.winstats.perfcounters;

import java.util.EnumSet;
import java.util.Set;

/** The parts of a {@link NodeSample}; a part that could not be read is named in {@link NodeSample#missing()}. */
public enum NodePart {
  CPU,
  MEMORY,
  NETWORK,
  FILESYSTEM,
  DISK_IO,
  /** Windows' {@code \PhysicalDisk(*)}; a Linux node has none (its block devices are {@link #DISK_IO}). */
  PHYSICAL_DISK,
  SYSTEM,
  /** Windows' services from the Service Control Manager ({@link NodeSample#services()}); no counter. */
  SERVICES,
  /** Windows' network adapters from the IP Helper API ({@link NodeSample#adapters()}); no counter. */
  NETWORK_ADAPTERS,
  /** Windows' volumes from the volume management functions ({@link NodeSample#volumes()}); no counter. */
  VOLUMES,
  /**
   * Windows' release (the registry and {@code RtlGetVersion}) and DNS names ({@code GetComputerNameExW}) ({@link
   * NodeSample#windowsOs()}); no counter.
   */
  OS;

  /** The parts built from performance counters or {@code /proc}: a source that reads none of them has no sample. */
  public static Set<NodePart> counterParts() {
    return EnumSet.range(CPU, SYSTEM);
  }
}
