package io.winstats.perfcounters.replay;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A full PDH counter path as a counter log's header names it: {@code \\HOST\Object(instance)\Counter}, or {@code
 * \\HOST\Object\Counter} for single-instance objects.
 *
 * @param host the machine name, without the leading backslashes
 * @param object the performance object ({@code Processor}, {@code Memory})
 * @param instance the instance ({@code _Total}, {@code 0,3}, {@code Intel[R] 82579V Gigabit Network Connection}), or
 *     null for single-instance objects
 * @param counter the counter name ({@code % Processor Time})
 */
public record CounterPath(String host, String object, @Nullable String instance, String counter) {
  public CounterPath {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(counter, "counter");
  }

  /**
   * Parses a header cell. The counter is what follows the last backslash; an instance runs from the first {@code (}
   * after the object name to the last {@code )}, so instance names may hold backslashes and parentheses.
   *
   * @return the path, or empty when the cell is not a counter path (such as the trailing description column some data
   *     collector sets append)
   */
  public static Optional<CounterPath> parse(String cell) {
    if (!cell.startsWith("\\\\")) {
      return Optional.empty();
    }
    int hostEnd = cell.indexOf('\\', 2);
    int counterStart = cell.lastIndexOf('\\');
    if (hostEnd <= 2 || counterStart <= hostEnd + 1 || counterStart == cell.length() - 1) {
      return Optional.empty();
    }
    String host = cell.substring(2, hostEnd);
    String objectPart = cell.substring(hostEnd + 1, counterStart);
    String counter = cell.substring(counterStart + 1);
    int open = objectPart.indexOf('(');
    if (open < 0) {
      return Optional.of(new CounterPath(host, objectPart, null, counter));
    }
    if (open == 0 || !objectPart.endsWith(")")) {
      return Optional.empty();
    }
    return Optional.of(
        new CounterPath(
            host, objectPart.substring(0, open), objectPart.substring(open + 1, objectPart.length() - 1), counter));
  }

  /** The path as a header cell spells it. */
  @Override
  public String toString() {
    return "\\\\" + host + "\\" + object + (instance == null ? "" : "(" + instance + ")") + "\\" + counter;
  }
}
