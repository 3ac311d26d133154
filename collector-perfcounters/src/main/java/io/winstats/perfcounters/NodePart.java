package io.winstats.perfcounters;

/** The parts of a {@link NodeSample}; a part that could not be read is named in {@link NodeSample#missing()}. */
public enum NodePart {
  CPU,
  MEMORY,
  NETWORK,
  FILESYSTEM,
  DISK_IO,
  /** Windows' {@code \PhysicalDisk(*)}; a Linux node has none (its block devices are {@link #DISK_IO}). */
  PHYSICAL_DISK,
  SYSTEM
}
