package io.winstats.exporter.metrics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What differs between a golden and what was made, rather than both whole: a failing golden or family check then says
 * which lines or which entries changed.
 */
final class GoldenDiff {
  private GoldenDiff() {}

  /**
   * The lines only in {@code golden} ({@code -}) and only in {@code actual} ({@code +}), each in its own order; empty
   * when both hold the same lines (they may still differ in order, which the caller's equality check then shows).
   */
  static List<String> lines(String golden, String actual) {
    Set<String> theirs = new LinkedHashSet<>(golden.lines().toList());
    Set<String> ours = new LinkedHashSet<>(actual.lines().toList());
    List<String> diff = new ArrayList<>();
    theirs.stream().filter(l -> !ours.contains(l)).forEach(l -> diff.add("- " + l));
    ours.stream().filter(l -> !theirs.contains(l)).forEach(l -> diff.add("+ " + l));
    return diff;
  }

  /** The keys missing from {@code actual}, the extra ones and those whose value differs, each with its values. */
  static <V> Map<String, String> entries(Map<String, V> expected, Map<String, V> actual) {
    Map<String, String> diff = new TreeMap<>();
    Set<String> keys = new TreeSet<>(expected.keySet());
    keys.addAll(actual.keySet());
    for (String k : keys) {
      V e = expected.get(k);
      V a = actual.get(k);
      if (a == null) {
        diff.put(k, "missing (expected " + e + ")");
      } else if (e == null) {
        diff.put(k, "extra (" + a + ")");
      } else if (!Objects.equals(e, a)) {
        diff.put(k, "expected " + e + " but was " + a);
      }
    }
    return diff;
  }
}
