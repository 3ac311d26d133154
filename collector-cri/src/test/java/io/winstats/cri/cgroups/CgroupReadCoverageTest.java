package io.winstats.cri.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every figure a cgroup reading carries is read from a kernel file: a component of {@link CgroupStats} or of the
 * records below it ({@link CgroupCpu}, {@link CgroupMemory}, {@link BlockDeviceIo}, {@link CgroupProcesses}, {@link
 * Pressure}, {@link CgroupSpec}, {@link HugePages}) that is declared and served but parsed from no file would otherwise
 * pass every unit test at its builder's 0 or null. The full v1 and v2 fixture trees ({@link CgroupTrees}, every value
 * distinct and none 0) are read; each component must come out set (not null, not 0, not empty) from at least one of
 * them, unless {@link #NOT_READ} says why not. A new component fails here until it is read or listed. The binding
 * tables' rows ({@link CgroupKeyTable}) are held closer: each from the tree of every version it names a source for,
 * and each component of their records in a row.
 */
@EnabledOnOs(OS.LINUX)
class CgroupReadCoverageTest {
  private static final String PATH = "/kubepods/burstable/pod1234/" + CgroupTrees.ID;

  /** Components no fixture tree sets, each with why. */
  private static final Map<String, String> NOT_READ = Map.of();

  @TempDir Path tmp;

  @Test
  void everyComponentIsReadFromTheV1OrTheV2TreeOrListedWithItsReason() {
    Map<String, Boolean> v1 = components(read(CgroupVersion.V1));
    Map<String, Boolean> v2 = components(read(CgroupVersion.V2));
    assertThat(v1.keySet()).as("both readings walk the same components").isEqualTo(v2.keySet());

    Set<String> unread = new TreeSet<>();
    v1.forEach((component, set) -> {
      if (!set && !v2.get(component)) {
        unread.add(component);
      }
    });
    Set<String> listedButRead = new TreeSet<>(NOT_READ.keySet());
    listedButRead.removeAll(unread);
    unread.removeAll(NOT_READ.keySet());
    assertThat(unread).as("components read from neither tree and not listed in NOT_READ").isEmpty();
    assertThat(listedButRead).as("components listed in NOT_READ that a tree sets after all").isEmpty();
    assertThat(v1).as("the walk reaches the leaves").hasSizeGreaterThan(30);
  }

  /**
   * Each row of the binding tables ({@link MemoryController#TABLE}, {@link CpuController#TABLE}) is read from the tree
   * of each version that keeps its figure: a wrong key or file name fails here by the row's component and source.
   */
  @Test
  void everyRowOfTheKeyTablesIsReadFromTheTreeOfEachVersionThatKeepsIt() {
    Map<String, Boolean> v1 = components(read(CgroupVersion.V1));
    Map<String, Boolean> v2 = components(read(CgroupVersion.V2));
    Set<String> unread = new TreeSet<>();
    unreadRows("memory", MemoryController.TABLE, v1, v2, unread);
    unreadRows("cpu", CpuController.TABLE, v1, v2, unread);
    assertThat(unread).as("rows whose component the tree of their version leaves unset").isEmpty();
  }

  /**
   * Every component of a table's record has its row, but those set beside the table: a component added to the record
   * without its row fails here by name.
   */
  @Test
  void everyComponentOfATablesRecordHasItsRow() {
    assertThat(withoutRow(CgroupMemory.class, MemoryController.TABLE))
        .as("CgroupMemory components without a row in MemoryController.TABLE")
        .containsExactly("swapLimitBytes");
    assertThat(withoutRow(CgroupCpu.class, CpuController.TABLE))
        .as("CgroupCpu components without a row in CpuController.TABLE")
        .isEmpty();
  }

  private static Set<String> withoutRow(Class<?> record, CgroupKeyTable<?> table) {
    Set<String> out = new TreeSet<>();
    for (RecordComponent c : record.getRecordComponents()) {
      out.add(c.getName());
    }
    Set<String> rows = new TreeSet<>();
    for (CgroupKeyTable.Row<?> row : table.rows()) {
      rows.add(row.component());
    }
    assertThat(out).as("rows name components of " + record.getSimpleName()).containsAll(rows);
    out.removeAll(rows);
    return out;
  }

  private static void unreadRows(
      String part, CgroupKeyTable<?> table, Map<String, Boolean> v1, Map<String, Boolean> v2, Set<String> unread) {
    for (CgroupKeyTable.Row<?> row : table.rows()) {
      String name = part + "." + row.component();
      assertThat(v1).as("a component of CgroupStats." + part).containsKey(name);
      if (row.v1() != null && !v1.get(name)) {
        unread.add("v1 " + name + " from " + row.v1());
      }
      if (row.v2() != null && !v2.get(name)) {
        unread.add("v2 " + name + " from " + row.v2());
      }
    }
  }

  /** The walk itself: a component left at its builder's default is caught. */
  @Test
  void aComponentLeftAtItsDefaultIsCaught() {
    Map<String, Boolean> c = components(CgroupStats.builder(PATH)
        .cpu(CgroupCpu.builder().userNanos(1).build())
        .build());
    assertThat(c).containsEntry("cpu.userNanos", true).containsEntry("cpu.systemNanos", false)
        .containsEntry("memory.cacheBytes", false).containsEntry("io[0].readBytes", false)
        .containsEntry("path", true);
  }

  /** One container's cgroup of {@code version}, with every file the reader knows, read once. */
  private CgroupStats read(CgroupVersion version) {
    Path base = tmp.resolve(version.name());
    Path root = base.resolve("cgroup");
    Path proc = base.resolve("proc");
    Path sys = base.resolve("sys");
    // A device whose minor number is not 0, so that the minor shows it was read.
    CgroupTrees.device(sys, "8:16", "sdb", "none");
    CgroupTrees.hugePagePool(sys, 2048, 16);
    if (version == CgroupVersion.V1) {
      CgroupTrees.v1Container(root, PATH, 4242);
      CgroupTrees.process(proc, 4242, "1048576");
      CgroupTrees.process(proc, 4247, "1024");
      Path memory = root.resolve("memory" + PATH);
      CgroupTrees.write(memory.resolve("memory.soft_limit_in_bytes"), "268435456\n");
      CgroupTrees.write(memory.resolve("memory.memsw.limit_in_bytes"), "1073741824\n");
      Path hugetlb = root.resolve("hugetlb" + PATH);
      CgroupTrees.write(hugetlb.resolve("hugetlb.2MB.usage_in_bytes"), "4194304\n");
      CgroupTrees.write(hugetlb.resolve("hugetlb.2MB.max_usage_in_bytes"), "8388608\n");
      Path blkio = root.resolve("blkio" + PATH);
      CgroupTrees.write(blkio.resolve("blkio.throttle.io_service_bytes_recursive"),
          "8:16 Read 40960\n8:16 Write 1048576\n8:16 Total 1089536\nTotal 1089536\n");
      CgroupTrees.write(blkio.resolve("blkio.throttle.io_serviced_recursive"),
          "8:16 Read 10\n8:16 Write 256\n8:16 Total 266\nTotal 266\n");
    } else {
      CgroupTrees.v2Cgroup(root, PATH, 77);
      CgroupTrees.process(proc, 77, "1048576");
      Path dir = root.resolve(PATH.substring(1));
      CgroupTrees.write(dir.resolve("memory.min"), "134217728\n");
      CgroupTrees.write(dir.resolve("hugetlb.2MB.current"), "2097152\n");
      CgroupTrees.write(dir.resolve("io.stat"), "8:16 rbytes=40960 wbytes=1048576 rios=10 wios=256 dbytes=0 dios=0\n");
      // The tree's memory and io PSI averages are 0.00: distinct values, so that each average shows it was read.
      CgroupTrees.write(dir.resolve("memory.pressure"),
          "some avg10=1.25 avg60=0.50 avg300=0.20 total=3000\nfull avg10=0.75 avg60=0.30 avg300=0.10 total=1000\n");
      CgroupTrees.write(dir.resolve("io.pressure"),
          "some avg10=2.25 avg60=1.50 avg300=0.40 total=5000\nfull avg10=1.75 avg60=1.30 avg300=0.30 total=4000\n");
    }
    CgroupReader reader = new CgroupReader(root, proc, sys);
    assertThat(reader.version()).isEqualTo(version);
    return reader.read(PATH);
  }

  /**
   * Each leaf component below {@code stats} by its dotted path (a list by its first element), and whether the reading
   * set it: not null, not 0, not empty.
   */
  static Map<String, Boolean> components(CgroupStats stats) {
    Map<String, Boolean> out = new TreeMap<>();
    walk(CgroupStats.class, stats, "", out);
    return out;
  }

  private static void walk(Class<?> type, @Nullable Object value, String path, Map<String, Boolean> out) {
    if (type.isRecord()) {
      // An absent record still names its leaves, each unset, so that both readings list the same components.
      for (RecordComponent c : type.getRecordComponents()) {
        Object v;
        try {
          v = value == null ? null : c.getAccessor().invoke(value);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
        String name = path.isEmpty() ? c.getName() : path + "." + c.getName();
        if (c.getType() == List.class) {
          List<?> items = (List<?>) v;
          Class<?> element = (Class<?>) ((ParameterizedType) c.getGenericType()).getActualTypeArguments()[0];
          walk(element, items == null || items.isEmpty() ? null : items.get(0), name + "[0]", out);
        } else {
          walk(c.getType(), v, name, out);
        }
      }
      return;
    }
    out.put(path, isSet(value));
  }

  private static boolean isSet(@Nullable Object value) {
    if (value instanceof Number n) {
      return n.doubleValue() != 0;
    }
    if (value instanceof CharSequence s) {
      return s.length() > 0;
    }
    return value != null;
  }
}
