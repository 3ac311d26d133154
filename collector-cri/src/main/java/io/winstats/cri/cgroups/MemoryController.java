package io.winstats.cri.cgroups;

import static io.winstats.cri.cgroups.CgroupKeyTable.Source.key;
import static io.winstats.cri.cgroups.CgroupKeyTable.Source.single;
import static io.winstats.cri.cgroups.CgroupKeyTable.Source.stat;
import static io.winstats.cri.cgroups.CgroupReader.file;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The memory figures and limits of a cgroup: v1's {@code memory.stat} and its single-value files, or v2's {@code
 * memory.stat}, {@code memory.events} and single values, each flat-keyed file read by key name.
 */
final class MemoryController {
  private static final String STAT = "memory.stat";
  private static final String EVENTS = "memory.events";

  /** v1 {@code memory.stat}: the inactive file pages cAdvisor takes from a working set. */
  enum InactiveFileV1 {
    TOTAL_INACTIVE_FILE
  }

  /** v2 {@code memory.stat}: the inactive file pages cAdvisor takes from a working set. */
  enum InactiveFileV2 {
    INACTIVE_FILE
  }

  /**
   * The memory figures cAdvisor's {@code setMemoryStats} serves (google/cadvisor
   * lib/container/libcontainer/handler.go:820-853@v0.60.5): cache, rss, swap and mapped file from v2's {@code
   * memory.stat} keys (:831-834), v1's {@code total_*} keys under {@code use_hierarchy} (:836-839) or the cgroup's own
   * (:841-844); the page faults (:846-853); max usage, failcnt and kernel usage (:825-827) from the files
   * opencontainers/cgroups v0.0.6 reads (v1 fs/memory.go:176,212-214,233-237; v2 {@code memory.peak}
   * fs2/memory.go:165-171); the OOM kills of {@code memory.oom_control} (fs/fs.go:283) or {@code memory.events}
   * (fs2/fs2.go:287). v2's swap is {@code memory.swap.current} alone, the kubelet's {@code swapUsageBytes}, not runc's
   * memory plus swap. {@code swapLimitBytes} is no key: v2's limit where swap is read ({@link #readV2}), none on v1.
   */
  static final CgroupKeyTable<CgroupMemoryBuilder> TABLE =
      CgroupKeyTable.<CgroupMemoryBuilder>of()
          .counter("cacheBytes", stat("total_cache", "cache"), key(STAT, "file"), CgroupMemoryBuilder::cacheBytes)
          .counter("rssBytes", stat("total_rss", "rss"), key(STAT, "anon"), CgroupMemoryBuilder::rssBytes)
          .counter(
              "mappedFileBytes",
              stat("total_mapped_file", "mapped_file"),
              key(STAT, "file_mapped"),
              CgroupMemoryBuilder::mappedFileBytes)
          .optional(
              "swapBytes", stat("total_swap", "swap"), single("memory.swap.current"), CgroupMemoryBuilder::swapBytes)
          .optional(
              "kernelBytes",
              single("memory.kmem.usage_in_bytes"),
              key(STAT, "kernel"),
              CgroupMemoryBuilder::kernelBytes)
          .optional("failcnt", single("memory.failcnt"), key(EVENTS, "max"), CgroupMemoryBuilder::failcnt)
          .optional(
              "maxUsageBytes",
              single("memory.max_usage_in_bytes"),
              single("memory.peak"),
              CgroupMemoryBuilder::maxUsageBytes)
          .counter("pgfault", key(STAT, "pgfault"), key(STAT, "pgfault"), CgroupMemoryBuilder::pgfault)
          .counter("pgmajfault", key(STAT, "pgmajfault"), key(STAT, "pgmajfault"), CgroupMemoryBuilder::pgmajfault)
          .optional(
              "oomKills", key("memory.oom_control", "oom_kill"), key(EVENTS, "oom_kill"), CgroupMemoryBuilder::oomKills)
          .reads(
              CgroupVersion.V1,
              List.of(STAT),
              List.of(
                  "memory.kmem.usage_in_bytes",
                  "memory.failcnt",
                  "memory.max_usage_in_bytes",
                  "memory.oom_control"))
          .reads(CgroupVersion.V2, List.of(STAT), List.of(EVENTS, "memory.swap.current", "memory.peak"));

  private static final KernelFile.Keys<InactiveFileV1> INACTIVE_V1 = KernelFile.Keys.of(InactiveFileV1.class);
  private static final KernelFile.Keys<InactiveFileV2> INACTIVE_V2 = KernelFile.Keys.of(InactiveFileV2.class);

  private final String memoryBase;
  private final CgroupVersion version;
  private final CgroupKeyTable.Plan<CgroupMemoryBuilder> hierarchicalPlan;
  private final CgroupKeyTable.Plan<CgroupMemoryBuilder> ownPlan;

  MemoryController(String memoryBase, CgroupVersion version) {
    this.memoryBase = memoryBase;
    this.version = version;
    this.hierarchicalPlan = TABLE.plan(version, true, name -> memoryBase);
    this.ownPlan = TABLE.plan(version, false, name -> memoryBase);
  }

  /** The limits cAdvisor serves as {@code container_spec_memory_*}: v1's soft and memsw limits, v2's min and swap. */
  CgroupSpec spec(String path) {
    return version == CgroupVersion.V2
        ? new CgroupSpec(readSingle(path, "/memory.min"), readSingle(path, "/memory.swap.max"))
        : new CgroupSpec(
            readSingle(path, "/memory.soft_limit_in_bytes"), readSingle(path, "/memory.memsw.limit_in_bytes"));
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
    Long usage = readSingle(path, v2 ? "/memory.current" : "/memory.usage_in_bytes");
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
    return CgroupMemoryUsage.of(usage, inactive, readSingle(path, v2 ? "/memory.max" : "/memory.limit_in_bytes"));
  }

  private @Nullable CgroupMemory readV1(String path, Kept k) {
    // With use_hierarchy cAdvisor reads the total_* keys. It can only change while a cgroup has no children, nothing
    // changes it on a container's, and since Linux 5.11 it is always 1 ("mm: memcg: deprecate the non-hierarchical
    // mode"): read once per cgroup.
    Boolean known = k.hierarchicalMemory;
    boolean hierarchical;
    if (known == null) {
      Long useHierarchy = readSingle(path, "/memory.use_hierarchy");
      hierarchical = useHierarchy == null || useHierarchy == 1;
      k.hierarchicalMemory = hierarchical;
    } else {
      hierarchical = known;
    }
    CgroupMemoryBuilder memory = CgroupMemory.builder();
    return (hierarchical ? hierarchicalPlan : ownPlan).fill(path, memory) ? memory.build() : null;
  }

  private @Nullable CgroupMemory readV2(String path, CgroupSpec spec) {
    // Swap's limit only where swap is accounted ("max", unlimited, is null, as the kubelet omits swapAvailableBytes
    // without a limit): set first, and taken back when memory.swap.current is absent.
    Long swapLimit = spec.memorySwapLimitBytes();
    CgroupMemoryBuilder memory =
        CgroupMemory.builder().swapLimitBytes(swapLimit == null || swapLimit == Long.MAX_VALUE ? null : swapLimit);
    if (!hierarchicalPlan.fill(path, memory)) {
      return null;
    }
    CgroupMemory read = memory.build();
    return read.swapBytes() == null && read.swapLimitBytes() != null
        ? CgroupMemoryBuilder.builder(read).swapLimitBytes(null).build()
        : read;
  }

  private @Nullable Long readSingle(String path, String name) {
    return KernelFile.readSingle(file(memoryBase, path, name));
  }
}
