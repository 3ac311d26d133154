package io.winstats.perfcounters.pdh;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A local counter path {@code \Object(Instance)\Counter} or {@code \Object\Counter}, English names.
 *
 * @param object the perf object, never empty
 * @param instance the instance part ({@code *}, {@code _Total}, a name), or {@code null} for an object without instances
 * @param counter the counter name, never empty
 */
public record CounterPath(String object, @Nullable String instance, String counter) {
  public CounterPath {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(counter, "counter");
    if (object.isEmpty() || counter.isEmpty() || object.contains("\\") || counter.contains("\\")) {
      throw new IllegalArgumentException("bad counter path parts: " + object + " / " + counter);
    }
  }

  /**
   * Parses {@code \Object(Instance)\Counter} or {@code \Object\Counter}. Remote paths ({@code \\machine\...}) are
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
    String objectPart = path.substring(1, last);
    String counter = path.substring(last + 1);
    int open = objectPart.indexOf('(');
    if (open < 0) {
      return new CounterPath(objectPart, null, counter);
    }
    if (!objectPart.endsWith(")") || open == 0) {
      throw new IllegalArgumentException("unbalanced instance in counter path: " + path);
    }
    return new CounterPath(objectPart.substring(0, open), objectPart.substring(open + 1, objectPart.length() - 1), counter);
  }

  /** Whether the instance part is a wildcard. */
  public boolean wildcard() {
    return instance != null && instance.contains("*");
  }

  /** The path text. */
  @Override
  public String toString() {
    return "\\" + object + (instance != null ? "(" + instance + ")" : "") + "\\" + counter;
  }
}
