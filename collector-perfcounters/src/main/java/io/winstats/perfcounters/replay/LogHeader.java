package io.winstats.perfcounters.replay;

import io.winstats.perfcounters.counters.CounterPath;
import io.winstats.perfcounters.counters.LoggedCounter;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The counter columns of a {@link CounterLog}'s header, looked up by object, instance and counter, case-insensitively
 * as PDH matches them. Only the first host of a multi-host (relog-merged) log is indexed.
 */
final class LogHeader {
  private final List<@Nullable CounterPath> columns;
  private final @Nullable String host;
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, Set<String>> instancesByObject = new HashMap<>();

  LogHeader(List<@Nullable CounterPath> columns) {
    this.columns = columns;
    CounterPath first = columns.stream().filter(Objects::nonNull).findFirst().orElse(null);
    this.host = first == null ? null : first.host();
    for (int i = 0; i < columns.size(); i++) {
      CounterPath path = columns.get(i);
      if (path != null && sameHost(path.host(), host)) {
        index.putIfAbsent(key(path.object(), path.instance(), path.counter()), i);
        if (path.instance() != null) {
          instancesByObject
              .computeIfAbsent(path.object().toLowerCase(Locale.ROOT), o -> new LinkedHashSet<>())
              .add(path.instance());
        }
      }
    }
  }

  /** The host of the first counter column, whose counters are read; null when it is a local path or there is none. */
  @Nullable String host() {
    return host;
  }

  /** The path of column {@code column}, for messages. */
  @Nullable CounterPath path(int column) {
    return columns.get(column);
  }

  /** The instances of {@code object} in header order, empty when the log has none. */
  Set<String> instances(String object) {
    return instancesByObject.getOrDefault(object.toLowerCase(Locale.ROOT), Set.of());
  }

  @Nullable Integer column(String object, @Nullable String instance, LoggedCounter counter) {
    return index.get(key(object, instance, counter.counter()));
  }

  /** Why no instance of {@code object} can be read: what its first instance lacks. */
  static String incomplete(String object, String firstInstance, String lacking) {
    return "no instance of " + object + "(*) has every counter the node model needs; " + object + "(" + firstInstance
        + ") lacks " + lacking;
  }

  /** Host names compare as PDH compares them, case-insensitively; a local path (no host) matches only another. */
  private static boolean sameHost(@Nullable String a, @Nullable String b) {
    return a == null ? b == null : a.equalsIgnoreCase(b);
  }

  private static String key(String object, @Nullable String instance, String counter) {
    return object.toLowerCase(Locale.ROOT) + '\u0000' + (instance == null ? "" : instance) + '\u0000'
        + counter.toLowerCase(Locale.ROOT);
  }
}
