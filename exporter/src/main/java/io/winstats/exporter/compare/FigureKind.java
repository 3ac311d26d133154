package io.winstats.exporter.compare;

import java.util.Set;

/**
 * How a figure of the daemon and the same figure of the reference compare: for a Summary by the figure's own name
 * ({@link #of(String)}), for an exposition by its family ({@link ExpositionFigures}). The tolerances are stated in
 * {@code compare --help}, docs/KUBELET.md and docs/COMPARE.md; a change here changes them.
 */
enum FigureKind {
  /**
   * A size the node or runtime declares (file system capacity, inodes, the pid limit, physical memory, processors) or
   * an identity series ({@code _info}, a container's {@code available}): equal, or a difference.
   */
  CAPACITY,
  /**
   * A counter that only rises (CPU time, bytes and errors, page faults, pressure stall totals): the reference's value
   * must lie between the daemon's last reading at or before the reference's time and its first at or after it.
   */
  CUMULATIVE,
  /**
   * A figure that moves both ways (working set, usage, CPU rate, free space): within {@link #RELATIVE} of the
   * reference or within an absolute floor by unit, whichever is larger.
   */
  GAUGE,
  /** A moment in seconds since the epoch (the boot time, a container's start): within {@link #FLOOR_INSTANT}. */
  INSTANT;

  /** The share of the reference's value a gauge may differ by. */
  static final double RELATIVE = 0.10;

  /** The floor for bytes: a page cache or a working set moves by megabytes between two readings of an idle pod. */
  static final double FLOOR_BYTES = 16 * 1024 * 1024;

  /** The floor for a CPU rate in nanocores: 50 millicores, as two readings a few seconds apart average differently. */
  static final double FLOOR_NANOCORES = 50_000_000;

  /** The floor for pressure stall averages, in percent. */
  static final double FLOOR_PERCENT = 5;

  /** The floor for counts (inodes in use or free, processes). */
  static final double FLOOR_COUNT = 100;

  /** How far two readings of one moment may be: a boot time is the clock less an uptime, read a little apart. */
  static final double FLOOR_INSTANT = 1;

  private static final Set<String> CAPACITIES = Set.of("capacityBytes", "inodes", "maxpid");

  private static final Set<String> CUMULATIVES =
      Set.of(
          "usageCoreNanoSeconds",
          "rxBytes",
          "txBytes",
          "rxErrors",
          "txErrors",
          "pageFaults",
          "majorPageFaults",
          "total");

  static FigureKind of(String field) {
    if (CAPACITIES.contains(field)) {
      return CAPACITY;
    }
    return CUMULATIVES.contains(field) ? CUMULATIVE : GAUGE;
  }

  /** How far the daemon's value may be from {@code reference} for a figure of this kind with {@code floor}. */
  double tolerance(double reference, double floor) {
    return switch (this) {
      case GAUGE -> Math.max(RELATIVE * Math.abs(reference), floor);
      case INSTANT -> floor;
      case CAPACITY, CUMULATIVE -> 0;
    };
  }

  /** The floor of a Summary gauge by its field's name. */
  static double floor(String field) {
    if (field.endsWith("Bytes")) {
      return FLOOR_BYTES;
    }
    if (field.equals("usageNanoCores")) {
      return FLOOR_NANOCORES;
    }
    if (field.startsWith("avg")) {
      return FLOOR_PERCENT;
    }
    return FLOOR_COUNT;
  }
}
