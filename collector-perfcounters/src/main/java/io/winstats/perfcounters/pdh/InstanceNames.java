package io.winstats.perfcounters.pdh;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Instance-name conventions of PDH arrays. Stateless and thread-safe.
 *
 * <p>In the array results of a wildcard counter, instances with the same name come back with the plain name, without
 * the {@code #n} suffix perfmon shows (telegraf #2879). {@link #disambiguate(List)} derives it from occurrence order:
 * the first keeps the name, the next become {@code name#1}, {@code name#2}. Names that already carry a suffix are kept
 * and never reused. The index is not stable across samples when instances come and go; it only keeps the instances of
 * one sample apart.
 */
final class InstanceNames {
  private InstanceNames() {}

  /** The names in the same order, each unique. */
  static List<String> disambiguate(List<String> names) {
    Set<String> taken = new HashSet<>(names);
    Set<String> used = new HashSet<>();
    Map<String, Integer> nextIndex = new HashMap<>();
    List<String> out = new ArrayList<>(names.size());
    for (String name : names) {
      if (used.add(name)) {
        out.add(name);
        continue;
      }
      int n = nextIndex.getOrDefault(name, 1);
      String candidate = name + "#" + n;
      while (used.contains(candidate) || taken.contains(candidate)) {
        n++;
        candidate = name + "#" + n;
      }
      nextIndex.put(name, n + 1);
      used.add(candidate);
      out.add(candidate);
    }
    return out;
  }

  /** Whether a name is an aggregate: {@code _Total}, or a per-node aggregate such as {@code 0,_Total}. */
  static boolean isTotal(String name) {
    return name.endsWith("_Total");
  }
}
