package io.winstats.cri.cgroups;

import static io.winstats.cri.cgroups.CgroupReader.file;

import org.jspecify.annotations.Nullable;

/**
 * The memory figures and limits of a cgroup: v1's {@code memory.stat} and its single-value files, or v2's {@code
 * memory.stat}, {@code memory.events} and single values, each flat-keyed file read by key name.
 */
final class MemoryController {
  /**
   * v1 {@code memory.stat}: the hierarchical {@code total_*} keys, the cgroup's own, and the page faults, which
   * cAdvisor takes from the cgroup's own keys either way.
   */
  enum StatV1 {
    TOTAL_CACHE,
    TOTAL_RSS,
    TOTAL_MAPPED_FILE,
    TOTAL_SWAP,
    CACHE,
    RSS,
    MAPPED_FILE,
    SWAP,
    PGFAULT,
    PGMAJFAULT
  }

  /** v1 {@code memory.stat}: the inactive file pages cAdvisor takes from a working set. */
  enum InactiveFileV1 {
    TOTAL_INACTIVE_FILE
  }

  /** v2 {@code memory.stat}: the inactive file pages cAdvisor takes from a working set. */
  enum InactiveFileV2 {
    INACTIVE_FILE
  }

  /** v1 {@code memory.oom_control}. */
  enum OomControl {
    OOM_KILL
  }

  /** v2 {@code memory.stat}. */
  enum StatV2 {
    FILE,
    ANON,
    FILE_MAPPED,
    KERNEL,
    PGFAULT,
    PGMAJFAULT
  }

  /** v2 {@code memory.events}. */
  enum Events {
    MAX,
    OOM_KILL
  }

  private static final KernelFile.Keys<StatV1> STAT_V1 = KernelFile.Keys.of(StatV1.class);
  private static final KernelFile.Keys<OomControl> OOM_CONTROL = KernelFile.Keys.of(OomControl.class);
  private static final KernelFile.Keys<StatV2> STAT_V2 = KernelFile.Keys.of(StatV2.class);
  private static final KernelFile.Keys<Events> EVENTS = KernelFile.Keys.of(Events.class);
  private static final KernelFile.Keys<InactiveFileV1> INACTIVE_V1 = KernelFile.Keys.of(InactiveFileV1.class);
  private static final KernelFile.Keys<InactiveFileV2> INACTIVE_V2 = KernelFile.Keys.of(InactiveFileV2.class);

  private final String memoryBase;
  private final CgroupVersion version;

  MemoryController(String memoryBase, CgroupVersion version) {
    this.memoryBase = memoryBase;
    this.version = version;
  }

  /** The limits cAdvisor serves as {@code container_spec_memory_*}: v1's soft and memsw limits, v2's min and swap. */
  CgroupSpec spec(String path) {
    return version == CgroupVersion.V2
        ? new CgroupSpec(single(path, "/memory.min"), single(path, "/memory.swap.max"))
        : new CgroupSpec(single(path, "/memory.soft_limit_in_bytes"), single(path, "/memory.memsw.limit_in_bytes"));
  }

  /** The cgroup's memory figures, or {@code null} without a {@code memory.stat}. */
  @Nullable CgroupMemory read(String path, Kept k) {
    return version == CgroupVersion.V2 ? readV2(path, k.spec) : readV1(path, k);
  }

  /**
   * Usage, working set and limit of a cgroup no container's CRI stats cover (the kubelet's {@code kubepods}), or
   * {@code null} without its usage file or {@code memory.stat}. A file more per figure than {@link #read}, so read for
   * that one cgroup only.
   */
  @Nullable CgroupMemoryUsage usage(String path) {
    boolean v2 = version == CgroupVersion.V2;
    Long usage = single(path, v2 ? "/memory.current" : "/memory.usage_in_bytes");
    Long inactive =
        KernelFile.read(
            file(memoryBase, path, "/memory.stat"),
            f -> {
              if (v2) {
                f.keyed(INACTIVE_V2);
                return f.find(InactiveFileV2.INACTIVE_FILE);
              }
              f.keyed(INACTIVE_V1);
              return f.find(InactiveFileV1.TOTAL_INACTIVE_FILE);
            });
    if (usage == null || inactive == null) {
      return null;
    }
    return CgroupMemoryUsage.of(usage, inactive, single(path, v2 ? "/memory.max" : "/memory.limit_in_bytes"));
  }

  /** What v1's {@code memory.stat} holds of the served figures. */
  private record StatFiguresV1(
      long cache, long rss, long mappedFile, @Nullable Long swap, long pgfault, long pgmajfault) {}

  private @Nullable CgroupMemory readV1(String path, Kept k) {
    // With use_hierarchy cAdvisor reads the total_* keys. It can only change while a cgroup has no children, nothing
    // changes it on a container's, and since Linux 5.11 it is always 1 ("mm: memcg: deprecate the non-hierarchical
    // mode"): read once per cgroup.
    Boolean known = k.hierarchicalMemory;
    boolean hierarchical;
    if (known == null) {
      Long useHierarchy = single(path, "/memory.use_hierarchy");
      hierarchical = useHierarchy == null || useHierarchy == 1;
      k.hierarchicalMemory = hierarchical;
    } else {
      hierarchical = known;
    }
    StatFiguresV1 stat =
        KernelFile.read(
            file(memoryBase, path, "/memory.stat"),
            f -> {
              f.keyed(STAT_V1);
              return new StatFiguresV1(
                  f.get(hierarchical ? StatV1.TOTAL_CACHE : StatV1.CACHE),
                  f.get(hierarchical ? StatV1.TOTAL_RSS : StatV1.RSS),
                  f.get(hierarchical ? StatV1.TOTAL_MAPPED_FILE : StatV1.MAPPED_FILE),
                  f.find(hierarchical ? StatV1.TOTAL_SWAP : StatV1.SWAP),
                  f.get(StatV1.PGFAULT),
                  f.get(StatV1.PGMAJFAULT));
            });
    if (stat == null) {
      return null;
    }
    Long kernel = single(path, "/memory.kmem.usage_in_bytes");
    Long failcnt = single(path, "/memory.failcnt");
    Long maxUsage = single(path, "/memory.max_usage_in_bytes");
    Long oomKills =
        KernelFile.read(
            file(memoryBase, path, "/memory.oom_control"),
            f -> {
              f.keyed(OOM_CONTROL);
              return f.find(OomControl.OOM_KILL);
            });
    // No swapLimitBytes: v1's memory.memsw.limit_in_bytes bounds memory plus swap, not swap.
    return CgroupMemory.builder()
        .cacheBytes(stat.cache())
        .rssBytes(stat.rss())
        .mappedFileBytes(stat.mappedFile())
        .swapBytes(stat.swap())
        .kernelBytes(kernel)
        .failcnt(failcnt)
        .maxUsageBytes(maxUsage)
        .pgfault(stat.pgfault())
        .pgmajfault(stat.pgmajfault())
        .oomKills(oomKills)
        .build();
  }

  /** What v2's {@code memory.events} holds of the served figures. */
  private record EventFigures(@Nullable Long failcnt, @Nullable Long oomKills) {}

  /** What v2's {@code memory.stat} holds of the served figures. */
  private record StatFiguresV2(
      long cache, long rss, long mappedFile, @Nullable Long kernel, long pgfault, long pgmajfault) {}

  private @Nullable CgroupMemory readV2(String path, CgroupSpec spec) {
    StatFiguresV2 stat =
        KernelFile.read(
            file(memoryBase, path, "/memory.stat"),
            f -> {
              f.keyed(STAT_V2);
              return new StatFiguresV2(
                  f.get(StatV2.FILE),
                  f.get(StatV2.ANON),
                  f.get(StatV2.FILE_MAPPED),
                  f.find(StatV2.KERNEL),
                  f.get(StatV2.PGFAULT),
                  f.get(StatV2.PGMAJFAULT));
            });
    if (stat == null) {
      return null;
    }
    EventFigures events =
        KernelFile.read(
            file(memoryBase, path, "/memory.events"),
            f -> {
              f.keyed(EVENTS);
              return new EventFigures(f.find(Events.MAX), f.find(Events.OOM_KILL));
            });
    Long swap = single(path, "/memory.swap.current");
    Long swapLimit = spec.memorySwapLimitBytes();
    Long maxUsage = single(path, "/memory.peak");
    return CgroupMemory.builder()
        .cacheBytes(stat.cache())
        .rssBytes(stat.rss())
        .mappedFileBytes(stat.mappedFile())
        .swapBytes(swap)
        // Only where swap is accounted; "max" (unlimited) is null, as the kubelet omits swapAvailableBytes without a
        // limit.
        .swapLimitBytes(swap == null || swapLimit == null || swapLimit == Long.MAX_VALUE ? null : swapLimit)
        .kernelBytes(stat.kernel())
        .failcnt(events == null ? null : events.failcnt())
        .maxUsageBytes(maxUsage)
        .pgfault(stat.pgfault())
        .pgmajfault(stat.pgmajfault())
        .oomKills(events == null ? null : events.oomKills())
        .build();
  }

  private @Nullable Long single(String path, String name) {
    return KernelFile.readSingle(file(memoryBase, path, name));
  }
}
