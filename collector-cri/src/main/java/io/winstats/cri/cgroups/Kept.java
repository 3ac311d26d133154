package io.winstats.cri.cgroups;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What is kept of one cgroup (or sandbox) between rounds. Written by the one thread that reads the cgroup; the
 * reader's map only publishes it.
 */
final class Kept {
  /** Whether the cgroup was read before: its first read reads everything. */
  boolean seen;
  /** When the limits are read again (on the reader's {@code nanoTime} clock). */
  long dueAt;
  CgroupSpec spec = CgroupSpec.NONE;
  @Nullable Long threadsMax;
  long limitsPid = -1;
  @Nullable Long maxOpenFilesSoft;
  @Nullable Boolean hierarchicalMemory;
  List<HugePages> hugetlb = List.of();
  /** {@code /proc/<first pid>/net/dev}, kept while it can be read. */
  @Nullable String netDev;
}
