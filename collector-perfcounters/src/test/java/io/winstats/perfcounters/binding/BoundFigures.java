package io.winstats.perfcounters.binding;

import io.winstats.perfcounters.DiskIoCounters;
import io.winstats.perfcounters.NetworkInterfaceCounters;
import io.winstats.perfcounters.NodeMemory;
import io.winstats.perfcounters.NodeSystem;
import io.winstats.perfcounters.PhysicalDiskCounters;
import io.winstats.perfcounters.ProcessorCounters;
import io.winstats.perfcounters.counters.NodeExtraCounter;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The record components the binding tables fill, found from the tables themselves: each row's getter is asked of a
 * record whose every component holds a value of its own, and the component holding the answer is the row's. Tests
 * derive their per-figure lists from this (which figures a log carries and how, which figures are Windows counters),
 * so a new row needs no entry in them. The processor table is not here: its rows fill one map, {@code
 * CoreCpuTime.nanosByMode}.
 */
public final class BoundFigures {
  /** A table whose rows each fill one component of {@code record}. */
  public record Table(Binding<?, ?, ?> binding, Class<? extends Record> record) {}

  /** Every binding table whose rows fill record components, with the record. */
  public static final List<Table> TABLES =
      List.of(
          new Table(MemoryBinding.MEMORY, NodeMemory.class),
          new Table(MemoryBinding.WINSTATS_NODE, NodeMemory.class),
          new Table(SystemBinding.SYSTEM, NodeSystem.class),
          new Table(SystemBinding.WINSTATS_NODE, NodeSystem.class),
          new Table(NetworkInterfaceBinding.NETWORK_INTERFACE, NetworkInterfaceCounters.class),
          new Table(LogicalDiskBinding.DISK_IO, DiskIoCounters.class),
          new Table(PhysicalDiskBinding.DISK, PhysicalDiskCounters.class),
          new Table(ProcessorBinding.CORE, ProcessorCounters.class));

  private BoundFigures() {}

  /** Each component a row fills, named {@code Record.component}, with its row; in table and row order. */
  public static Map<String, Figure<?, ?, ?>> all() {
    Map<String, Figure<?, ?, ?>> bound = new LinkedHashMap<>();
    for (Table table : TABLES) {
      bound.putAll(of(table));
    }
    return bound;
  }

  /**
   * The components Windows performance counters fill: the rows of every table but the {@code \Winstats Node} ones,
   * which carry Linux figures in logs this daemon recorded.
   */
  public static Set<String> windowsCounters() {
    Set<String> bound = new LinkedHashSet<>();
    for (Table table : TABLES) {
      if (!(table.binding().figures().get(0).counter() instanceof NodeExtraCounter)) {
        bound.addAll(of(table).keySet());
      }
    }
    return bound;
  }

  /** The components {@code table}'s rows fill, each with its row. */
  @SuppressWarnings("unchecked") // a table's getters take its record, which TABLES pairs it with
  public static Map<String, Figure<?, ?, ?>> of(Table table) {
    Object probe = probe(table.record());
    RecordComponent[] components = table.record().getRecordComponents();
    Map<String, Figure<?, ?, ?>> bound = new LinkedHashMap<>();
    for (Figure<?, ?, ?> figure : table.binding().figures()) {
      Long value = ((Function<Object, @Nullable Long>) figure.value()).apply(probe);
      String name = null;
      for (int i = 0; i < components.length; i++) {
        if (value != null && value == distinct(i)) {
          name = table.record().getSimpleName() + "." + components[i].getName();
        }
      }
      if (name == null) {
        throw new AssertionError(
            "the row of " + figure.counter().counter() + " reads no one component of "
                + table.record().getSimpleName());
      }
      bound.put(name, figure);
    }
    return bound;
  }

  /** {@code type} with a value of its own in each numeric component, through its canonical constructor. */
  private static Object probe(Class<? extends Record> type) {
    RecordComponent[] components = type.getRecordComponents();
    Class<?>[] types = new Class<?>[components.length];
    Object[] args = new Object[components.length];
    for (int i = 0; i < components.length; i++) {
      Class<?> t = components[i].getType();
      types[i] = t;
      if (t == long.class || t == Long.class) {
        args[i] = distinct(i);
      } else if (t == String.class) {
        args[i] = "probe";
      } else if (t == Instant.class) {
        args[i] = Instant.EPOCH;
      } else if (t == double.class || t == Double.class) {
        args[i] = 0.5;
      } else if (t == List.class) {
        args[i] = List.of();
      } else if (t == Map.class) {
        args[i] = Map.of();
      } else if (t.isPrimitive()) {
        throw new AssertionError("no probe value for a " + t + " (" + type.getSimpleName() + ")");
      }
    }
    try {
      Constructor<?> canonical = type.getDeclaredConstructor(types);
      return canonical.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("cannot build a probe " + type.getSimpleName(), e);
    }
  }

  private static long distinct(int component) {
    return 1_000_003L * (component + 1);
  }
}
