package io.winstats.cri.cgroups;

import static io.winstats.cri.cgroups.CgroupReader.file;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.ObjLongConsumer;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A binding table of a cgroup record: each row one component, where cgroup v1 and v2 keep it (a key of a flat-keyed
 * file such as {@code memory.stat}, or a single-value file), and its setter on the record's generated builder. A
 * controller reads a cgroup by iterating the rows of its version ({@link Plan}): each file once, in the order the table
 * lists them, every key of a file in one pass, with no allocation per row beyond a nullable figure's box.
 *
 * @param <B> the record's builder
 */
final class CgroupKeyTable<B> {
  /**
   * Where one cgroup version keeps a figure: {@code key} of the flat-keyed {@code file} ({@code ownKey} where the
   * cgroup is not hierarchical, v1 {@code memory.stat} only), or the whole of a single-value {@code file} when
   * {@code key} is null; the value times {@code scale} is the component's unit.
   */
  record Source(String file, @Nullable String key, @Nullable String ownKey, long scale) {
    /** {@code key} of the flat-keyed {@code file}. */
    static Source key(String file, String key) {
      return new Source(file, key, null, 1);
    }

    /** {@code key} of the flat-keyed {@code file}, times {@code scale}. */
    static Source key(String file, String key, long scale) {
      return new Source(file, key, null, scale);
    }

    /** v1 {@code memory.stat}'s {@code hierarchical} key ({@code total_cache}), or {@code own} ({@code cache}). */
    static Source stat(String hierarchical, String own) {
      return new Source("memory.stat", hierarchical, own, 1);
    }

    /** The single-value {@code file}. */
    static Source single(String file) {
      return new Source(file, null, null, 1);
    }
  }

  /** Sets a component from what a file gave: {@code value} when {@code found}. */
  @FunctionalInterface
  interface Setter<B> {
    void set(B builder, boolean found, long value);
  }

  /**
   * One component: its name on the record, where v1 and v2 keep it ({@code null}: that version has it nowhere), and
   * its setter.
   */
  record Row<B>(String component, @Nullable Source v1, @Nullable Source v2, Setter<B> setter) {
    @Nullable Source source(CgroupVersion version) {
      return version == CgroupVersion.V2 ? v2 : v1;
    }
  }

  private final List<Row<B>> rows = new ArrayList<>();
  private List<String> requiredV1 = List.of();
  private List<String> optionalV1 = List.of();
  private List<String> requiredV2 = List.of();
  private List<String> optionalV2 = List.of();

  /** An empty table; rows are added in the record's component order. */
  static <B> CgroupKeyTable<B> of() {
    return new CgroupKeyTable<>();
  }

  /** A {@code long} component: the value found, 0 when the key or file is absent. */
  CgroupKeyTable<B> counter(String component, @Nullable Source v1, @Nullable Source v2, ObjLongConsumer<B> setter) {
    rows.add(new Row<B>(component, v1, v2, (b, found, value) -> setter.accept(b, found ? value : 0)));
    return this;
  }

  /** A {@code Long} component: the value found, {@code null} when the key or file is absent. */
  CgroupKeyTable<B> optional(
      String component, @Nullable Source v1, @Nullable Source v2, BiConsumer<B, @Nullable Long> setter) {
    rows.add(new Row<B>(component, v1, v2, (b, found, value) -> setter.accept(b, found ? Long.valueOf(value) : null)));
    return this;
  }

  /**
   * The files {@code version} reads, in order: without one of {@code required} the cgroup has no record; each of
   * {@code optional} leaves its rows unset when absent.
   */
  CgroupKeyTable<B> reads(CgroupVersion version, List<String> required, List<String> optional) {
    if (version == CgroupVersion.V2) {
      requiredV2 = List.copyOf(required);
      optionalV2 = List.copyOf(optional);
    } else {
      requiredV1 = List.copyOf(required);
      optionalV1 = List.copyOf(optional);
    }
    return this;
  }

  List<Row<B>> rows() {
    return List.copyOf(rows);
  }

  /**
   * The rows of {@code version}, grouped by file, each file in the directory {@code base} gives for its name; {@code
   * hierarchical} picks v1 {@code memory.stat}'s {@code total_*} keys over the cgroup's own.
   *
   * @throws IllegalStateException when a row names a file {@link #reads} does not list, or a listed file has no row
   */
  Plan<B> plan(CgroupVersion version, boolean hierarchical, UnaryOperator<String> base) {
    boolean v2 = version == CgroupVersion.V2;
    List<String> required = v2 ? requiredV2 : requiredV1;
    List<String> files = new ArrayList<>(required);
    files.addAll(v2 ? optionalV2 : optionalV1);
    Set<String> named = new LinkedHashSet<>();
    for (Row<B> row : rows) {
      Source s = row.source(version);
      if (s != null) {
        named.add(s.file());
      }
    }
    if (!named.equals(new LinkedHashSet<>(files))) {
      throw new IllegalStateException(version + " rows name the files " + named + ", the table reads " + files);
    }
    List<FileRead<B>> reads = new ArrayList<>();
    for (String name : files) {
      List<Row<B>> of = new ArrayList<>();
      List<String> keys = new ArrayList<>();
      List<Long> scales = new ArrayList<>();
      boolean single = false;
      for (Row<B> row : rows) {
        Source s = row.source(version);
        if (s == null || !s.file().equals(name)) {
          continue;
        }
        String own = s.ownKey();
        String key = hierarchical || own == null ? s.key() : own;
        single = key == null;
        of.add(row);
        keys.add(key == null ? "" : key);
        scales.add(s.scale());
      }
      reads.add(new FileRead<>(base.apply(name), "/" + name, required.contains(name), single, of, keys, scales));
    }
    return new Plan<>(reads);
  }

  /** One file of a plan and the rows it feeds. */
  static final class FileRead<B> implements KernelFile.ContextParser<B, Boolean> {
    private final String base;
    private final String name;
    private final boolean required;
    private final boolean single;
    private final List<Setter<B>> setters;
    private final long[] scales;
    private final KernelFile.Keys<Integer> keys;

    FileRead(
        String base,
        String name,
        boolean required,
        boolean single,
        List<Row<B>> rows,
        List<String> keys,
        List<Long> scales) {
      this.base = base;
      this.name = name;
      this.required = required;
      this.single = single;
      this.setters = rows.stream().map(Row::setter).toList();
      this.scales = scales.stream().mapToLong(Long::longValue).toArray();
      this.keys = KernelFile.Keys.named(keys);
    }

    /** Sets this file's rows on {@code builder}; {@code null} when the file is absent or unreadable. */
    @Override
    public @Nullable Boolean parse(B builder, KernelFile f) {
      if (single) {
        Long value = f.single();
        setters.get(0).set(builder, value != null, value == null ? 0 : value * scales[0]);
        return value != null;
      }
      f.keyed(keys);
      for (int i = 0; i < scales.length; i++) {
        boolean found = f.has(keys, i);
        setters.get(i).set(builder, found, found ? f.value(i) * scales[i] : 0);
      }
      return Boolean.TRUE;
    }
  }

  /** The files one cgroup version reads for a record, in order, each with its rows. */
  static final class Plan<B> {
    private final List<FileRead<B>> reads;

    private Plan(List<FileRead<B>> reads) {
      this.reads = List.copyOf(reads);
    }

    /**
     * Fills {@code builder} from the cgroup at {@code path}: every row of every file; {@code false} (the record is
     * absent) when a required file is, and then no later file is read. An absent optional file leaves its rows at 0
     * or {@code null}.
     */
    boolean fill(String path, B builder) {
      for (FileRead<B> read : reads) {
        Boolean ok = KernelFile.read(file(read.base, path, read.name), builder, read);
        if (ok == null || !ok) {
          if (read.required) {
            return false;
          }
          if (ok == null) {
            for (Setter<B> s : read.setters) {
              s.set(builder, false, 0);
            }
          }
        }
      }
      return true;
    }
  }
}
