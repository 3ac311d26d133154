package io.winstats.summary;

import static org.assertj.core.api.Assertions.assertThat;

import io.winstats.perfcounters.NodeSample;
import io.winstats.perfcounters.binding.BoundFigures;
import io.winstats.perfcounters.binding.Figure;
import io.winstats.perfcounters.counters.NodeExtraCounter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The Windows node fixture is a host with every counter: each figure a Windows counter fills (a row of a binding
 * table) has a value in each part of {@link SampleFixtures#windowsNode}. A figure without one would leave its series
 * out of every golden, and the golden checks would then name only the family; this names the figure and its counter.
 */
class SampleFixturesTest {
  @Test
  void theWindowsNodeHasAValueForEveryWindowsCounter() {
    NodeSample node = SampleFixtures.windowsNode(SampleFixtures.T1, 10_000_000_000L, 25_000_000_000L);
    List<String> missing = new ArrayList<>();
    for (BoundFigures.Table table : BoundFigures.TABLES) {
      if (table.binding().figures().get(0).counter() instanceof NodeExtraCounter) {
        continue; // Linux figures in logs this daemon recorded, not Windows counters
      }
      List<Object> parts = partsOf(node, table.record());
      if (parts.isEmpty()) {
        missing.add("every " + table.record().getSimpleName() + " (no part of the node is one)");
      }
      for (Map.Entry<String, Figure<?, ?, ?>> row : BoundFigures.of(table).entrySet()) {
        for (Object part : parts) {
          if (valueOf(row.getValue(), part) == null) {
            missing.add(row.getKey() + " (" + row.getValue().counter().counter() + ") of " + part);
          }
        }
      }
    }
    assertThat(missing)
        .as("figures of Windows counters without a value in SampleFixtures.windowsNode: set each (a made-up value"
            + " is fine; \\Memory and \\System rows get one without an edit)")
        .isEmpty();
  }

  @SuppressWarnings("unchecked") // a table's getters take its record, which BoundFigures pairs it with
  private static @Nullable Long valueOf(Figure<?, ?, ?> row, Object part) {
    return ((Function<Object, @Nullable Long>) row.value()).apply(part);
  }

  /** The records of {@code type} reachable from {@code record}, through record components and lists. */
  private static List<Object> partsOf(Object record, Class<?> type) {
    List<Object> parts = new ArrayList<>();
    if (type.isInstance(record)) {
      parts.add(record);
      return parts;
    }
    for (RecordComponent c : record.getClass().getRecordComponents()) {
      Object value;
      try {
        value = c.getAccessor().invoke(record);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new AssertionError(e);
      }
      if (value instanceof Record r) {
        parts.addAll(partsOf(r, type));
      } else if (value instanceof List<?> list) {
        for (Object element : list) {
          if (element instanceof Record r) {
            parts.addAll(partsOf(r, type));
          }
        }
      }
    }
    return parts;
  }
}
