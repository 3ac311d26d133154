package io.winstats.exporter.metrics;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What differs between the families a golden serves and the declared ones, rather than both whole: a failing family
 * check then says which entries changed (a text golden's differing lines: {@link io.winstats.testing.GoldenText}).
 */
final class GoldenDiff {
  private GoldenDiff() {}

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
