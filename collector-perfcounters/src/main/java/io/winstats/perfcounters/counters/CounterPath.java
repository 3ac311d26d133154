package io.winstats.perfcounters.counters;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A PDH counter path: {@code \\HOST\Object(Instance)\Counter}, with {@code \\HOST} left out for a local path and
 * {@code (Instance)} for an object without instances. English names in the paths this project declares; counter logs
 * hold whatever names the logging machine used.
 *
 * @param host the machine name without the leading backslashes, or {@code null} for a local path
 * @param object the perf object ({@code Processor Information}), never empty
 * @param instance the instance part ({@code *}, {@code _Total}, {@code 0,3}, an adapter name), or {@code null} for an
 *     object without instances
 * @param counter the counter name ({@code % Processor Time}), never empty and without a backslash
 */
public record CounterPath(@Nullable String host, String object, @Nullable String instance, String counter) {
  public CounterPath {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(counter, "counter");
    if (object.isEmpty() || counter.isEmpty() || counter.contains("\\")) {
      throw new IllegalArgumentException("bad counter path parts: " + object + " / " + counter);
    }
  }

  /** A local path. */
  public CounterPath(String object, @Nullable String instance, String counter) {
    this(null, object, instance, counter);
  }

  /**
   * Parses a local path, {@code \Object(Instance)\Counter} or {@code \Object\Counter}, as configuration names counters
   * for {@code PdhAddEnglishCounterW}. Remote paths ({@code \\machine\...}) and object names holding a backslash are
   * refused. The instance is taken from the first {@code (} of the object part to its final {@code )}, so instance
   * names with parentheses survive.
   *
   * @throws IllegalArgumentException when the text is not such a path
   */
  public static CounterPath parse(String path) {
    if (!path.startsWith("\\") || path.startsWith("\\\\")) {
      throw new IllegalArgumentException("not a local counter path (must start with a single \\): " + path);
    }
    int last = path.lastIndexOf('\\');
    if (last <= 1 || last == path.length() - 1) {
      throw new IllegalArgumentException("counter path needs \\Object\\Counter: " + path);
    }
    CounterPath parsed = split(null, path.substring(1, last), path.substring(last + 1));
    if (parsed == null) {
      throw new IllegalArgumentException("unbalanced instance in counter path: " + path);
    }
    if (parsed.object().contains("\\")) {
      throw new IllegalArgumentException("bad counter path parts: " + parsed.object() + " / " + parsed.counter());
    }
    return parsed;
  }

  /**
   * Parses a path that names its machine, as a counter log's header cell holds it:
   * {@code \\HOST\Object(Instance)\Counter} or {@code \\HOST\Object\Counter}. The counter is what follows the last
   * backslash; an instance runs from the first {@code (} after the object name to the last {@code )}, so instance names
   * may hold backslashes and parentheses.
   *
   * @return the path, or empty when the cell is not such a path (such as the trailing description column some data
   *     collector sets append)
   */
  public static Optional<CounterPath> parseQualified(String cell) {
    if (!cell.startsWith("\\\\")) {
      return Optional.empty();
    }
    int hostEnd = cell.indexOf('\\', 2);
    int counterStart = cell.lastIndexOf('\\');
    if (hostEnd <= 2 || counterStart <= hostEnd + 1 || counterStart == cell.length() - 1) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        split(cell.substring(2, hostEnd), cell.substring(hostEnd + 1, counterStart), cell.substring(counterStart + 1)));
  }

  /** Splits {@code Object(Instance)} or {@code Object}; null when the parentheses do not close at the end. */
  private static @Nullable CounterPath split(@Nullable String host, String objectPart, String counter) {
    int open = objectPart.indexOf('(');
    if (open < 0) {
      return new CounterPath(host, objectPart, null, counter);
    }
    if (open == 0 || !objectPart.endsWith(")")) {
      return null;
    }
    return new CounterPath(
        host, objectPart.substring(0, open), objectPart.substring(open + 1, objectPart.length() - 1), counter);
  }

  /** Whether the instance part is a wildcard. */
  public boolean wildcard() {
    return instance != null && instance.contains("*");
  }

  /** The path text, as PDH and counter logs spell it. */
  @Override
  public String toString() {
    return (host == null ? "" : "\\\\" + host) + "\\" + object + (instance == null ? "" : "(" + instance + ")") + "\\"
        + counter;
  }
}
