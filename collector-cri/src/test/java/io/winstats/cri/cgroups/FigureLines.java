package io.winstats.cri.cgroups;

import java.lang.reflect.RecordComponent;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A record tree as text, one figure per line: its dotted path from the root and its value ({@code memory.cacheBytes
 * 1048576}), in component order; a list's elements by index ({@code io[0].device /dev/vda}), an empty list as {@code
 * []}, an absent part as {@code null}. Whole readings are pinned in this form as goldens, so that a new figure is a new
 * line of a golden rather than a new line of a test.
 */
final class FigureLines {
  private FigureLines() {}

  static String of(Record root) {
    StringBuilder out = new StringBuilder();
    walk(root, "", out);
    return out.toString();
  }

  private static void walk(@Nullable Object value, String path, StringBuilder out) {
    if (value instanceof Record r) {
      for (RecordComponent c : r.getClass().getRecordComponents()) {
        walk(component(c, r), path.isEmpty() ? c.getName() : path + "." + c.getName(), out);
      }
    } else if (value instanceof List<?> items && !items.isEmpty()) {
      for (int i = 0; i < items.size(); i++) {
        walk(items.get(i), path + "[" + i + "]", out);
      }
    } else {
      out.append(path).append(' ').append(value instanceof List ? "[]" : String.valueOf(value)).append('\n');
    }
  }

  private static @Nullable Object component(RecordComponent c, Record r) {
    try {
      return c.getAccessor().invoke(r);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(c.getName() + " of " + r.getClass().getSimpleName(), e);
    }
  }
}
